// What the analysis refuses (unsplittable, with a reason) or cannot bound (unknown), and the
// select of two buffers it does follow (both may be written: the condition is not a guard on
// ids, so the regions of the buffer not chosen are an over-approximation, not tight).

__kernel void leaks_address(__global float *a, __global ulong *out) {
  out[get_global_id(0)] = (ulong)a;
}

__kernel void pointer_table(__global float *a, __global float *b, int which) {
  __global float *p[4] = {a, b, a, b};
  p[(which + get_global_id(0)) & 3][get_global_id(0)] = 1.0f;
}

__kernel void choose_buffer(__global float *a, __global float *b, int which) {
  __global float *p = which ? a : b;
  p[get_global_id(0)] = 1.0f;
}
//@ launch choose_buffer global=64 local=8 disjoint=0
//@ arg buffer 256 float
//@ arg buffer 256 float
//@ arg int 1

__kernel void data_dependent_write(__global const int *where, __global float *out) {
  out[where[get_global_id(0)]] = 1.0f;
}
//@ launch data_dependent_write global=64 local=8
//@ arg buffer 256 int:64
//@ arg buffer 256 float
