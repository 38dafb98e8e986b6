// RUN: %clang_cl_ir -cl-std=CL3.0 %s | %opt -S -passes=libsplit-prepare | FileCheck %s

// Helpers are inlined and each query is one call at the top of the kernel, with the range
// OpenCL guarantees; get_global_linear_id() becomes its definition.
// CHECK-LABEL: define {{.*}} @k(
// CHECK-NEXT:  entry:
// CHECK:         %get_global_id0 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) {{.*}}!range ![[ID:[0-9]+]]
// CHECK:         %get_global_size0 = call spir_func i64 @_Z15get_global_sizej(i32 {{.*}}0) {{.*}}!range ![[SIZE:[0-9]+]]
// CHECK-NOT:     call {{.*}} @helper
// CHECK-NOT:     @_Z20get_global_linear_idv(
// CHECK:       ret void
// CHECK-DAG:   ![[ID]] = !{i64 0, i64 -9223372036854775808}
// CHECK-DAG:   ![[SIZE]] = !{i64 1, i64 -9223372036854775808}
size_t helper(void) { return get_global_id(0) + get_global_size(0); }

__kernel void k(__global float *a) {
  a[helper()] = 1.0f;
  a[get_global_id(0)] = 2.0f;
  a[get_global_linear_id()] = 3.0f;
}
