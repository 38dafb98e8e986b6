// Each rewritten builtin used directly, with constant and run-time dimensions.
__kernel void queries(__global ulong *out, uint d) {
  size_t i = get_global_id(0) - get_global_offset(0);
  out[5 * i + 0] = get_global_size(0);
  out[5 * i + 1] = get_num_groups(d);
  out[5 * i + 2] = get_group_id(d + 1);
  out[5 * i + 3] = get_global_offset(1);
  out[5 * i + 4] = get_local_size(0) * get_local_id(0); /* unchanged */
}
