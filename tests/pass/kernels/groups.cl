// Kernels in the style the paper's benchmarks use get_group_id and friends.

// One partial sum per work-group, stored at the group's ordinal.
__kernel void groupSums(__global const float *in, __global float *partial,
                        __local float *scratch) {
  size_t Local = get_local_id(0) + get_local_size(0) * get_local_id(1);
  size_t LocalCount = get_local_size(0) * get_local_size(1);
  size_t Row = get_global_id(1) - get_global_offset(1);
  size_t Column = get_global_id(0) - get_global_offset(0);
  scratch[Local] = in[Row * get_global_size(0) + Column];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Stride = LocalCount / 2; Stride > 0; Stride /= 2) {
    if (Local < Stride)
      scratch[Local] += scratch[Local + Stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (Local == 0)
    partial[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = scratch[0];
}

// A grid-stride loop: each work-item handles every get_global_size(0)-th item.
__kernel void gridStride(__global const float *in, __global float *out, uint n) {
  for (size_t I = get_global_id(0) - get_global_offset(0); I < n; I += get_global_size(0))
    out[I] = in[I] * 2.0f + (float)(I % 7);
}

// Block indexing from the group id, as CUDA ports do.
__kernel void blockCopy(__global const float *in, __global float *out) {
  size_t I = get_group_id(0) * get_local_size(0) + get_local_id(0);
  out[I] = in[I] + (float)get_num_groups(0);
}
