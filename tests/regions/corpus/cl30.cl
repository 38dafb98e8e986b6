//@ options -cl-std=CL3.0
// OpenCL 3.0: get_global_linear_id() over a 2D NDRange with an offset (expanded by the
// analysis into ids, offsets and sizes), and 1.x atomics under the 3.0 language.

__kernel void linear_id(__global float *out) {
  out[get_global_linear_id()] = 1.0f;
}
//@ launch linear_id global=8x8 local=4x4 offset=4x8 disjoint=1 tight
//@ arg buffer 256 float

__kernel void local_linear(__global int *out) {
  if (get_local_linear_id() == get_local_size(0) * get_local_size(1) - 1)
    out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = (int)get_local_linear_id();
}
//@ launch local_linear global=16x8 local=4x2 disjoint=1
//@ arg buffer 64 zero

__kernel void count_nonzero(__global const int *x, __global int *count) {
  if (x[get_global_id(0)] != 0)
    atomic_inc(count);
}
//@ launch count_nonzero global=256 local=16
//@ arg buffer 1024 int:3
//@ arg buffer 4 zero
