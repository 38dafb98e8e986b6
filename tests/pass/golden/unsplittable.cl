// Kernels the runtime must not split; the others in the program still can.
ulong external(ulong x);   /* defined in another compilation unit */

__kernel void callsExternal(__global ulong *out) {
  out[get_global_id(0)] = external(get_group_id(0));
}

void enqueueChild(__global ulong *out) {
  ndrange_t range = ndrange_1D(get_global_size(0));
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, range,
                 ^{ out[get_global_id(0)] = get_group_id(0); });
}

__kernel void usesBlock(__global ulong *out) { enqueueChild(out); }

__kernel void fine(__global ulong *out) { out[get_global_id(0)] = get_group_id(0); }
