//@ options -cl-std=CL2.0
// OpenCL 2.0: atomics on atomic_int (generic address space inside the builtins) and the
// generic address space. Golden only: PoCL's OpenCL C lacks both.

__kernel void count_cl2(__global const int *x, volatile __global atomic_int *count) {
  if (x[get_global_id(0)] > 0)
    atomic_fetch_add(count, 1);
}

__kernel void generic_pointer(__global float *a, int n) {
  float *p = a;
  int i = get_global_id(0);
  if (i < n)
    p[i] = 2.0f * p[i];
}

