// PolyBench's gesummv, written from its definition: y = alpha * A x + beta * B x for two N x N
// row-major matrices A and B. One naive 1D kernel, one work-item per element of y walking along
// a row of both matrices, NULL local size (--local L sets one, to compare an implementation's
// choice with L). Every --iterations launch recomputes the same y (a memory-bound product,
// repeated to run long enough to measure).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void gesummv(__global const float *a, __global const float *b, __global const float *x,
                      __global float *y, const uint n, const float alpha, const float beta) {
  const uint i = get_global_id(0);
  float ax = 0.0f, bx = 0.0f;
  for (uint j = 0; j < n; ++j) {
    ax += a[i * n + j] * x[j];
    bx += b[i * n + j] * x[j];
  }
  y[i] = alpha * ax + beta * bx;
}
)CLC";

constexpr float Alpha = 1.5f;
constexpr float Beta = 1.2f;
// All inputs are positive, so no cancellation: both sums are within N * 2^-24 of exact at worst;
// in practice rounding errors of both signs cancel (measured: at most 2e-6 at the manifest's
// sizes).
static constexpr double Tolerance = 1e-4;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER] [--iterations LAUNCHES] [--local WORK_ITEMS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 2048));
  const long Iterations = Opts.integer("iterations", 1);
  const size_t Local = static_cast<size_t>(Opts.integer("local", 0)); // 0: NULL
  if (N == 0)
    app::fail("--n must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  if (Local != 0 && N % Local != 0)
    app::fail("--local must divide --n");

  std::vector<float> A(static_cast<size_t>(N) * N), B(A.size()), X(N);
  for (size_t I = 0; I < A.size(); ++I) {
    A[I] = 0.25f + static_cast<float>((I * 5) % 61) / 61.0f;
    B[I] = 0.5f + static_cast<float>((I * 7) % 53) / 53.0f;
  }
  for (size_t J = 0; J < N; ++J)
    X[J] = 1.0f + static_cast<float>(J % 17) / 17.0f;
  // y starts as NaN on the device: anything left unwritten shows.
  std::vector<float> Y(N, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t BytesMatrix = sizeof(float) * A.size();
  const size_t BytesVector = sizeof(float) * N;
  cl_mem BufA =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesMatrix, A.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesMatrix, B.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  cl_mem BufX =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesVector, X.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(x)");
  cl_mem BufY = clCreateBuffer(Context, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, BytesVector,
                               Y.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(y)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "gesummv", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufX));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_mem), &BufY));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(cl_float), &Alpha));
  CL_CHECK(clSetKernelArg(Kernel, 6, sizeof(cl_float), &Beta));

  app::Stopwatch Timer;
  const size_t Global = N;
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, Local ? &Local : nullptr, 0,
                                    nullptr, nullptr));
  CL_CHECK(
      clEnqueueReadBuffer(Queue, BufY, CL_TRUE, 0, BytesVector, Y.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference in full: it costs about one launch of the kernel.
  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t I = 0; I < N; ++I) {
    double Ax = 0.0, Bx = 0.0;
    for (size_t J = 0; J < N; ++J) {
      Ax += static_cast<double>(A[I * N + J]) * X[J];
      Bx += static_cast<double>(B[I * N + J]) * X[J];
    }
    const double Want = static_cast<double>(Alpha) * Ax + static_cast<double>(Beta) * Bx;
    const double RelError = std::fabs(Y[I] - Want) / Want;
    // A NaN left over from the sentinel (an element nobody wrote) counts as wrong.
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, Y);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufA, BufB, BufX, BufY})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %u, max rel error %.3g (tolerance %.0e)",
                Wrong, N, MaxRelError, Tolerance);
  return app::report("gesummv", Wrong == 0, Choice, Seconds, Detail);
}
