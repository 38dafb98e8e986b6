// PolyBench's mvt, written from its definition: x1 = x1 + A y1 and x2 = x2 + A^T y2 for an N x N
// row-major matrix A. Two independent naive 1D kernels per iteration, one work-item per output
// element, plain global-memory loops, NULL local sizes: one walks along a row of A, the other down
// a column; each reads and updates its own vector. Every --iterations round adds the products
// again, so after T rounds x1 = x1_0 + T * A y1. Output: x1 followed by x2 (N floats each).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void mvt_x1(__global const float *a, __global const float *y1, __global float *x1,
                     const uint n) {
  const uint i = get_global_id(0);
  float sum = 0.0f;
  for (uint j = 0; j < n; ++j)
    sum += a[i * n + j] * y1[j];
  x1[i] += sum;
}

__kernel void mvt_x2(__global const float *a, __global const float *y2, __global float *x2,
                     const uint n) {
  const uint i = get_global_id(0);
  float sum = 0.0f;
  for (uint j = 0; j < n; ++j)
    sum += a[j * n + i] * y2[j];
  x2[i] += sum;
}
)CLC";

// All inputs are positive, so no cancellation: each round's product is within N * 2^-24 of exact
// at worst and near sqrt(N) * 2^-24 in practice (rounding errors of both signs cancel), and each
// round's addition to x adds half an ulp (measured: at most 4e-6 at the manifest's sizes).
static constexpr double Tolerance = 1e-4;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER] [--iterations ROUNDS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 2048));
  const long Iterations = Opts.integer("iterations", 1);
  if (N == 0)
    app::fail("--n must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(N) * N), Y1(N), Y2(N), X1Init(N), X2Init(N);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>((I * 5) % 61) / 61.0f;
  for (size_t I = 0; I < N; ++I) {
    Y1[I] = 1.0f + static_cast<float>(I % 17) / 17.0f;
    Y2[I] = 0.5f + static_cast<float>((I * 3) % 19) / 19.0f;
    X1Init[I] = static_cast<float>(I % 23);
    X2Init[I] = static_cast<float>((I * 7) % 29) + 0.5f;
  }
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> Result(2 * static_cast<size_t>(N), std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  auto createBuffer = [&](cl_mem_flags Flags, std::vector<float> &Host, const char *What) {
    cl_mem Buffer = clCreateBuffer(Context, Flags | CL_MEM_COPY_HOST_PTR,
                                   sizeof(float) * Host.size(), Host.data(), &Err);
    CL_CHECK_ERR(Err, What);
    return Buffer;
  };
  cl_mem BufA = createBuffer(CL_MEM_READ_ONLY, A, "clCreateBuffer(a)");
  cl_mem BufY1 = createBuffer(CL_MEM_READ_ONLY, Y1, "clCreateBuffer(y1)");
  cl_mem BufY2 = createBuffer(CL_MEM_READ_ONLY, Y2, "clCreateBuffer(y2)");
  cl_mem BufX1 = createBuffer(CL_MEM_READ_WRITE, X1Init, "clCreateBuffer(x1)");
  cl_mem BufX2 = createBuffer(CL_MEM_READ_WRITE, X2Init, "clCreateBuffer(x2)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel KernelX1 = clCreateKernel(Program, "mvt_x1", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(mvt_x1)");
  cl_kernel KernelX2 = clCreateKernel(Program, "mvt_x2", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(mvt_x2)");
  CL_CHECK(clSetKernelArg(KernelX1, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelX1, 1, sizeof(cl_mem), &BufY1));
  CL_CHECK(clSetKernelArg(KernelX1, 2, sizeof(cl_mem), &BufX1));
  CL_CHECK(clSetKernelArg(KernelX1, 3, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(KernelX2, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelX2, 1, sizeof(cl_mem), &BufY2));
  CL_CHECK(clSetKernelArg(KernelX2, 2, sizeof(cl_mem), &BufX2));
  CL_CHECK(clSetKernelArg(KernelX2, 3, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t Global = N;
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelX1, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelX2, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufX1, CL_FALSE, 0, sizeof(float) * N, Result.data(), 0,
                               nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufX2, CL_FALSE, 0, sizeof(float) * N, Result.data() + N, 0,
                               nullptr, nullptr));
  CL_CHECK(clFinish(Queue));
  const double Seconds = Timer.seconds();

  // Double-precision reference in full (the products once, then the rounds' additions): it costs
  // about one round of the kernels.
  std::vector<double> Ref(Result.size(), 0.0);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J) {
      const double Aij = A[I * N + J];
      Ref[I] += Aij * Y1[J];
      Ref[N + J] += Aij * Y2[I];
    }
  for (size_t I = 0; I < N; ++I) {
    const double Ay1 = Ref[I], Aty2 = Ref[N + I];
    Ref[I] = X1Init[I];
    Ref[N + I] = X2Init[I];
    for (long It = 0; It < Iterations; ++It) {
      Ref[I] += Ay1;
      Ref[N + I] += Aty2;
    }
  }

  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t E = 0; E < Result.size(); ++E) {
    const double RelError = std::fabs(Result[E] - Ref[E]) / Ref[E];
    // A NaN left over from the sentinel (an element nobody wrote) counts as wrong.
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, Result);
  clReleaseKernel(KernelX1);
  clReleaseKernel(KernelX2);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufA, BufY1, BufY2, BufX1, BufX2})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %zu, max rel error %.3g (tolerance %.0e)",
                Wrong, Result.size(), MaxRelError, Tolerance);
  return app::report("mvt", Wrong == 0, Choice, Seconds, Detail);
}
