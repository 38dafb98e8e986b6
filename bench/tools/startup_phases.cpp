// Where a short run's wall time goes: times each phase an OpenCL app goes through (platforms,
// context, queue, program build, buffers, first launch, a burst of launches, read back, release)
// and prints one line per phase. Run it natively and under libsplit; the differences say which
// phase libsplit makes slower (contexts on every device, partition-ready builds, exit). The
// time before main and after it (loading, exit handlers) is what the process wall time, taken
// outside, has on top of the total printed here.
//
//   startup_phases [--device P:D] [--launches N] [--n N]
#include "common/app_common.hpp"

#include <vector>

static const char *KernelSource = R"CLC(
__kernel void smooth(__global const float *in, __global float *out, int n) {
  int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
)CLC";

int main(int argc, char **argv) {
  app::Stopwatch Total;
  app::Stopwatch Phase;
  auto mark = [&Phase](const char *Name) {
    std::printf("phase %-14s %.4f s\n", Name, Phase.seconds());
    Phase = app::Stopwatch();
  };
  app::Options Opts(argc, argv, "[--launches N] [--n N]");
  const long Launches = Opts.integer("launches", 1000);
  const int N = static_cast<int>(Opts.integer("n", 1 << 20));
  app::DeviceChoice Choice = app::pickDevice(Opts);
  mark("platforms");
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  mark("context");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");
  mark("queue");
  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "smooth", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  mark("build");
  const size_t Bytes = sizeof(float) * static_cast<size_t>(N);
  std::vector<float> Host(static_cast<size_t>(N), 1.0f);
  cl_mem Buffers[2];
  for (cl_mem &B : Buffers) {
    B = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
    CL_CHECK_ERR(Err, "clCreateBuffer");
    CL_CHECK(clEnqueueWriteBuffer(Queue, B, CL_TRUE, 0, Bytes, Host.data(), 0, nullptr, nullptr));
  }
  mark("buffers");
  const size_t Global = static_cast<size_t>(N);
  auto launch = [&](long I) {
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &Buffers[I % 2]));
    CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &Buffers[1 - I % 2]));
    CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(int), &N));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
  };
  launch(0);
  CL_CHECK(clFinish(Queue));
  mark("first-launch");
  for (long I = 1; I <= Launches; ++I)
    launch(I);
  CL_CHECK(clFinish(Queue));
  mark("launches");
  CL_CHECK(clEnqueueReadBuffer(Queue, Buffers[Launches % 2 == 0 ? 1 : 0], CL_TRUE, 0, Bytes,
                               Host.data(), 0, nullptr, nullptr));
  mark("read");
  for (cl_mem B : Buffers)
    clReleaseMemObject(B);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  mark("release");
  clReleaseContext(Context);
  mark("release-ctx");
  std::printf("phase %-14s %.4f s (%s)\n", "total", Total.seconds(), Choice.Name.c_str());
  return Host[static_cast<size_t>(N) / 2] == 1.0f ? 0 : 1;
}
