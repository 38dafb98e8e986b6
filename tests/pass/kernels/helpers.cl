// Helpers that reach the rewritten builtins directly, through other helpers,
// through macros and from a header; a kernel called as a function.
#include "group_math.h"
#include "group_math.h"

#define ORDINAL() groupOrdinal()

ulong totalGroups() {
  ulong Total = 1;
  for (uint D = 0; D < get_work_dim(); ++D)
    Total *= get_num_groups(D);
  return Total;
}

ulong groupOrdinal(void) {
  ulong Ordinal = 0;
  for (int D = (int)get_work_dim() - 1; D >= 0; --D)
    Ordinal = Ordinal * get_num_groups(D) + GROUP(D);
  return Ordinal;
}

ulong flatGlobal(void) {
  ulong Index = 0;
  for (int D = (int)get_work_dim() - 1; D >= 0; --D)
    Index = Index * get_global_size(D) + (get_global_id(D) - get_global_offset(D));
  return Index;
}

__kernel void describe(__global ulong *out) {
  __global ulong *Slot = out + 4 * flatGlobal();
  Slot[0] = ORDINAL();
  Slot[1] = scaled(totalGroups());
  Slot[2] = get_global_offset(0) + 10 * get_global_offset(1) + 100 * get_global_offset(2);
  Slot[3] = GROUP(0) + get_num_groups(0) * GROUP(1);
}

// Calls the kernel above as a function (legal OpenCL C): the callee sees the
// caller's NDRange, so it must get the caller's split values.
__kernel void describeTwice(__global ulong *out, __global ulong *again) {
  describe(out);
  again[flatGlobal()] = groupOrdinal() * 7 + 1;
}
