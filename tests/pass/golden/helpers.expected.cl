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
#define firstInGroup() firstInGroup(__libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#define scale(...) scale(__VA_ARGS__, __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#define viaMacro() viaMacro(__libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#define inner(...) inner(__VA_ARGS__, __libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin)
#line 1 "helpers.cl"
// Helpers: direct and transitive users of the builtins get the arguments;
// a helper that needs none keeps its signature; a kernel called as a function.
#define GROUP get_group_id(0)
#define CALL_SCALE(x) scale(x)

size_t (firstInGroup)(uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin);   /* prototype before the definition */
int twice(int x) { return 2 * x; }   /* needs nothing */

size_t (firstInGroup)(uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) { return GROUP * get_local_size(0); }

static inline size_t (scale)(size_t x, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  return x * get_num_groups(0) + firstInGroup();
}

size_t (viaMacro)(uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) { return CALL_SCALE(3); }

__kernel void (inner)(__global ulong *out, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  out[get_global_id(0)] = viaMacro() + twice(1);
}

__kernel void outer(__global ulong *out, __global ulong *more, uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin) {
  size_t (firstInGroup)(uint __libsplit_splitdim, ulong __libsplit_numgroups, ulong __libsplit_splitorigin);   /* block-scope redeclaration */
  inner(out);
  more[get_global_id(0)] = get_global_size(0) + firstInGroup();
}
