// Helper functions (inlined before the analysis), casts to multi-dimensional arrays, pointer
// arithmetic on an argument, vector loads and stores, and arrays of structs.

float weight(int d) { return 1.0f / (1 + d * d); }
int index2d(int x, int y, int w) { return y * w + x; }
void store_scaled(__global float *out, int i, float v, float s) { out[i] = v * s; }

__kernel void blur_helpers(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
    return;
  float s = 0;
  for (int d = -1; d <= 1; d++)
    s += weight(d) * in[index2d(x + d, y, w)];
  store_scaled(out, index2d(x, y, w), s, 0.5f);
}
//@ launch blur_helpers global=32x16 local=8x4 disjoint=1 tight
//@ arg buffer 2048 float
//@ arg buffer 2048 float
//@ arg int 32
//@ arg int 16

__kernel void rows_md(__global float *A, __global const float *B) {
  __global float(*M)[16] = (__global float(*)[16])A;
  __global const float(*N)[16] = (__global const float(*)[16])B;
  int r = get_global_id(1), c = get_global_id(0);
  M[r][c] = N[r][c] * 2 + N[r][15 - c];
}
//@ launch rows_md global=16x8 local=4x4 disjoint=1 tight
//@ arg buffer 512 float
//@ arg buffer 512 float

__kernel void offset_rows(__global float *A, int line, int width) {
  A += line + 1;
  A[get_global_id(0)] = (float)width;
}
//@ launch offset_rows global=64 local=8 disjoint=0 tight
//@ arg buffer 300 float
//@ arg int 10
//@ arg int 7

__kernel void vec4_copy(__global const float *in, __global float *out, int n4) {
  int i = get_global_id(0);
  if (i < n4) {
    float4 v = vload4(i, in);
    vstore4(v * 2.0f, i, out);
  }
}
//@ launch vec4_copy global=64 local=16 disjoint=0 tight
//@ arg buffer 960 float
//@ arg buffer 960 float
//@ arg int 60

__kernel void float4_scale(__global const float4 *a, __global float4 *b, float s) {
  size_t i = get_global_id(0);
  b[i] = a[i] * s;
}
//@ launch float4_scale global=64 local=8 disjoint=0 tight
//@ arg buffer 1024 float
//@ arg buffer 1024 float
//@ arg float 3.0

typedef struct {
  int key;
  float value;
  short flags;
} Record;

__kernel void records(__global const Record *in, __global Record *out, __global float *values,
                      int n) {
  int i = get_global_id(0);
  if (i < n) {
    Record r = in[i];
    r.value *= 2;
    out[i] = r;
    values[i] = in[n - 1 - i].value;
  }
}
//@ launch records global=64 local=8 disjoint=0
//@ arg buffer 720 bytes
//@ arg buffer 720 bytes
//@ arg buffer 240 float
//@ arg int 60
