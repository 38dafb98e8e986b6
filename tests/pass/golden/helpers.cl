// Helpers: direct and transitive users of the builtins get the arguments;
// a helper that needs none keeps its signature; a kernel called as a function.
#define GROUP get_group_id(0)
#define CALL_SCALE(x) scale(x)

size_t firstInGroup(void);   /* prototype before the definition */
int twice(int x) { return 2 * x; }   /* needs nothing */

size_t firstInGroup(void) { return GROUP * get_local_size(0); }

static inline size_t scale(size_t x) {
  return x * get_num_groups(0) + firstInGroup();
}

size_t viaMacro() { return CALL_SCALE(3); }

__kernel void inner(__global ulong *out) {
  out[get_global_id(0)] = viaMacro() + twice(1);
}

__kernel void outer(__global ulong *out, __global ulong *more) {
  size_t firstInGroup(void);   /* block-scope redeclaration */
  inner(out);
  more[get_global_id(0)] = get_global_size(0) + firstInGroup();
}
