// Stencils in 1, 2 and 3 dimensions (PolyBench jacobi-1d/2d, a 7-point 3D stencil), with the
// `if (i >= 1 && i < n - 1)` guards that keep them in bounds.

__kernel void jacobi1d(__global const float *A, __global float *B, int n) {
  int i = get_global_id(0);
  if (i >= 1 && i < n - 1)
    B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
}
//@ launch jacobi1d global=256 local=16 disjoint=0 tight
//@ arg buffer 1000 float
//@ arg buffer 1000 float
//@ arg int 250

__kernel void copy1d(__global float *A, __global const float *B, int n) {
  int i = get_global_id(0);
  if (i >= 1 && i < n - 1)
    A[i] = B[i];
}
//@ launch copy1d global=256 local=32 offset=8 disjoint=0 tight
//@ arg buffer 1200 float
//@ arg buffer 1200 float
//@ arg int 300

__kernel void jacobi2d(__global const float *A, __global float *B, int n) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                           A[(i + 1) * n + j] + A[(i - 1) * n + j]);
}
//@ launch jacobi2d global=32x32 local=8x8 disjoint=1 tight
//@ arg buffer 3600 float
//@ arg buffer 3600 float
//@ arg int 30

__kernel void stencil3d(__global const float *in, __global float *out, int nx, int ny, int nz) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1) {
    int c = (z * ny + y) * nx + x;
    out[c] = in[c] + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - nx * ny] +
             in[c + nx * ny];
  }
}
//@ launch stencil3d global=16x8x8 local=4x4x2 disjoint=2 tight
//@ arg buffer 4096 float
//@ arg buffer 4096 float
//@ arg int 16
//@ arg int 8
//@ arg int 8

// Unsigned indices: clang writes `i > 0` as `i == 0` and branches on its false edge; the
// guard's lower bound must still be found (else the slice holding index 0 reads the whole of
// A: seen on jacobi-1d, 9.5 GiB moved instead of halos).
__kernel void jacobi1d_uint(__global const float *A, __global float *B, int n) {
  const uint i = get_global_id(0);
  if (i > 0 && i + 1 < n)
    B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
}
//@ launch jacobi1d_uint global=256 local=16 disjoint=0 tight
//@ arg buffer 1000 float
//@ arg buffer 1000 float
//@ arg int 250
