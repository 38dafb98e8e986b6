// #include files are inlined (with #line); conditionals are kept for the
// vendor's compiler to decide; -D macros that expand to builtins work.
#include "common.h"
#include "other.h"
#include "common.h"
#include "other.h"

#ifdef __NV_CL_C_VERSION
#include "nvidia_only.h"
#endif

#if __OPENCL_C_VERSION__ >= 200
#define WIDTH 2
#else
#define WIDTH 1
#endif

__kernel void rows(__global ulong *out) {
  out[get_global_id(0)] = rowBase(WIDTH) + GID_FROM_OPTIONS;
}
