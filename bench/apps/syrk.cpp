// PolyBench's syrk, written from its definition: the symmetric rank-k update
// C = alpha * A x A^T + beta * C of an N x N matrix C from an N x M matrix A, row-major, on the
// lower triangle only (j <= i; C is symmetric, the upper triangle is left as it was). One
// work-item per element of C in a 2D launch with an explicit 16x16 local size over a padded
// global size; the work-items above the diagonal do nothing, so the cost of a row grows with its
// index. Every --iterations launch applies the update again to the C the previous one left.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

static const char *KernelSource = R"CLC(
__kernel void syrk(__global const float *a, __global float *c, const uint n, const uint m,
                   const float alpha, const float beta) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i < n && j <= i) {
    float acc = 0.0f;
    for (uint k = 0; k < m; ++k)
      acc += a[i * m + k] * a[j * m + k];
    c[i * n + j] = beta * c[i * n + j] + alpha * acc;
  }
}
)CLC";

constexpr float Alpha = 1.5f;
constexpr float Beta = 1.2f;
// All inputs are positive, so no cancellation: a float dot product of length M in any fixed order
// (with or without fused multiply-adds) is within M * 2^-24 of the exact value at worst and near
// sqrt(M) * 2^-24 in practice (rounding errors of both signs cancel; measured: at most 5e-6 at the
// manifest's sizes), and the update with positive alpha and beta adds a few ulp per launch
// without amplifying earlier errors.
static constexpr double Tolerance = 1e-4;
// The reference recomputes at most this many multiply-adds: every element of C when that is
// enough, else a strided sample (see sampleStride).
constexpr double ReferenceBudget = 1 << 25;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

// Stride of the checked sample of a row-major matrix with Columns columns: 1 when checking every
// element costs at most ReferenceBudget, else a stride coprime with Columns, so that the sample
// walks through every column and every row.
static size_t sampleStride(size_t Elements, double CostPerElement, size_t Columns) {
  size_t Stride = static_cast<size_t>(
      std::max(1.0, std::ceil(static_cast<double>(Elements) * CostPerElement / ReferenceBudget)));
  while (Stride > 1 && std::gcd(Stride, Columns) != 1)
    ++Stride;
  return Stride;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER] [--m RANK] [--iterations LAUNCHES]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 256));
  const cl_uint M = static_cast<cl_uint>(Opts.integer("m", N));
  const long Iterations = Opts.integer("iterations", 1);
  if (N == 0 || M == 0)
    app::fail("--n and --m must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(N) * M), CInit(static_cast<size_t>(N) * N);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>(I % 61) / 61.0f;
  for (size_t I = 0; I < CInit.size(); ++I)
    CInit[I] = 1.0f + static_cast<float>((I * 3) % 47) / 47.0f;
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> C(CInit.size(), std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t BytesA = sizeof(float) * A.size();
  const size_t BytesC = sizeof(float) * C.size();
  cl_mem BufA = clCreateBuffer(Context, CL_MEM_READ_ONLY, BytesA, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufC = clCreateBuffer(Context, CL_MEM_READ_WRITE, BytesC, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(c)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufA, CL_FALSE, 0, BytesA, A.data(), 0, nullptr, nullptr));
  CL_CHECK(
      clEnqueueWriteBuffer(Queue, BufC, CL_FALSE, 0, BytesC, CInit.data(), 0, nullptr, nullptr));
  CL_CHECK(clFinish(Queue));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "syrk", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufC));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_float), &Alpha));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(cl_float), &Beta));

  app::Stopwatch Timer;
  const size_t Local[2] = {16, 16};
  const size_t Global[2] = {roundUp(N, Local[0]), roundUp(N, Local[1])};
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, Local, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufC, CL_TRUE, 0, BytesC, C.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference of the sampled elements: below the diagonal the recurrence, above
  // it the start value, bit for bit. All of C is scanned for the sentinel.
  const size_t Stride = sampleStride(C.size(), M / 2.0, N);
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (size_t E = 0; E < C.size(); ++E) {
    if (!std::isfinite(C[E])) {
      ++Wrong;
      continue;
    }
    if (E % Stride != 0 && E + 1 != C.size())
      continue;
    ++Checked;
    const size_t I = E / N, J = E % N;
    if (J > I) {
      if (C[E] != CInit[E])
        ++Wrong;
      continue;
    }
    double Dot = 0.0;
    for (size_t K = 0; K < M; ++K)
      Dot += static_cast<double>(A[I * M + K]) * A[J * M + K];
    double Want = CInit[E];
    for (long It = 0; It < Iterations; ++It)
      Want = static_cast<double>(Beta) * Want + static_cast<double>(Alpha) * Dot;
    const double RelError = std::fabs(C[E] - Want) / Want;
    if (!(RelError <= Tolerance))
      ++Wrong;
    MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, C);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufC);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (stride %zu), max rel error %.3g (tolerance %.0e)",
                Wrong, C.size(), Checked, Stride, MaxRelError, Tolerance);
  return app::report("syrk", Wrong == 0, Choice, Seconds, Detail);
}
