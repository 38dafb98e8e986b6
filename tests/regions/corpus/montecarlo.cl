// Monte Carlo: per-work-item random number generators (an LCG estimating pi, and an
// EP-like kernel on 64-bit seeds writing two sums per work-item).

__kernel void mc_pi(__global const uint *seeds, __global uint *hits, int samples) {
  int i = get_global_id(0);
  uint s = seeds[i], count = 0;
  for (int k = 0; k < samples; k++) {
    s = s * 1664525u + 1013904223u;
    float x = (s >> 8) * (1.0f / 16777216.0f);
    s = s * 1664525u + 1013904223u;
    float y = (s >> 8) * (1.0f / 16777216.0f);
    if (x * x + y * y <= 1.0f)
      count++;
  }
  hits[i] = count;
}
//@ launch mc_pi global=256 local=32 disjoint=0 tight
//@ arg buffer 1024 bytes
//@ arg buffer 1024 bytes
//@ arg int 50

__kernel void ep_sums(__global float *sums, int iterations, ulong seed) {
  size_t i = get_global_id(0);
  ulong s = seed + i * 2654435761ul;
  float sx = 0, sy = 0;
  for (int k = 0; k < iterations; k++) {
    s = s * 6364136223846793005ul + 1442695040888963407ul;
    float x = (float)(s >> 40) / 16777216.0f;
    s = s * 6364136223846793005ul + 1442695040888963407ul;
    float y = (float)(s >> 40) / 16777216.0f;
    if (x * x + y * y <= 1.0f) {
      sx += x;
      sy += y;
    }
  }
  sums[2 * i] = sx;
  sums[2 * i + 1] = sy;
}
//@ launch ep_sums global=128 local=16 disjoint=0 tight
//@ arg buffer 1024 float
//@ arg int 40
//@ arg ulong 12345
