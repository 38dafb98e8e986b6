// e2e.escaped-exceptions: with throwing_new_preload.cpp preloaded before libsplit, an app whose
// commands meet libsplit's host allocations failing. Phase 1 queues writes, two kernels and
// reads, waits, and counts what failed (calls' codes and events' statuses: an allocation failing
// inside libsplit may fail a command, as a native implementation out of host memory does).
// Then nothing fails any more, and phase 2 computes again on fresh buffers: its result must be
// right, and nothing of phase 1 may hang the queue. Host arrays are malloc'ed and the armed
// window makes no C++ allocation of the app's own.
//
//   escaped_exception_app DEVICE(p:d) FIRST COUNT     exits 0 when phase 2 is right
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace {

const char *Source = R"(
__kernel void scale(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 3 + 1;
}
__kernel void blur(__global const int *in, __global int *out, int n) {
  int i = (int)get_global_id(0);
  int left = in[i > 0 ? i - 1 : 0], right = in[i + 1 < n ? i + 1 : n - 1];
  out[i] = left + 2 * in[i] + right;
}
)";

constexpr int N = 1 << 18;
constexpr int Steps = 24;
int Failures = 0;

void note(const char *What, cl_int Code) {
  if (Code != CL_SUCCESS) {
    ++Failures;
    std::printf("failed: %s: %d\n", What, Code);
  }
}

void awaitEvent(const char *What, cl_event Event) {
  if (!Event)
    return;
  note(What, clWaitForEvents(1, &Event));
  cl_int Status = CL_COMPLETE;
  note("clGetEventInfo",
       clGetEventInfo(Event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status, nullptr));
  if (Status < 0)
    note(What, Status);
  clReleaseEvent(Event);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s DEVICE(p:d) FIRST COUNT\n", argv[0]);
    return 2;
  }
  auto Arm = reinterpret_cast<void (*)(long, long)>(dlsym(RTLD_DEFAULT, "throwing_new_arm"));
  auto Disarm = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "throwing_new_disarm"));
  if (!Arm || !Disarm) {
    std::fprintf(stderr, "throwing_new_preload.so is not preloaded\n");
    return 2;
  }
  unsigned PlatformIndex = 0, DeviceIndex = 0;
  std::sscanf(argv[1], "%u:%u", &PlatformIndex, &DeviceIndex);
  cl_platform_id Platforms[8];
  cl_uint PlatformCount = 0;
  cl_device_id Devices[8];
  cl_uint DeviceCount = 0;
  if (clGetPlatformIDs(8, Platforms, &PlatformCount) != CL_SUCCESS ||
      PlatformIndex >= PlatformCount ||
      clGetDeviceIDs(Platforms[PlatformIndex], CL_DEVICE_TYPE_ALL, 8, Devices, &DeviceCount) !=
          CL_SUCCESS ||
      DeviceIndex >= DeviceCount) {
    std::fprintf(stderr, "no device %s\n", argv[1]);
    return 2;
  }
  cl_device_id Device = Devices[DeviceIndex];
  cl_int Error = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Error);
  cl_command_queue Queue = clCreateCommandQueue(Context, Device, 0, &Error);
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Error);
  if (clBuildProgram(Program, 1, &Device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "build failed\n");
    return 2;
  }
  cl_kernel Scale = clCreateKernel(Program, "scale", &Error);
  cl_kernel Blur = clCreateKernel(Program, "blur", &Error);
  const size_t Bytes = sizeof(int) * N;
  auto *In = static_cast<int *>(std::malloc(Bytes));
  auto *Out = static_cast<int *>(std::malloc(Bytes));
  for (int I = 0; I < N; ++I)
    In[I] = I % 1000 - 500;

  // Runs Steps steps on fresh buffers: write, scale, blur, read (every fourth one blocking).
  auto steps = [&] {
    cl_mem A = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
    note("clCreateBuffer", Error);
    cl_mem B = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
    note("clCreateBuffer", Error);
    cl_mem C = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
    note("clCreateBuffer", Error);
    // A kernel given a buffer that failed (null) would read address 0, natively too.
    if (!A || !B || !C) {
      for (cl_mem Made : {A, B, C})
        if (Made)
          clReleaseMemObject(Made);
      return;
    }
    const cl_int Count = N;
    note("clSetKernelArg", clSetKernelArg(Scale, 0, sizeof A, &A));
    note("clSetKernelArg", clSetKernelArg(Scale, 1, sizeof B, &B));
    note("clSetKernelArg", clSetKernelArg(Blur, 0, sizeof B, &B));
    note("clSetKernelArg", clSetKernelArg(Blur, 1, sizeof C, &C));
    note("clSetKernelArg", clSetKernelArg(Blur, 2, sizeof Count, &Count));
    const size_t Global = N, Local = 64;
    for (int Step = 0; Step < Steps; ++Step) {
      note("clEnqueueWriteBuffer",
           clEnqueueWriteBuffer(Queue, A, CL_FALSE, 0, Bytes, In, 0, nullptr, nullptr));
      note("clEnqueueNDRangeKernel scale",
           clEnqueueNDRangeKernel(Queue, Scale, 1, nullptr, &Global, &Local, 0, nullptr, nullptr));
      cl_event Blurred = nullptr;
      note("clEnqueueNDRangeKernel blur",
           clEnqueueNDRangeKernel(Queue, Blur, 1, nullptr, &Global, &Local, 0, nullptr, &Blurred));
      cl_event Read = nullptr;
      const cl_bool Blocking = Step % 4 == 3;
      note("clEnqueueReadBuffer", clEnqueueReadBuffer(Queue, C, Blocking, 0, Bytes, Out, 0, nullptr,
                                                      Blocking ? nullptr : &Read));
      awaitEvent("blur", Blurred);
      awaitEvent("read", Read);
    }
    note("clFinish", clFinish(Queue));
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(C);
  };

  Arm(std::atol(argv[2]), std::atol(argv[3]));
  steps();
  Disarm();
  std::printf("phase 1: %d failed\n", Failures);
  Failures = 0;
  steps();
  int Wrong = Failures;
  for (int I = 0; I < N; ++I) {
    auto scaled = [&](int J) { return In[J < 0 ? 0 : (J >= N ? N - 1 : J)] * 3 + 1; };
    if (Out[I] != scaled(I - 1) + 2 * scaled(I) + scaled(I + 1))
      ++Wrong;
  }
  std::printf("phase 2: %s\n", Wrong ? "WRONG" : "right");
  clReleaseKernel(Scale);
  clReleaseKernel(Blur);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  std::free(In);
  std::free(Out);
  return Wrong ? 1 : 0;
}
