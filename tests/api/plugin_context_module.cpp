// The library plugin_context.cpp loads: its constructor lists the platforms and the chosen
// device's platform's devices, makes a context (and one from the platform and device type), a
// queue, a buffer and a kernel, all while it is being loaded; apiPluginRun, called once it is
// loaded, runs the kernel. (Natively, PoCL's pthread device hangs on a kernel run while a
// library loads: its worker threads load the compiled kernel, and wait for the loader's lock.)
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 4096;

const char *Source = R"CLC(
__kernel void triple_plus(__global uint *out, uint add) {
  size_t i = get_global_id(0);
  out[i] = (uint)i * 3u + add;
}
)CLC";

struct Plugin {
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  cl_program Program = nullptr;
  cl_kernel Kernel = nullptr;
  cl_mem Out = nullptr;
};
Plugin Loaded;

__attribute__((constructor)) void setUpAsLoaded() {
  const char *Device = std::getenv("API_PLUGIN_DEVICE");
  char Flag[] = "--device";
  char Value[64] = {};
  std::snprintf(Value, sizeof(Value), "%s", Device ? Device : "0:0");
  char Name[] = "plugin";
  char *Args[] = {Name, Flag, Value, nullptr};
  Setup S;
  pickDevice(3, Args, S);
  say("plugin: device picked");
  cl_int Error = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  say("plugin: clCreateContext: %s", errorName(Error));
  if (!Context)
    return;
  cl_device_type Type = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr);
  const cl_context_properties Properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(S.Platform), 0};
  cl_context ByType = clCreateContextFromType(Properties, Type, nullptr, nullptr, &Error);
  say("plugin: clCreateContextFromType: %s", errorName(Error));
  if (ByType)
    clReleaseContext(ByType);
  cl_command_queue Queue = clCreateCommandQueue(Context, S.Device, 0, &Error);
  say("plugin: clCreateCommandQueue: %s", errorName(Error));
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Error);
  Error = Error == CL_SUCCESS ? clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr)
                              : Error;
  say("plugin: build: %s", errorName(Error));
  cl_kernel Kernel = Error == CL_SUCCESS ? clCreateKernel(Program, "triple_plus", &Error) : nullptr;
  say("plugin: clCreateKernel: %s", errorName(Error));
  cl_mem Out = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, N * sizeof(cl_uint), nullptr, &Error);
  say("plugin: clCreateBuffer: %s", errorName(Error));
  Loaded = {Context, Queue, Program, Kernel, Out};
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void apiPluginRun() {
  const cl_uint Add = 7;
  std::vector<cl_uint> Result(N, 0);
  if (Loaded.Kernel && Loaded.Out && Loaded.Queue) {
    clSetKernelArg(Loaded.Kernel, 0, sizeof(Loaded.Out), &Loaded.Out);
    clSetKernelArg(Loaded.Kernel, 1, sizeof(Add), &Add);
    say("plugin: launch: %s",
        errorName(clEnqueueNDRangeKernel(Loaded.Queue, Loaded.Kernel, 1, nullptr, &N, nullptr, 0,
                                         nullptr, nullptr)));
    say("plugin: read: %s",
        errorName(clEnqueueReadBuffer(Loaded.Queue, Loaded.Out, CL_TRUE, 0, N * sizeof(cl_uint),
                                      Result.data(), 0, nullptr, nullptr)));
  }
  bool Right = true;
  for (size_t I = 0; I < N; ++I)
    Right = Right && Result[I] == static_cast<cl_uint>(I) * 3u + Add;
  say("plugin: results right: %s", yesNo(Right));
  if (Loaded.Out)
    clReleaseMemObject(Loaded.Out);
  if (Loaded.Kernel)
    clReleaseKernel(Loaded.Kernel);
  if (Loaded.Program)
    clReleaseProgram(Loaded.Program);
  if (Loaded.Queue)
    clReleaseCommandQueue(Loaded.Queue);
  if (Loaded.Context)
    say("plugin: clReleaseContext: %s", errorName(clReleaseContext(Loaded.Context)));
}
}
