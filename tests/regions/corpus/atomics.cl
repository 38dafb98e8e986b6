// Global atomics: which per-device results the runtime can combine (analysis/atomic_merge.hpp)
// and which keep a kernel unsplit. First the combinable ones (each with a launch: their regions
// must hold on PoCL), then the refusals, each with its reason.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// A histogram: bins at data-dependent offsets, atomic_inc's result unused.
__kernel void histogram_uint(__global const uchar *data, __global uint *bins, int n) {
  int i = get_global_id(0);
  if (i < n)
    atomic_inc(&bins[data[i] & 63]);
}
//@ launch histogram_uint global=512 local=32
//@ arg buffer 512 bytes
//@ arg buffer 256 zero
//@ arg int 500

// add, sub, inc and dec are one class (their deltas add up), on int and on uint alike.
__kernel void counters(__global const int *x, __global int *count) {
  int v = x[get_global_id(0)];
  if (v > 0)
    atomic_add(count, v & 7);
  else if (v < -100)
    atomic_sub(count, 3);
  else if (v & 1)
    atomic_inc(count);
  else
    atomic_dec((volatile __global uint *)count);
}
//@ launch counters global=256 local=16
//@ arg buffer 1024 bytes
//@ arg buffer 4 zero

// min and max on int and on uint: the summary keeps the signedness.
__kernel void extremes(__global const int *x, __global int *smin, __global uint *umin,
                       __global int *smax, __global uint *umax) {
  int v = x[get_global_id(0)];
  atomic_min(smin, v);
  atomic_min(umin, (uint)v);
  atomic_max(smax, v);
  atomic_max(umax, (uint)v);
}
//@ launch extremes global=128 local=16
//@ arg buffer 512 bytes
//@ arg buffer 4 zero
//@ arg buffer 4 zero
//@ arg buffer 4 zero
//@ arg buffer 4 zero

// Bit operations, one per argument, at work-item-dependent words.
__kernel void bits(__global const uint *x, __global uint *any, __global uint *all,
                   __global uint *parity) {
  size_t i = get_global_id(0);
  atomic_or(&any[i % 8], x[i]);
  atomic_and(&all[i % 8], x[i] | 0xF0F0F0F0u);
  atomic_xor(&parity[i % 4], x[i]);
}
//@ launch bits global=256 local=32
//@ arg buffer 1024 bytes
//@ arg buffer 32 zero
//@ arg buffer 32 zero
//@ arg buffer 16 zero

// A {sum, min, max} record: three kinds on one argument, each on its own constant bytes.
__kernel void record(__global const int *x, __global int *stats) {
  int v = x[get_global_id(0)];
  atomic_add(&stats[0], v & 255);
  atomic_min(&stats[1], v);
  atomic_max(&stats[2], v);
}
//@ launch record global=128 local=8
//@ arg buffer 512 bytes
//@ arg buffer 12 zero

// 64-bit atomics (cl_khr_int64_base/extended_atomics): a long sum, a ulong minimum.
__kernel void wide(__global const long *x, __global long *sum, __global ulong *lo) {
  size_t i = get_global_id(0);
  atom_add(sum, x[i] >> 8);
  atom_min(lo, (ulong)x[i]);
}
//@ launch wide global=64 local=8
//@ arg buffer 512 bytes
//@ arg buffer 8 zero
//@ arg buffer 8 zero

// Local atomics never leave a work-group: their results may be used (here, each work-item's
// slot in a local array), and only the global sum is combined.
__kernel void local_then_global(__global const uint *x, __global uint *total) {
  __local uint next;
  __local uint kept[16];
  if (get_local_id(0) == 0)
    next = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  kept[atomic_inc(&next) & 15] = x[get_global_id(0)] & 15;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    uint sum = 0;
    for (uint k = 0; k < 16; ++k)
      sum += kept[k];
    atomic_add(total, sum);
  }
}
//@ launch local_then_global global=128 local=16
//@ arg buffer 512 bytes
//@ arg buffer 4 zero

// Refused: stream compaction, atomic_inc's result is each work-item's slot.
__kernel void compact(__global const int *x, __global int *out, __global int *count) {
  int v = x[get_global_id(0)];
  if (v > 0)
    out[atomic_inc(count)] = v;
}

// Refused: add and min may meet on the same element.
__kernel void mixed_kinds(__global const int *x, __global int *acc) {
  size_t i = get_global_id(0);
  atomic_add(&acc[i % 4], x[i]);
  atomic_min(&acc[x[i] & 3], x[i]);
}

// Refused: min on int and on uint of the same bytes compare differently.
__kernel void mixed_signedness(__global const int *x, __global int *m) {
  atomic_min(m, x[get_global_id(0)]);
  atomic_min((volatile __global uint *)m, (uint)x[get_global_id(0)]);
}

// Refused: a plain store to the atomically updated buffer.
__kernel void plain_store(__global const int *x, __global int *count) {
  atomic_add(&count[1], x[get_global_id(0)]);
  if (get_global_id(0) == 0)
    count[0] = 1;
}

// Refused: a plain read of the atomically updated buffer.
__kernel void plain_read(__global const int *x, __global int *count, __global int *seen) {
  atomic_add(count, x[get_global_id(0)]);
  seen[get_global_id(0)] = count[0];
}

// Refused: exchanges keep whichever update came last, result used or not.
__kernel void exchange_unused(__global int *slot) { atomic_xchg(slot, (int)get_global_id(0)); }

__kernel void exchange_float(__global float *slot) { atomic_xchg(slot, 1.0f); }

__kernel void compare_exchange(__global int *lock) { atomic_cmpxchg(lock, 0, 1); }
