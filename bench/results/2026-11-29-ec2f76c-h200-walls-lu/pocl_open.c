// Preloaded: finds every platform's devices at load, as libsplit's discovery does (PoCL's CPU
// device starts), and nothing else.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
__attribute__((constructor)) static void openAll(void) {
  cl_platform_id P[8]; cl_uint N = 0;
  if (clGetPlatformIDs(8, P, &N) != CL_SUCCESS) return;
  for (cl_uint I = 0; I < N && I < 8; ++I) { cl_device_id D[16]; cl_uint M = 0; clGetDeviceIDs(P[I], CL_DEVICE_TYPE_ALL, 16, D, &M); }
}
