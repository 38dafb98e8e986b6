// A process's first OpenCL calls, most of them made by several threads at once: the main thread
// lists the platforms and the chosen platform's devices with pickDevice (natively, PoCL 5 answered
// CL_DEVICE_NOT_FOUND to threads that asked for its devices together first), then each thread
// lists every platform's devices, makes a context on the chosen device (and one from its
// platform and device type), then builds and runs a kernel there. Under libsplit the other
// platforms' devices are still being found in the background then (DeviceDiscovery), and the
// contexts wait for the split devices. Each thread's transcript is printed after all joined, in
// thread order. (Natively, on a machine where a platform other than the chosen one is PoCL's,
// the threads would ask it for its devices together first, which PoCL 5 answered wrongly: the
// test runs where PoCL's platform is the chosen one, or the only one.)
#include "api_test.hpp"

using namespace api;

namespace {

constexpr int Threads = 4;
constexpr size_t N = 4096;

const char *Source = R"CLC(
__kernel void square_plus(__global uint *out, uint add) {
  size_t i = get_global_id(0);
  out[i] = (uint)(i * i) + add;
}
)CLC";

struct Transcript {
  std::vector<std::string> Lines;
  void add(const char *Format, ...) __attribute__((format(printf, 2, 3))) {
    char Line[256];
    va_list Args;
    va_start(Args, Format);
    std::vsnprintf(Line, sizeof(Line), Format, Args);
    va_end(Args);
    Lines.emplace_back(Line);
  }
};

void firstCalls(int Id, const Setup &S, std::atomic<int> &Ready, Transcript &T) {
  // Every thread makes its first call at about the same time.
  Ready.fetch_add(1);
  while (Ready.load() < Threads)
    std::this_thread::yield();
  cl_uint NumPlatforms = 0;
  T.add("clGetPlatformIDs: %s", errorName(clGetPlatformIDs(0, nullptr, &NumPlatforms)));
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr);
  T.add("platforms: %u", NumPlatforms);
  cl_device_id Chosen = nullptr;
  cl_uint ChosenPlatform = 0;
  // The other platforms first in odd threads: their devices are asked for in another order.
  for (cl_uint K = 0; K < NumPlatforms; ++K) {
    const cl_uint P = Id % 2 ? NumPlatforms - 1 - K : K;
    cl_uint NumDevices = 0;
    const cl_int Counted =
        clGetDeviceIDs(Platforms[P], CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices);
    std::vector<cl_device_id> Devices(NumDevices);
    if (NumDevices)
      clGetDeviceIDs(Platforms[P], CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(), nullptr);
    bool Owned = true;
    for (cl_device_id D : Devices) {
      cl_platform_id Owner = nullptr;
      clGetDeviceInfo(D, CL_DEVICE_PLATFORM, sizeof(Owner), &Owner, nullptr);
      Owned = Owned && Owner == Platforms[P];
    }
    T.add("platform %u: %s, %u devices, each listed under it: %s", P, errorName(Counted),
          NumDevices, yesNo(Owned));
    for (cl_device_id D : Devices)
      if (D == S.Device) {
        Chosen = D;
        ChosenPlatform = P;
      }
  }
  if (!Chosen) {
    T.add("the chosen device is not listed");
    return;
  }
  cl_int Error = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Chosen, nullptr, nullptr, &Error);
  T.add("clCreateContext: %s", errorName(Error));
  if (!Context)
    return;
  cl_device_type Type = 0;
  clGetDeviceInfo(Chosen, CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr);
  const cl_context_properties Properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(Platforms[ChosenPlatform]), 0};
  cl_context ByType = clCreateContextFromType(Properties, Type, nullptr, nullptr, &Error);
  T.add("clCreateContextFromType: %s", errorName(Error));
  if (ByType)
    clReleaseContext(ByType);
  cl_command_queue Queue = clCreateCommandQueue(Context, Chosen, 0, &Error);
  T.add("clCreateCommandQueue: %s", errorName(Error));
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Error);
  Error =
      Error == CL_SUCCESS ? clBuildProgram(Program, 1, &Chosen, nullptr, nullptr, nullptr) : Error;
  T.add("build: %s", errorName(Error));
  cl_kernel Kernel = Error == CL_SUCCESS ? clCreateKernel(Program, "square_plus", &Error) : nullptr;
  cl_mem Out = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, N * sizeof(cl_uint), nullptr, &Error);
  const cl_uint Add = static_cast<cl_uint>(Id) * 1000u;
  std::vector<cl_uint> Result(N, 0);
  if (Kernel && Out && Queue) {
    clSetKernelArg(Kernel, 0, sizeof(Out), &Out);
    clSetKernelArg(Kernel, 1, sizeof(Add), &Add);
    T.add("launch: %s", errorName(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &N, nullptr, 0,
                                                         nullptr, nullptr)));
    T.add("read: %s", errorName(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, N * sizeof(cl_uint),
                                                    Result.data(), 0, nullptr, nullptr)));
  }
  bool Right = true;
  for (size_t I = 0; I < N; ++I)
    Right = Right && Result[I] == static_cast<cl_uint>(I * I) + Add;
  T.add("results right: %s", yesNo(Right));
  if (Out)
    clReleaseMemObject(Out);
  if (Kernel)
    clReleaseKernel(Kernel);
  if (Program)
    clReleaseProgram(Program);
  if (Queue)
    clReleaseCommandQueue(Queue);
  T.add("clReleaseContext: %s", errorName(clReleaseContext(Context)));
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S;
  pickDevice(Argc, Argv, S);
  std::atomic<int> Ready{0};
  std::vector<Transcript> Transcripts(Threads);
  std::vector<std::thread> Running;
  for (int Id = 0; Id < Threads; ++Id)
    Running.emplace_back(firstCalls, Id, std::cref(S), std::ref(Ready), std::ref(Transcripts[Id]));
  for (std::thread &T : Running)
    T.join();
  for (int Id = 0; Id < Threads; ++Id) {
    say("== thread %d", Id);
    for (const std::string &Line : Transcripts[Id].Lines)
      say("%s", Line.c_str());
  }
  say("done");
  return 0;
}
