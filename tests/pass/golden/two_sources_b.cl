
// Second source string.
__kernel void k(__global ulong *out) { out[get_global_id(0)] = group(); }
