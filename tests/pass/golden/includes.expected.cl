/* Partition-ready source written by libsplit-cc (libsplit, pass/README.md).
 * Every kernel takes three more arguments, set by the runtime for each slice:
 *   uint  __libsplit_splitdim    S, the dimension the NDRange is split along
 *   ulong __libsplit_numgroups   N, work-groups of the full NDRange along S
 *   ulong __libsplit_splitorigin O, the app's own global offset along S
 * and the builtins below return what the full launch returns. */
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 120
#define __LIBSPLIT_FN static inline
#else
#define __LIBSPLIT_FN
#endif
__LIBSPLIT_FN size_t __libsplit_global_size(uint __libsplit_d, uint __libsplit_splitdim,
    ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  return __libsplit_d == __libsplit_splitdim
      ? (size_t)__libsplit_numgroups * get_local_size(__libsplit_d)
      : get_global_size(__libsplit_d);
}
__LIBSPLIT_FN size_t __libsplit_num_groups(uint __libsplit_d, uint __libsplit_splitdim,
    ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  return __libsplit_d == __libsplit_splitdim ? (size_t)__libsplit_numgroups
                                             : get_num_groups(__libsplit_d);
}
__LIBSPLIT_FN size_t __libsplit_group_id(uint __libsplit_d, uint __libsplit_splitdim,
    ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  return __libsplit_d == __libsplit_splitdim
      ? (get_global_id(__libsplit_d) - (size_t)__libsplit_splitorigin) /
            get_local_size(__libsplit_d)
      : get_group_id(__libsplit_d);
}
__LIBSPLIT_FN size_t __libsplit_global_offset(uint __libsplit_d, uint __libsplit_splitdim,
    ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  return __libsplit_d == __libsplit_splitdim ? (size_t)__libsplit_splitorigin
                                             : get_global_offset(__libsplit_d);
}
#define get_global_size(d) __libsplit_global_size((d), __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#define get_num_groups(d) __libsplit_num_groups((d), __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#define get_group_id(d) __libsplit_group_id((d), __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#define get_global_offset(d) __libsplit_global_offset((d), __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
__LIBSPLIT_FN size_t __libsplit_global_linear_id(uint __libsplit_splitdim,
    ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  size_t __libsplit_id = 0;
  for (uint __libsplit_d = get_work_dim(); __libsplit_d-- > 0;)
    __libsplit_id = __libsplit_id * __libsplit_global_size(__libsplit_d, __libsplit_splitdim,
                                        __libsplit_numgroups, __libsplit_splitorigin) +
                    (get_global_id(__libsplit_d) -
                     __libsplit_global_offset(__libsplit_d, __libsplit_splitdim,
                                              __libsplit_numgroups, __libsplit_splitorigin));
  return __libsplit_id;
}
#define get_global_linear_id() __libsplit_global_linear_id(__libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#endif
/* Calls of functions that take the appended arguments too. */
#define rowBase(...) rowBase(__VA_ARGS__, __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#line 1 "includes.cl"
// #include files are inlined (with #line); conditionals are kept for the
// vendor's compiler to decide; -D macros that expand to builtins work.
#if 0 /* libsplit-cc: inlined below */
#include "common.h"
#endif
#line 1 "include/common.h"
#ifndef COMMON_H
#define COMMON_H
#define ROW() get_group_id(1)
ulong (rowBase)(uint width, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin);
#endif
#line 4 "includes.cl"
#if 0 /* libsplit-cc: inlined below */
#include "other.h"
#endif
#line 1 "include/other.h"
# // #pragma once: file inlined by libsplit-cc
ulong (rowBase)(uint width, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) { return ROW() * width * get_local_size(1); }
#line 5 "includes.cl"
#if 0 /* libsplit-cc: inlined below */
#include "common.h"
#endif
/* libsplit-cc: skipped here (#pragma once or include guard) */
#line 6 "includes.cl"
#if 0 /* libsplit-cc: inlined below */
#include "other.h"
#endif
/* libsplit-cc: skipped here (#pragma once or include guard) */
#line 7 "includes.cl"

#ifdef __NV_CL_C_VERSION
#include "nvidia_only.h"
#endif

#if __OPENCL_C_VERSION__ >= 200
#define WIDTH 2
#else
#define WIDTH 1
#endif

__kernel void rows(__global ulong *out, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  out[get_global_id(0)] = rowBase(WIDTH) + GID_FROM_OPTIONS;
}
