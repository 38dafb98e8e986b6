// OpenCL builtins that take pointers: asynchronous copies into local memory, half-precision
// loads and stores, a math function with an output pointer, compare-exchange and exchange.

__kernel void async_tiles(__global const float *in, __global float *out) {
  __local float tile[16];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[15 - get_local_id(0)];
}
//@ launch async_tiles global=128 local=16 disjoint=0 tight
//@ arg buffer 512 float
//@ arg buffer 512 float

__kernel void halves(__global const half *in, __global half *out, __global float *sines) {
  size_t i = get_global_id(0);
  float x = vload_half(i, in);
  vstore_half(x * 2.0f, i, out);
  float c;
  sines[i] = sincos(x, &c) + c;
}
//@ launch halves global=128 local=16 disjoint=0 tight
//@ arg buffer 256 bytes
//@ arg buffer 256 bytes
//@ arg buffer 512 float

// Unsplittable since per-device atomic results are combined (atomics.cl): an exchange's
// outcome depends on which device goes last. No launch: only splittable kernels are run.
__kernel void exchange(__global int *slots, __global int *old) {
  int i = get_global_id(0);
  old[i] = atomic_xchg(&slots[i], i);
  atomic_cmpxchg(&slots[i % 4 + 64], 0, 1); // which work-item wins does not matter
}
