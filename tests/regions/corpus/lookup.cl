// Table lookups (AES-like): S-box and T-tables indexed by the data, which the analysis bounds
// by the index type (a byte) or mask.

__kernel void aes_sub(__global const uchar *in, __global uchar *out, __constant uchar *sbox,
                      __global const uchar *roundkey, int n) {
  int i = get_global_id(0);
  if (i < n) {
    uchar v = in[i] ^ roundkey[i % 16];
    out[i] = sbox[v];
  }
}
//@ launch aes_sub global=1024 local=64 disjoint=0
//@ arg buffer 1000 bytes
//@ arg buffer 1000 bytes
//@ arg buffer 256 bytes
//@ arg buffer 16 bytes
//@ arg int 1000

__kernel void aes_round(__global const uint *state, __global uint *out, __constant uint *T0,
                        __constant uint *T1) {
  int i = get_global_id(0);
  uint s = state[i];
  out[i] = T0[s & 0xff] ^ T1[(s >> 8) & 0xff] ^ (s >> 16);
}
//@ launch aes_round global=256 local=32 disjoint=0
//@ arg buffer 1024 bytes
//@ arg buffer 1024 bytes
//@ arg buffer 1024 bytes
//@ arg buffer 1024 bytes
