// Loops bounded by arguments: row sums, a triangular loop, a loop counting down, a step of
// 2, an unsigned counter, a data-dependent early exit and a pointer chase.

__kernel void row_sums(__global const float *M, __global float *sums, int cols) {
  int r = get_global_id(0);
  float s = 0;
  for (int c = 0; c < cols; c++)
    s += M[r * cols + c];
  sums[r] = s;
}
//@ launch row_sums global=64 local=8 disjoint=0 tight
//@ arg buffer 3072 float
//@ arg buffer 256 float
//@ arg int 12

__kernel void prefix_tri(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  float s = 0;
  for (int j = 0; j <= i; j++)
    s += in[j];
  out[i] = s;
}
//@ launch prefix_tri global=128 local=16 disjoint=0 tight
//@ arg buffer 512 float
//@ arg buffer 512 float

__kernel void reverse_rows(__global const float *in, __global float *out, int w) {
  int r = get_global_id(0);
  for (int k = w - 1; k >= 0; k--)
    out[r * w + (w - 1 - k)] = in[r * w + k];
}
//@ launch reverse_rows global=32 local=8 disjoint=0 tight
//@ arg buffer 1280 float
//@ arg buffer 1280 float
//@ arg int 10

__kernel void every_other(__global float *a, int n) {
  int i = get_global_id(0);
  for (int k = 0; k < n; k += 2)
    a[i * n + k] = 0.0f;
}
//@ launch every_other global=32 local=8 disjoint=0 tight
//@ arg buffer 1408 float
//@ arg int 11

__kernel void uint_loop(__global const uchar *src, __global uint *dst, uint len) {
  uint i = get_global_id(0), acc = 0;
  for (uint k = 0; k < len; k++)
    acc += src[i * len + k];
  dst[i] = acc;
}
//@ launch uint_loop global=64 local=8 disjoint=0 tight
//@ arg buffer 640 bytes
//@ arg buffer 256 bytes
//@ arg uint 10

__kernel void find_first(__global const int *data, __global int *result, int width) {
  int r = get_global_id(0), found = -1;
  for (int k = 0; k < width; k++)
    if (data[r * width + k] == 0) {
      found = k;
      break;
    }
  result[r] = found;
}
//@ launch find_first global=32 local=8 disjoint=0
//@ arg buffer 2048 int:4
//@ arg buffer 128 zero
//@ arg int 16

__kernel void chase(__global const int *next, __global int *out, int steps) {
  int p = get_global_id(0);
  for (int k = 0; k < steps; k++)
    p = next[p];
  out[get_global_id(0)] = p;
}
//@ launch chase global=64 local=8 disjoint=0
//@ arg buffer 256 int:64
//@ arg buffer 256 zero
//@ arg int 5
