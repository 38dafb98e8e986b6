// PolyBench's bicg (the two matrix-vector products of the BiCG solver's step), written from its
// definition: s = A^T r and q = A p for an N x M row-major matrix A (N rows). Two independent
// naive 1D kernels per iteration, one work-item per output element, plain global-memory loops,
// NULL local sizes: one walks down a column of A, the other along a row. Every --iterations round
// recomputes the same s and q (memory-bound products, repeated to run long enough to measure).
// Output: s (M floats) followed by q (N floats).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void bicg_s(__global const float *a, __global const float *r, __global float *s,
                     const uint n, const uint m) {
  const uint j = get_global_id(0);
  float sum = 0.0f;
  for (uint i = 0; i < n; ++i)
    sum += r[i] * a[i * m + j];
  s[j] = sum;
}

__kernel void bicg_q(__global const float *a, __global const float *p, __global float *q,
                     const uint m) {
  const uint i = get_global_id(0);
  float sum = 0.0f;
  for (uint j = 0; j < m; ++j)
    sum += a[i * m + j] * p[j];
  q[i] = sum;
}
)CLC";

// All inputs are positive, so no cancellation: s is within N * 2^-24 of exact and q within
// M * 2^-24, at worst; in practice rounding errors of both signs cancel (measured: at most 3e-6 at
// the manifest's sizes).
static constexpr double Tolerance = 1e-4;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ROWS] [--m COLUMNS] [--iterations ROUNDS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 2048));
  const cl_uint M = static_cast<cl_uint>(Opts.integer("m", N));
  const long Iterations = Opts.integer("iterations", 1);
  if (N == 0 || M == 0)
    app::fail("--n and --m must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(N) * M), R(N), P(M);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>((I * 5) % 61) / 61.0f;
  for (size_t I = 0; I < N; ++I)
    R[I] = 1.0f + static_cast<float>(I % 17) / 17.0f;
  for (size_t J = 0; J < M; ++J)
    P[J] = 0.5f + static_cast<float>((J * 3) % 19) / 19.0f;
  // The result buffers start as NaN on the device: anything left unwritten shows.
  std::vector<float> Result(static_cast<size_t>(M) + N, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  auto createBuffer = [&](cl_mem_flags Flags, size_t Count, float *Host, const char *What) {
    cl_mem Buffer =
        clCreateBuffer(Context, Flags | CL_MEM_COPY_HOST_PTR, sizeof(float) * Count, Host, &Err);
    CL_CHECK_ERR(Err, What);
    return Buffer;
  };
  cl_mem BufA = createBuffer(CL_MEM_READ_ONLY, A.size(), A.data(), "clCreateBuffer(a)");
  cl_mem BufR = createBuffer(CL_MEM_READ_ONLY, N, R.data(), "clCreateBuffer(r)");
  cl_mem BufP = createBuffer(CL_MEM_READ_ONLY, M, P.data(), "clCreateBuffer(p)");
  cl_mem BufS = createBuffer(CL_MEM_WRITE_ONLY, M, Result.data(), "clCreateBuffer(s)");
  cl_mem BufQ = createBuffer(CL_MEM_WRITE_ONLY, N, Result.data() + M, "clCreateBuffer(q)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel KernelS = clCreateKernel(Program, "bicg_s", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(bicg_s)");
  cl_kernel KernelQ = clCreateKernel(Program, "bicg_q", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(bicg_q)");
  CL_CHECK(clSetKernelArg(KernelS, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelS, 1, sizeof(cl_mem), &BufR));
  CL_CHECK(clSetKernelArg(KernelS, 2, sizeof(cl_mem), &BufS));
  CL_CHECK(clSetKernelArg(KernelS, 3, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(KernelS, 4, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(KernelQ, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelQ, 1, sizeof(cl_mem), &BufP));
  CL_CHECK(clSetKernelArg(KernelQ, 2, sizeof(cl_mem), &BufQ));
  CL_CHECK(clSetKernelArg(KernelQ, 3, sizeof(cl_uint), &M));

  app::Stopwatch Timer;
  const size_t GlobalS = M, GlobalQ = N;
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelS, 1, nullptr, &GlobalS, nullptr, 0, nullptr, nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelQ, 1, nullptr, &GlobalQ, nullptr, 0, nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufS, CL_FALSE, 0, sizeof(float) * M, Result.data(), 0,
                               nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufQ, CL_FALSE, 0, sizeof(float) * N, Result.data() + M, 0,
                               nullptr, nullptr));
  CL_CHECK(clFinish(Queue));
  const double Seconds = Timer.seconds();

  // Double-precision reference in full: it costs about one round of the kernels.
  std::vector<double> Ref(Result.size(), 0.0);
  double *RefS = Ref.data(), *RefQ = Ref.data() + M;
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < M; ++J) {
      const double Aij = A[I * M + J];
      RefS[J] += R[I] * Aij;
      RefQ[I] += Aij * P[J];
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
  clReleaseKernel(KernelS);
  clReleaseKernel(KernelQ);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufA, BufR, BufP, BufS, BufQ})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %zu, max rel error %.3g (tolerance %.0e)",
                Wrong, Result.size(), MaxRelError, Tolerance);
  return app::report("bicg", Wrong == 0, Choice, Seconds, Detail);
}
