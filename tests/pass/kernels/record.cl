// Every NDRange query of every dimension, stored by each work-item at the
// index the full launch gives it: any builtin that a slice answers differently
// from the full launch shows up as a byte difference.
#define RECORD_WORDS 29

// A helper using the rewritten builtins: it must receive the split values.
size_t linearIndex(void) {
  size_t Index = 0;
  for (int D = (int)get_work_dim() - 1; D >= 0; --D)
    Index = Index * get_global_size(D) + (get_global_id(D) - get_global_offset(D));
  return Index;
}

__kernel void record(__global ulong *out) {
  __global ulong *Record = out + linearIndex() * RECORD_WORDS;
  // D is a run-time value, and D = 3 is out of range: the builtins' defaults.
  for (uint D = 0; D < 4; ++D) {
    Record[7 * D + 0] = get_global_size(D);
    Record[7 * D + 1] = get_num_groups(D);
    Record[7 * D + 2] = get_group_id(D);
    Record[7 * D + 3] = get_global_offset(D);
    Record[7 * D + 4] = get_global_id(D);
    Record[7 * D + 5] = get_local_id(D);
    Record[7 * D + 6] = get_local_size(D);
  }
  Record[28] = get_work_dim();
}
