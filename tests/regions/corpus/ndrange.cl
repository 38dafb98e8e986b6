// Kernels that use the NDRange queries the partition-ready rewrite must preserve:
// get_group_id, get_num_groups, get_global_size, get_global_offset, get_local_size.

__kernel void by_group(__global const float *in, __global float *out) {
  size_t i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  out[i] = in[i] + (float)get_num_groups(0);
}
//@ launch by_group global=256 local=16 disjoint=0 tight
//@ arg buffer 1024 float
//@ arg buffer 1024 float

__kernel void with_offset(__global const float *in, __global float *out) {
  size_t i = get_global_id(0) - get_global_offset(0);
  out[i] = in[i] * 2;
}
//@ launch with_offset global=256 local=16 offset=32 disjoint=0 tight
//@ arg buffer 1024 float
//@ arg buffer 1024 float

__kernel void linear3d(__global float *out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[i] = (float)i;
}
//@ launch linear3d global=8x8x4 local=4x2x2 disjoint=2 tight
//@ arg buffer 1024 float

__kernel void last_group(__global float *out, __global const float *in) {
  int g = get_group_id(0);
  if (g == get_num_groups(0) - 1 && get_local_id(0) == 0)
    out[0] = in[0];
  out[get_global_id(0) + 1] = in[get_global_id(0)];
}
//@ launch last_group global=128 local=16
//@ arg buffer 520 float
//@ arg buffer 520 float

__kernel void strided_rows(__global const float *in, __global float *out, int stride) {
  size_t row = get_global_id(1), col = get_global_id(0);
  out[row * get_global_size(0) + col] = in[row * stride + col];
}
//@ launch strided_rows global=16x16 local=4x4 offset=0x0 disjoint=1 tight
//@ arg buffer 1280 float
//@ arg buffer 1024 float
//@ arg int 20
