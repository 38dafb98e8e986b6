// A threaded helper whose parameter list comes from a macro cannot be edited
// soundly: the same macro may declare other functions.
#define DECLARE_QUERY(name) size_t name(void)

DECLARE_QUERY(groupOf) { return get_group_id(0); }

__kernel void k(__global ulong *out) { out[get_global_id(0)] = groupOf(); }
