// A runtime broken on purpose, for the harness's own test: it runs only the first half of the
// work-groups of dimension 0 of every launch, as a splitting runtime would look if it forgot to
// gather the second device's part. The e2e harness must report the outputs as different.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <dlfcn.h>

#include <array>

using EnqueueFn = cl_int (*)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                             const size_t *, cl_uint, const cl_event *, cl_event *);

extern "C" CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue Queue, cl_kernel Kernel, cl_uint WorkDim, const size_t *GlobalOffset,
    const size_t *GlobalSize, const size_t *LocalSize, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *Event) {
  static const auto Real = reinterpret_cast<EnqueueFn>(dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel"));
  if (!Real)
    return CL_OUT_OF_HOST_MEMORY;
  std::array<size_t, 3> Half = {1, 1, 1};
  for (cl_uint D = 0; D < WorkDim && D < 3; ++D)
    Half[D] = GlobalSize[D];
  const size_t Local = LocalSize ? LocalSize[0] : 1;
  const size_t Groups = Half[0] / Local;
  if (Groups >= 2)
    Half[0] = (Groups / 2) * Local;
  return Real(Queue, Kernel, WorkDim, GlobalOffset, Half.data(), LocalSize, NumEvents, WaitList,
              Event);
}
