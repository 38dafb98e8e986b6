// OpenCL C 2.0+: get_global_linear_id depends on the global size and offset.
__kernel void linearIds(__global ulong *out) {
  size_t Id = get_global_linear_id();
  out[2 * Id] = Id;
  out[2 * Id + 1] = get_group_id(0) + 1000 * get_group_id(1) + 1000000 * get_group_id(2);
}
