// Valid but unusual: irreducible control flow, an endless loop, a switch on ids, an index
// computed in floating point, an image and a struct passed by value.
__kernel void irreducible(__global int *a, int n) {
  int i = get_global_id(0), k = 0;
  if (n & 1)
    goto inside;
top:
  a[i + k] = k;
inside:
  k++;
  if (k < n)
    goto top;
}
__kernel void endless(__global int *a) {
  int i = get_global_id(0);
  while (1)
    a[i++] = 0;
}
__kernel void switched(__global float *a) {
  switch (get_global_id(0) % 3) {
  case 0: a[0] = 1; break;
  case 1: a[get_global_id(0)] = 2; break;
  default: break;
  }
}
__kernel void float_index(__global float *a, float scale) {
  a[(int)(get_global_id(0) * scale)] = 1.0f;
}
typedef struct { int offset; float value; } Params;
__kernel void by_value(__global float *a, Params p, read_only image2d_t img, sampler_t s) {
  float4 c = read_imagef(img, s, (int2)(0, 0));
  a[get_global_id(0) + p.offset] = p.value + c.x;
}
__kernel void dynamic_dim(__global float *a, uint d) {
  a[get_global_id(d)] = 0.0f;
}
