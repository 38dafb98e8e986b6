// A test app whose one kernel cannot split (atomic_xchg) and computes long enough per work-item
// that PoCL's pthread device runs it about twice as fast as the basic one: under libsplit, with
// the app on basic, its launches must end up whole on pthread (WholePlacement), with the output
// of the native run. Used by e2e.whole-placement; not a benchmark.
#include "common/app_common.hpp"

static const char *KernelSource = R"CLC(
__kernel void churn(__global const float *in, __global float *out, __global uint *last,
                    const uint rounds) {
  const uint i = get_global_id(0);
  float x = in[i];
  for (uint k = 0; k < rounds; ++k)
    x = x * 0.9990005f + 0.25f;
  out[i] = x;
  atomic_xchg(last, i); // which work-item writes last is not part of the output
}
)CLC";

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ITEMS] [--rounds ROUNDS] [--iterations LAUNCHES]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 1 << 16));
  const cl_uint Rounds = static_cast<cl_uint>(Opts.integer("rounds", 4000));
  const long Iterations = Opts.integer("iterations", 12);
  std::vector<float> In(N), Out(N, 0.0f);
  for (cl_uint I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 1024) / 1024.0f;

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");
  const size_t Bytes = sizeof(float) * N;
  cl_mem BufIn =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, In.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(in)");
  cl_mem BufOut = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(out)");
  cl_mem BufLast = clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(last)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "churn", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufIn));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufOut));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufLast));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &Rounds));

  app::Stopwatch Timer;
  const size_t Global = N, Local = 64;
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &Local, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufOut, CL_TRUE, 0, Bytes, Out.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();
  app::writeOutput(Opts, Out);
  std::printf("unsplittable_app: %ld launches on '%s' in %f s\n", Iterations, Choice.Name.c_str(),
              Seconds);
  clReleaseMemObject(BufLast);
  clReleaseMemObject(BufOut);
  clReleaseMemObject(BufIn);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return 0;
}
