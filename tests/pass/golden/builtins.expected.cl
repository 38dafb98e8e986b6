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
#line 1 "builtins.cl"
// Each rewritten builtin used directly, with constant and run-time dimensions.
__kernel void queries(__global ulong *out, uint d, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  size_t i = get_global_id(0) - get_global_offset(0);
  out[5 * i + 0] = get_global_size(0);
  out[5 * i + 1] = get_num_groups(d);
  out[5 * i + 2] = get_group_id(d + 1);
  out[5 * i + 3] = get_global_offset(1);
  out[5 * i + 4] = get_local_size(0) * get_local_id(0); /* unchanged */
}
