// PolyBench's syr2k, written from its definition: the symmetric rank-2k update
// C = alpha * A x B^T + alpha * B x A^T + beta * C of an N x N matrix C from two N x M matrices A
// and B, row-major, on the lower triangle only (j <= i; the upper triangle is left as it was).
// One work-item per element of C in a 2D launch that leaves the local size to the implementation
// (NULL); the work-items above the diagonal do nothing, so the cost of a row grows with its index.
// Every --iterations launch applies the update again to the C the previous one left.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

static const char *KernelSource = R"CLC(
// The global size is exactly N x N, so the only guard is the triangle.
__kernel void syr2k(__global const float *a, __global const float *b, __global float *c,
                    const uint n, const uint m, const float alpha, const float beta) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (j <= i) {
    float acc = 0.0f;
    for (uint k = 0; k < m; ++k)
      acc += a[i * m + k] * b[j * m + k] + b[i * m + k] * a[j * m + k];
    c[i * n + j] = beta * c[i * n + j] + alpha * acc;
  }
}
)CLC";

constexpr float Alpha = 1.5f;
constexpr float Beta = 1.2f;
// All inputs are positive, so no cancellation: a float sum of 2M products in any fixed order (with
// or without fused multiply-adds) is within 2M * 2^-24 of the exact value at worst and near
// sqrt(2M) * 2^-24 in practice (rounding errors of both signs cancel; measured: at most 3e-6 at
// the manifest's sizes), and the update with positive alpha and beta adds a few ulp per launch
// without amplifying earlier errors.
static constexpr double Tolerance = 1e-4;
// The reference recomputes at most this many multiply-adds: every element of C when that is
// enough, else a strided sample (see sampleStride).
constexpr double ReferenceBudget = 1 << 25;

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

  std::vector<float> A(static_cast<size_t>(N) * M), B(A.size());
  std::vector<float> CInit(static_cast<size_t>(N) * N);
  for (size_t I = 0; I < A.size(); ++I) {
    A[I] = 0.25f + static_cast<float>(I % 61) / 61.0f;
    B[I] = 0.5f + static_cast<float>((I * 7) % 53) / 53.0f;
  }
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

  const size_t BytesAB = sizeof(float) * A.size();
  const size_t BytesC = sizeof(float) * C.size();
  cl_mem BufA =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesAB, A.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesAB, B.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  cl_mem BufC =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BytesC, CInit.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(c)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "syr2k", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufC));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(cl_float), &Alpha));
  CL_CHECK(clSetKernelArg(Kernel, 6, sizeof(cl_float), &Beta));

  app::Stopwatch Timer;
  const size_t Global[2] = {N, N};
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, nullptr, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufC, CL_TRUE, 0, BytesC, C.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference of the sampled elements: below the diagonal the recurrence, above
  // it the start value, bit for bit. All of C is scanned for the sentinel.
  const size_t Stride = sampleStride(C.size(), M, N);
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
    double Sum = 0.0;
    for (size_t K = 0; K < M; ++K)
      Sum += static_cast<double>(A[I * M + K]) * B[J * M + K] +
             static_cast<double>(B[I * M + K]) * A[J * M + K];
    double Want = CInit[E];
    for (long It = 0; It < Iterations; ++It)
      Want = static_cast<double>(Beta) * Want + static_cast<double>(Alpha) * Sum;
    const double RelError = std::fabs(C[E] - Want) / Want;
    if (!(RelError <= Tolerance))
      ++Wrong;
    MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, C);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseMemObject(BufC);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (stride %zu), max rel error %.3g (tolerance %.0e)",
                Wrong, C.size(), Checked, Stride, MaxRelError, Tolerance);
  return app::report("syr2k", Wrong == 0, Choice, Seconds, Detail);
}
