// Reductions: per-group sums in local memory, a grid-stride loop over get_global_size, and
// global atomics (a histogram, a counter, a maximum).

__kernel void reduce_sum(__global const float *in, __global float *out, int n) {
  __local float buf[64];
  int lid = get_local_id(0), i = get_global_id(0);
  buf[lid] = i < n ? in[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s)
      buf[lid] += buf[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = buf[0];
}
//@ launch reduce_sum global=512 local=64 disjoint=0 tight
//@ arg buffer 2000 float
//@ arg buffer 32 float
//@ arg int 500

__kernel void grid_sum(__global const float *in, __global float *out, int n) {
  float s = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    s += in[i];
  out[get_global_id(0)] = s;
}
//@ launch grid_sum global=64 local=8 disjoint=0
//@ arg buffer 4000 float
//@ arg buffer 256 float
//@ arg int 1000

__kernel void histogram(__global const uint *data, __global int *hist, int n) {
  int i = get_global_id(0);
  if (i < n)
    atomic_inc(&hist[data[i] & 255]);
}
//@ launch histogram global=1024 local=64
//@ arg buffer 4000 int:100000
//@ arg buffer 1024 zero
//@ arg int 1000

__kernel void count_positive(__global const float *x, __global int *count, int n) {
  int i = get_global_id(0);
  if (i < n && x[i] > 0.0f)
    atomic_add(count, 1);
}
//@ launch count_positive global=512 local=32
//@ arg buffer 2000 float
//@ arg buffer 4 zero
//@ arg int 500

__kernel void global_max(__global const int *x, __global int *result) {
  atomic_max(result, x[get_global_id(0)]);
}
//@ launch global_max global=256 local=16
//@ arg buffer 1024 int:1000000
//@ arg buffer 4 zero
