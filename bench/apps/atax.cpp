// PolyBench's atax, written from its definition: y = A^T (A x) for an M x N row-major matrix A.
// Two naive 1D kernels per iteration, one work-item per output element, plain global-memory
// loops, NULL local sizes: tmp = A x (a work-item walks along a row of A), then y = A^T tmp (a
// work-item walks down a column of A and reads all of tmp, which the first kernel wrote). Every
// --iterations round recomputes the same y (the matrix-vector products are memory-bound, so the
// app repeats them to run long enough to measure).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void atax_ax(__global const float *a, __global const float *x, __global float *tmp,
                      const uint n) {
  const uint i = get_global_id(0);
  float sum = 0.0f;
  for (uint j = 0; j < n; ++j)
    sum += a[i * n + j] * x[j];
  tmp[i] = sum;
}

__kernel void atax_aty(__global const float *a, __global const float *tmp, __global float *y,
                       const uint m, const uint n) {
  const uint j = get_global_id(0);
  float sum = 0.0f;
  for (uint i = 0; i < m; ++i)
    sum += a[i * n + j] * tmp[i];
  y[j] = sum;
}
)CLC";

// All inputs are positive, so no cancellation: tmp is within N * 2^-24 of exact and y adds
// M * 2^-24 more, at worst; in practice rounding errors of both signs cancel (measured: at most
// 1e-5 at the manifest's sizes).
static constexpr double Tolerance = 1e-4;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--m ROWS] [--n COLUMNS] [--iterations ROUNDS]");
  const cl_uint M = static_cast<cl_uint>(Opts.integer("m", 2048));
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", M));
  const long Iterations = Opts.integer("iterations", 1);
  if (M == 0 || N == 0)
    app::fail("--m and --n must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(M) * N), X(N);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>((I * 5) % 61) / 61.0f;
  for (size_t J = 0; J < N; ++J)
    X[J] = 1.0f + static_cast<float>(J % 17) / 17.0f;
  // tmp starts as NaN on the device, y's host copy until the read: anything unwritten shows.
  std::vector<float> Tmp(M, std::nanf("")), Y(N, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  cl_mem BufA = clCreateBuffer(Context, CL_MEM_READ_ONLY, sizeof(float) * A.size(), nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufX = clCreateBuffer(Context, CL_MEM_READ_ONLY, sizeof(float) * N, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(x)");
  cl_mem BufTmp = clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(float) * M, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(tmp)");
  cl_mem BufY = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, sizeof(float) * N, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(y)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufA, CL_TRUE, 0, sizeof(float) * A.size(), A.data(), 0,
                                nullptr, nullptr));
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufX, CL_TRUE, 0, sizeof(float) * N, X.data(), 0, nullptr,
                                nullptr));
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufTmp, CL_TRUE, 0, sizeof(float) * M, Tmp.data(), 0,
                                nullptr, nullptr));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel KernelAx = clCreateKernel(Program, "atax_ax", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(atax_ax)");
  cl_kernel KernelAty = clCreateKernel(Program, "atax_aty", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(atax_aty)");
  CL_CHECK(clSetKernelArg(KernelAx, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelAx, 1, sizeof(cl_mem), &BufX));
  CL_CHECK(clSetKernelArg(KernelAx, 2, sizeof(cl_mem), &BufTmp));
  CL_CHECK(clSetKernelArg(KernelAx, 3, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(KernelAty, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelAty, 1, sizeof(cl_mem), &BufTmp));
  CL_CHECK(clSetKernelArg(KernelAty, 2, sizeof(cl_mem), &BufY));
  CL_CHECK(clSetKernelArg(KernelAty, 3, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(KernelAty, 4, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t GlobalAx = M, GlobalAty = N;
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clEnqueueNDRangeKernel(Queue, KernelAx, 1, nullptr, &GlobalAx, nullptr, 0, nullptr,
                                    nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, KernelAty, 1, nullptr, &GlobalAty, nullptr, 0, nullptr,
                                    nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufY, CL_TRUE, 0, sizeof(float) * N, Y.data(), 0, nullptr,
                               nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference in full: it costs about one round of the kernels.
  std::vector<double> RefTmp(M, 0.0), RefY(N, 0.0);
  for (size_t I = 0; I < M; ++I)
    for (size_t J = 0; J < N; ++J)
      RefTmp[I] += static_cast<double>(A[I * N + J]) * X[J];
  for (size_t I = 0; I < M; ++I)
    for (size_t J = 0; J < N; ++J)
      RefY[J] += A[I * N + J] * RefTmp[I];

  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t J = 0; J < N; ++J) {
    const double RelError = std::fabs(Y[J] - RefY[J]) / RefY[J];
    // A NaN left over from the sentinel (an element nobody wrote) counts as wrong.
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, Y);
  clReleaseKernel(KernelAx);
  clReleaseKernel(KernelAty);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufA, BufX, BufTmp, BufY})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %u, max rel error %.3g (tolerance %.0e)",
                Wrong, N, MaxRelError, Tolerance);
  return app::report("atax", Wrong == 0, Choice, Seconds, Detail);
}
