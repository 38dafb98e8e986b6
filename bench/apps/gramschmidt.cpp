// PolyBench's gramschmidt, written from its definition: the QR decomposition of an M x N
// row-major float matrix A (M >= N) by modified Gram-Schmidt, orthogonalising A's columns in
// place. Each column k = 0..N-1 is three launches, each reading what the previous one wrote:
// gs_norm, a single work-group (global = local = 256) that reduces the squares of column k in
// local memory into R[k][k] = |a_k|; gs_normalize (1D over the M rows, NULL local size) writes
// Q's column k = a_k / R[k][k]; gs_project (1D over the columns j > k, explicit local size 32
// over a padded global size that shrinks every step, with a bounds check; not launched for the
// last column, which has none) computes R[k][j] = q_k . a_j and then removes that component from
// a_j. So each step puts a one-work-group kernel between kernels that split: 3N - 1 launches in
// all. The output is R (N x N, upper triangular; the rest stays zero) followed by Q (M x N).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
#define NORM_GROUP 256

__kernel void gs_norm(__global const float *a, __global float *r, const uint k, const uint m,
                      const uint n) {
  __local float partial[NORM_GROUP];
  const uint lid = get_local_id(0);
  float sum = 0.0f;
  for (uint i = lid; i < m; i += NORM_GROUP)
    sum += a[i * n + k] * a[i * n + k];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = NORM_GROUP / 2; stride > 0; stride /= 2) {
    if (lid < stride)
      partial[lid] += partial[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    r[k * n + k] = sqrt(partial[0]);
}

__kernel void gs_normalize(__global const float *a, __global const float *r, __global float *q,
                           const uint k, const uint n) {
  const uint i = get_global_id(0);
  q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__kernel void gs_project(__global float *a, __global float *r, __global const float *q,
                         const uint k, const uint m, const uint n) {
  const uint j = k + 1 + get_global_id(0);
  if (j >= n)
    return;
  float dot = 0.0f;
  for (uint i = 0; i < m; ++i)
    dot += q[i * n + k] * a[i * n + j];
  r[k * n + j] = dot;
  for (uint i = 0; i < m; ++i)
    a[i * n + j] -= q[i * n + k] * dot;
}
)CLC";

// The matrix is pseudo-random in [-1, 1) plus 2 on the diagonal: its singular values lie near
// (sqrt(M) +- sqrt(N)) / sqrt(3), so its condition number is of order ten when M is at least
// 1.5 N (as at the manifest's shapes), and modified Gram-Schmidt, whose loss of orthogonality is
// proportional to it, keeps |Q^T Q - I| within a small multiple of 2^-24 times it. Both checks are
// normwise, as the factors' entries have either sign and may be near zero: entries of Q^T Q - I
// absolutely (Q's columns have norm 1), entries of Q R - A relative to the largest |A| (measured:
// at most 3e-7 and 1.1e-6 at the manifest's sizes). Both products are computed in double from the
// device's float factors.
static constexpr double Tolerance = 1e-4;
// A row of Q^T Q costs M N multiply-adds and a column of Q R at most as much: all of them are
// checked when that costs at most ReferenceBudget in all, else every Stride-th one.
constexpr double ReferenceBudget = 1 << 28;

static float entry(uint64_t Index) {
  uint64_t X = Index * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  X = (X ^ (X >> 30)) * 0xBF58476D1CE4E5B9ull;
  X = (X ^ (X >> 27)) * 0x94D049BB133111EBull;
  X ^= X >> 31;
  return static_cast<float>(X >> 40) / static_cast<float>(1 << 23) - 1.0f;
}

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--m ROWS] [--n COLUMNS]");
  const cl_uint M = static_cast<cl_uint>(Opts.integer("m", 1024));
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 512));
  if (N == 0 || M < N)
    app::fail("--n must be positive and --m at least --n");

  const size_t Cells = static_cast<size_t>(M) * N;
  std::vector<float> A(Cells);
  for (size_t I = 0; I < M; ++I)
    for (size_t J = 0; J < N; ++J)
      A[I * N + J] = entry(I * N + J) + (I == J ? 2.0f : 0.0f);
  // R starts as zeros (below its diagonal it stays so); the host copy that receives R and Q
  // starts as NaN, so that a failed read cannot look right.
  std::vector<float> Zeros(static_cast<size_t>(N) * N, 0.0f);
  std::vector<float> Result(Zeros.size() + Cells, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  auto createBuffer = [&](std::vector<float> &Host, const char *What) {
    cl_mem Buffer = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   sizeof(float) * Host.size(), Host.data(), &Err);
    CL_CHECK_ERR(Err, What);
    return Buffer;
  };
  cl_mem BufA = createBuffer(A, "clCreateBuffer(a)");
  cl_mem BufR = createBuffer(Zeros, "clCreateBuffer(r)");
  cl_mem BufQ = clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(float) * Cells, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(q)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Norm = clCreateKernel(Program, "gs_norm", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(gs_norm)");
  cl_kernel Normalize = clCreateKernel(Program, "gs_normalize", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(gs_normalize)");
  cl_kernel Project = clCreateKernel(Program, "gs_project", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(gs_project)");
  CL_CHECK(clSetKernelArg(Norm, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Norm, 1, sizeof(cl_mem), &BufR));
  CL_CHECK(clSetKernelArg(Norm, 3, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(Norm, 4, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Normalize, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Normalize, 1, sizeof(cl_mem), &BufR));
  CL_CHECK(clSetKernelArg(Normalize, 2, sizeof(cl_mem), &BufQ));
  CL_CHECK(clSetKernelArg(Normalize, 4, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Project, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Project, 1, sizeof(cl_mem), &BufR));
  CL_CHECK(clSetKernelArg(Project, 2, sizeof(cl_mem), &BufQ));
  CL_CHECK(clSetKernelArg(Project, 4, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(Project, 5, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t NormSize = 256;
  const size_t Rows = M;
  const size_t ProjectLocal = 32;
  for (cl_uint K = 0; K < N; ++K) {
    CL_CHECK(clSetKernelArg(Norm, 2, sizeof(cl_uint), &K));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Norm, 1, nullptr, &NormSize, &NormSize, 0, nullptr, nullptr));
    CL_CHECK(clSetKernelArg(Normalize, 3, sizeof(cl_uint), &K));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Normalize, 1, nullptr, &Rows, nullptr, 0, nullptr, nullptr));
    const size_t Remaining = roundUp(N - K - 1, ProjectLocal);
    if (Remaining == 0)
      continue;
    CL_CHECK(clSetKernelArg(Project, 3, sizeof(cl_uint), &K));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Project, 1, nullptr, &Remaining, &ProjectLocal, 0,
                                    nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufR, CL_FALSE, 0, sizeof(float) * Zeros.size(),
                               Result.data(), 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufQ, CL_FALSE, 0, sizeof(float) * Cells,
                               Result.data() + Zeros.size(), 0, nullptr, nullptr));
  CL_CHECK(clFinish(Queue));
  const double Seconds = Timer.seconds();

  const float *R = Result.data();
  const float *Q = Result.data() + Zeros.size();
  size_t Wrong = 0, Checked = 0;
  double MaxOrthoError = 0.0, MaxRelError = 0.0;
  for (float Value : Result)
    if (!std::isfinite(Value))
      ++Wrong;
  auto record = [&](double Error, double &Max) {
    if (!(Error <= Tolerance) && std::isfinite(Error))
      ++Wrong;
    if (std::isfinite(Error))
      Max = std::max(Max, Error);
    ++Checked;
  };
  double Largest = 0.0;
  for (float Value : A)
    Largest = std::max(Largest, static_cast<double>(std::fabs(Value)));
  // Every Stride-th row of Q^T Q and column of Q R (all of them when that fits the budget).
  const double Cost = 1.5 * M * N * N;
  const size_t Stride = std::max<size_t>(1, static_cast<size_t>(std::ceil(Cost / ReferenceBudget)));
  for (size_t K = 0; K < N; K += Stride) {
    // Row K of Q^T Q: q_K . q_J for every J.
    for (size_t J = 0; J < N; ++J) {
      double Dot = 0.0;
      for (size_t I = 0; I < M; ++I)
        Dot += static_cast<double>(Q[I * N + K]) * Q[I * N + J];
      record(std::fabs(Dot - (J == K ? 1.0 : 0.0)), MaxOrthoError);
    }
    // Column K of Q R: sum_{J <= K} q_J R[J][K], every row.
    for (size_t I = 0; I < M; ++I) {
      double Sum = 0.0;
      for (size_t J = 0; J <= K; ++J)
        Sum += static_cast<double>(Q[I * N + J]) * R[J * N + K];
      record(std::fabs(Sum - A[I * N + K]) / Largest, MaxRelError);
    }
  }
  // Below R's diagonal nothing is written: the zeros must have stayed.
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < I; ++J)
      if (R[I * N + J] != 0.0f)
        ++Wrong;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Norm);
  clReleaseKernel(Normalize);
  clReleaseKernel(Project);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufA, BufR, BufQ})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (stride %zu), max |Q^T Q - I| %.3g, "
                "max |Q R - A| / max |A| %.3g (tolerance %.0e)",
                Wrong, Result.size(), Checked, Stride, MaxOrthoError, MaxRelError, Tolerance);
  return app::report("gramschmidt", Wrong == 0, Choice, Seconds, Detail);
}
