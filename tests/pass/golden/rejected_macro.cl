// Testing a name the rewrite defines as a macro would change the program.
#ifndef get_group_id
#define MY_GROUP 0
#endif
__kernel void k(__global ulong *out) { out[0] = get_group_id(0) + MY_GROUP; }
