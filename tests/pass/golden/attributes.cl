// Attributes, qualifiers and line breaks in signatures stay as written.
__attribute__((reqd_work_group_size(8, 1, 1)))
__kernel void
withAttributes(__global float *restrict out,
               __constant float *table,
               const uint n /* last argument */
               ) {
  if (get_global_id(0) < n)
    out[get_global_id(0)] = table[get_group_id(0) % 4];
}

#define KERNEL __kernel void
#define ARGS __global int *out, int value
KERNEL fromMacros(ARGS) { out[get_global_id(0)] = value + (int)get_num_groups(0); }
