// Dense linear algebra: vector add with an `if (i < n)` guard, SAXPY on unsigned indices,
// naive and tiled GEMM (local memory), two transposes, a matrix-vector product and a dot
// product reduced per work-group.

__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
//@ launch vadd global=1024 local=64 disjoint=0 tight
//@ arg buffer 4000 float
//@ arg buffer 4000 float
//@ arg buffer 4000 float
//@ arg int 1000

__kernel void saxpy(float alpha, __global const float *x, __global float *y, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}
//@ launch saxpy global=512 local=32 offset=64 disjoint=0 tight
//@ arg float 2.5
//@ arg buffer 2400 float
//@ arg buffer 2400 float
//@ arg uint 600

__kernel void gemm(__global const float *A, __global const float *B, __global float *C, int n,
                   float alpha) {
  int col = get_global_id(0), row = get_global_id(1);
  float s = 0;
  for (int k = 0; k < n; k++)
    s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = alpha * s;
}
//@ launch gemm global=32x32 local=8x8 disjoint=1 tight
//@ arg buffer 4096 float
//@ arg buffer 4096 float
//@ arg buffer 4096 float
//@ arg int 32
//@ arg float 1.5

#define TS 8
__kernel void gemm_tiled(__global const float *A, __global const float *B, __global float *C,
                         int n) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_group_id(0) * TS + tx, row = get_group_id(1) * TS + ty;
  float s = 0;
  for (int t = 0; t < n / TS; t++) {
    As[ty][tx] = A[row * n + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++)
      s += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = s;
}
//@ launch gemm_tiled global=32x32 local=8x8 disjoint=1 tight
//@ arg buffer 4096 float
//@ arg buffer 4096 float
//@ arg buffer 4096 float
//@ arg int 32

__kernel void transpose(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h)
    out[x * h + y] = in[y * w + x];
}
//@ launch transpose global=32x16 local=8x8 disjoint=0 tight
//@ arg buffer 1680 float
//@ arg buffer 1680 float
//@ arg int 30
//@ arg int 14

__kernel void transpose_local(__global const float *in, __global float *out, int w, int h) {
  __local float tile[8][9];
  int gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;
  int lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[(gy + ly) * w + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * h + gy + lx] = tile[lx][ly];
}
//@ launch transpose_local global=32x16 local=8x8 disjoint=0 tight
//@ arg buffer 2048 float
//@ arg buffer 2048 float
//@ arg int 32
//@ arg int 16

__kernel void matvec(__global const float *M, __global const float *x, __global float *y,
                     int rows, int cols) {
  int r = get_global_id(0);
  if (r < rows) {
    float s = 0;
    for (int c = 0; c < cols; c++)
      s += M[r * cols + c] * x[c];
    y[r] = s;
  }
}
//@ launch matvec global=64 local=8 disjoint=0 tight
//@ arg buffer 4800 float
//@ arg buffer 80 float
//@ arg buffer 240 float
//@ arg int 60
//@ arg int 20

__kernel void dot_partial(__global const float *a, __global const float *b,
                          __global float *partial, __local float *scratch) {
  int lid = get_local_id(0);
  scratch[lid] = a[get_global_id(0)] * b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
//@ launch dot_partial global=256 local=32 disjoint=0 tight
//@ arg buffer 1024 float
//@ arg buffer 1024 float
//@ arg buffer 32 float
//@ arg local 128
