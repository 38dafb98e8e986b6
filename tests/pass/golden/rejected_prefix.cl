// The rewrite's prefix is reserved.
__kernel void k(__global ulong *out, uint __libsplit_mine) { out[0] = __libsplit_mine; }
