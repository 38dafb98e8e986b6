// RUN: %clang_cl_ir -cl-std=CL1.2 %s | %opt -disable-output \
// RUN:   -passes='libsplit-canonicalize,function(print<libsplit-regions>)' 2>&1 | FileCheck %s

// A guarded 1D kernel: the guard on gid0 carries the check that the int index is exact.
// CHECK-LABEL: libsplit regions for kernel 'vadd':
// CHECK-NEXT: kernel vadd splittable
// CHECK-NEXT: arg 0 global - a
// CHECK-NEXT:   access read guard gid0 0 (add (add arg3 -1) (mul 0 (ashr (shl gid0 32) 32))) bytes (mul 4 (ashr (shl gid0 32) 32)) (add (mul 4 (ashr (shl gid0 32) 32)) 3)
// CHECK:      arg 2 global - c
// CHECK-NEXT:   access write guard gid0
// CHECK:      arg 3 scalar i32 n
// CHECK-NEXT: end
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

// size_t indices need no check; a loop over k names its counter, which runs over
// [0, cols - 1] (cols >= 1 when it runs).
// CHECK-LABEL: libsplit regions for kernel 'rows':
// CHECK-NEXT: kernel rows splittable
// CHECK-NEXT: loop 0 last (add (max 1 arg2) -1)
// CHECK-NEXT: arg 0 global - m
// CHECK-NEXT:   access read bytes (mul 4 (add (mul gid0 arg2) loop0)) (add (mul 4 (add (mul gid0 arg2) loop0)) 3)
// CHECK:      arg 1 global - out
// CHECK-NEXT:   access write bytes (mul 8 gid0) (add (mul 8 gid0) 7)
__kernel void rows(__global const float *m, __global double *out, ulong cols) {
  size_t r = get_global_id(0);
  double s = 0;
  for (size_t k = 0; k < cols; k++)
    s += m[r * cols + k];
  out[r] = s;
}

// A buffer pointer that escapes makes the kernel unsplittable.
// CHECK-LABEL: libsplit regions for kernel 'leak':
// CHECK-NEXT: kernel leak unsplittable a buffer pointer is converted to an integer
__kernel void leak(__global float *a, __global ulong *out) { out[0] = (ulong)a; }

// Atomics carry their element type; a used result makes the kernel unsplittable, and the
// printer still shows the regions.
// CHECK-LABEL: libsplit regions for kernel 'bounds':
// CHECK-NEXT: kernel bounds splittable
// CHECK:      arg 1 global - lo
// CHECK-NEXT:   access atomic_min u32 bytes 0 3
// CHECK-NEXT: arg 2 global - hi
// CHECK-NEXT:   access atomic_max i32 bytes 0 3
__kernel void bounds(__global const int *x, __global uint *lo, __global int *hi) {
  atomic_min(lo, (uint)x[get_global_id(0)]);
  atomic_max(hi, x[get_global_id(0)]);
}

// CHECK-LABEL: libsplit regions for kernel 'compact':
// CHECK-NEXT: kernel compact unsplittable the value returned by atomic_inc on count is used
// CHECK:      arg 2 global - count
// CHECK-NEXT:   access atomic_inc i32 bytes 0 3
__kernel void compact(__global const int *x, __global int *out, __global int *count) {
  if (x[get_global_id(0)] > 0)
    out[atomic_inc(count)] = x[get_global_id(0)];
}
