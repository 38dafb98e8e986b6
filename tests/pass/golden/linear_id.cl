__kernel void ids(__global ulong *out) { out[get_global_linear_id()] = get_global_id(0); }
