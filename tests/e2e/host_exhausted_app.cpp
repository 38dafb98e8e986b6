// Takes nearly all the address space a limit leaves (ulimit -v, as clusters' batch systems
// set), then makes a context, a queue, a program, a buffer and runs a kernel: under libsplit,
// whose threads need address space too, calls may fail where natively they do not, but each
// fails with an OpenCL error and the process goes on (e2e.host-exhausted). The argument: how
// many MiB to leave; the device: the second of the first platform (PoCL's pthread).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <vector>
static const char *Src = "__kernel void k(__global float *a){ a[get_global_id(0)] += 1.0f; }";
int main(int argc, char **argv) {
  size_t LeaveMiB = argc > 1 ? atol(argv[1]) : 64;
  cl_platform_id Platform;
  cl_uint Count = 0;
  cl_device_id Devices[4];
  if (clGetPlatformIDs(1, &Platform, &Count) != CL_SUCCESS || Count == 0 ||
      clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 4, Devices, &Count) != CL_SUCCESS || Count < 2) {
    std::printf("no second device\n");
    return 1;
  }
  cl_device_id D = Devices[1];
  // Take address space in 16 MiB pieces until mmap fails, then give back LeaveMiB.
  std::vector<void *> Taken;
  for (;;) {
    void *M =
        mmap(nullptr, 16 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (M == MAP_FAILED)
      break;
    Taken.push_back(M);
  }
  for (size_t Given = 0; Given < LeaveMiB && !Taken.empty(); Given += 16) {
    munmap(Taken.back(), 16 << 20);
    Taken.pop_back();
  }
  cl_int ContextError = 0, QueueError = 0, BuildError = 0, KernelError = 0;
  cl_int BufferError = -99, LaunchError = -99; // -99: not tried
  cl_context Context = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &ContextError);
  cl_command_queue Queue = Context ? clCreateCommandQueue(Context, D, 0, &QueueError) : nullptr;
  cl_program Program =
      Context ? clCreateProgramWithSource(Context, 1, &Src, nullptr, &BuildError) : nullptr;
  if (Program)
    BuildError = clBuildProgram(Program, 1, &D, nullptr, nullptr, nullptr);
  cl_kernel Kernel =
      Program && BuildError == CL_SUCCESS ? clCreateKernel(Program, "k", &KernelError) : nullptr;
  cl_mem Buffer = Context
                      ? clCreateBuffer(Context, CL_MEM_READ_WRITE, 4096 * 4, nullptr, &BufferError)
                      : nullptr;
  if (Kernel && Buffer && Queue) {
    const size_t Global = 4096;
    clSetKernelArg(Kernel, 0, sizeof(Buffer), &Buffer);
    LaunchError =
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr);
    if (LaunchError == CL_SUCCESS)
      LaunchError = clFinish(Queue);
  }
  std::printf("leave %zu MiB: context %d queue %d build %d kernel %d buffer %d launch %d\n",
              LeaveMiB, ContextError, QueueError, BuildError, KernelError, BufferError,
              LaunchError);
  return 0;
}
