// No rewritten builtin: only the appended arguments change.
__kernel void vecadd(__global const float *a, __global const float *b,
                     __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

kernel void empty(void) {}

__kernel void noParams() {}
