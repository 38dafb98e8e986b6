// Vector add, 1D: c[i] = a[i] + b[i]. Inputs created with CL_MEM_COPY_HOST_PTR, the launch
// leaves local_work_size NULL and the result comes back through one blocking read.
#include "common/app_common.hpp"

#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void vecadd(__global const float *a, __global const float *b, __global float *c,
                     const unsigned int n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
)CLC";

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ELEMENTS] [--iterations LAUNCHES]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 1 << 20));
  const long Iterations = Opts.integer("iterations", 1);
  if (N == 0)
    app::fail("--n must be positive");

  std::vector<float> A(N), B(N), C(N, std::nanf(""));
  for (cl_uint I = 0; I < N; ++I) {
    A[I] = static_cast<float>(I % 1000) * 0.5f;
    B[I] = 1.0f / static_cast<float>(1 + I % 977);
  }

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(float) * N;
  cl_mem BufA =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, A.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, B.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  cl_mem BufC = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(c)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "vecadd", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufC));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t Global = N;
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufC, CL_TRUE, 0, Bytes, C.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  size_t Wrong = 0;
  for (cl_uint I = 0; I < N; ++I)
    if (C[I] != A[I] + B[I])
      ++Wrong;

  app::writeOutput(Opts, C);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseMemObject(BufC);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return app::report("vecadd", Wrong == 0, Choice, Seconds,
                     std::to_string(Wrong) + " wrong of " + std::to_string(N));
}
