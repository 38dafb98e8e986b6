// Corner cases of integer semantics and conditions: the range test InstCombine folds into one
// unsigned comparison, a size_t guard against an int, a negated condition, a downward unsigned
// loop, narrow (short, uchar) indices that wrap, OpenCL's integer min and clamp, shifts.

__kernel void range_test(__global const float *in, __global float *out) {
  int x = get_global_id(0);
  if (x > 0 && x < 100)
    out[x] = in[x - 1] + in[x + 1];
}
//@ launch range_test global=128 local=16 disjoint=0 tight
//@ arg buffer 512 float
//@ arg buffer 512 float

__kernel void size_guard(__global float *a, int n) {
  if (get_global_id(0) >= n)
    return;
  a[get_global_id(0)] *= 2.0f;
}
//@ launch size_guard global=128 local=16 disjoint=0 tight
//@ arg buffer 400 float
//@ arg int 100

__kernel void negated(__global float *a, int n) {
  int i = get_global_id(0);
  if (!(n - i <= 0))
    a[i] = 1.0f;
}
//@ launch negated global=128 local=16 disjoint=0 tight
//@ arg buffer 400 float
//@ arg int 100

__kernel void down_unsigned(__global const float *in, __global float *out, uint n) {
  uint r = get_global_id(0);
  float s = 0;
  for (uint k = n; k > 0; k--)
    s += in[r * n + k - 1] * k;
  out[r] = s;
}
//@ launch down_unsigned global=32 local=8 disjoint=0 tight
//@ arg buffer 1024 float
//@ arg buffer 128 float
//@ arg uint 8

__kernel void narrow(__global float *a, __global float *b) {
  short s = get_global_id(0);
  uchar c = get_global_id(0);
  a[s] = 1.0f;
  b[(uchar)(c + 200)] += 1.0f;
}
//@ launch narrow global=256 local=32
//@ arg buffer 1024 float
//@ arg buffer 1024 float

__kernel void clamped(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  out[i] = in[clamp(i - 2, 0, n - 1)] + in[min(i + 2, n - 1)];
}
//@ launch clamped global=128 local=16 disjoint=0
//@ arg buffer 512 float
//@ arg buffer 512 float
//@ arg int 128

__kernel void shifts(__global const int *in, __global int *out) {
  uint i = get_global_id(0);
  out[(i >> 1) * 2 + (i & 1)] = in[i << 1] + in[(i << 1) | 1];
}
//@ launch shifts global=64 local=8 disjoint=0 tight
//@ arg buffer 512 int:100
//@ arg buffer 256 zero
