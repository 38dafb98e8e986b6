// Dense C = A x B (A is M x K, B is K x N, row-major) with 16x16 tiles staged in local memory.
// 2D launch with an explicit local size over a padded global size, inputs uploaded with
// non-blocking writes and a clFinish, the result read back by mapping the buffer.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
#define TILE 16

__kernel void matmul(__global const float *a, __global const float *b, __global float *c,
                     const unsigned int m, const unsigned int n, const unsigned int k) {
  __local float tileA[TILE][TILE];
  __local float tileB[TILE][TILE];
  const unsigned int col = get_global_id(0);
  const unsigned int row = get_global_id(1);
  const unsigned int lx = get_local_id(0);
  const unsigned int ly = get_local_id(1);

  // Work-items outside C still load tiles and reach the barriers; out-of-range loads are zeros,
  // which leave the sum unchanged.
  float acc = 0.0f;
  for (unsigned int t = 0; t < k; t += TILE) {
    tileA[ly][lx] = (row < m && t + lx < k) ? a[row * k + t + lx] : 0.0f;
    tileB[ly][lx] = (t + ly < k && col < n) ? b[(t + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (unsigned int i = 0; i < TILE; ++i)
      acc += tileA[ly][i] * tileB[i][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n)
    c[row * n + col] = acc;
}
)CLC";

// All inputs are positive, so no cancellation: a float dot product of length K in any fixed order
// (with or without fused multiply-adds) stays within K * 2^-24 of the exact value, which is below
// this for K up to about 1600.
static constexpr double Tolerance = 1e-4;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv,
                    "[--size M=N=K] [--m ROWS] [--n COLUMNS] [--k INNER] "
                    "[--iterations LAUNCHES]");
  const long Size = Opts.integer("size", 256);
  const cl_uint M = static_cast<cl_uint>(Opts.integer("m", Size));
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", Size));
  const cl_uint K = static_cast<cl_uint>(Opts.integer("k", Size));
  const long Iterations = Opts.integer("iterations", 1);
  if (M == 0 || N == 0 || K == 0)
    app::fail("--m, --n and --k must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(M) * K), B(static_cast<size_t>(K) * N);
  std::vector<float> C(static_cast<size_t>(M) * N, std::nanf(""));
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>(I % 61) / 61.0f;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = 0.5f + static_cast<float>((I * 7) % 53) / 53.0f;

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t BytesA = sizeof(float) * A.size();
  const size_t BytesB = sizeof(float) * B.size();
  const size_t BytesC = sizeof(float) * C.size();
  cl_mem BufA = clCreateBuffer(Context, CL_MEM_READ_ONLY, BytesA, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB = clCreateBuffer(Context, CL_MEM_READ_ONLY, BytesB, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  cl_mem BufC = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, BytesC, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(c)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufA, CL_FALSE, 0, BytesA, A.data(), 0, nullptr, nullptr));
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufB, CL_FALSE, 0, BytesB, B.data(), 0, nullptr, nullptr));
  CL_CHECK(clFinish(Queue));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "matmul", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufC));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(cl_uint), &K));

  app::Stopwatch Timer;
  const size_t Local[2] = {16, 16};
  const size_t Global[2] = {roundUp(N, Local[0]), roundUp(M, Local[1])};
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, Local, 0, nullptr, nullptr));
  void *Mapped =
      clEnqueueMapBuffer(Queue, BufC, CL_TRUE, CL_MAP_READ, 0, BytesC, 0, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clEnqueueMapBuffer");
  std::memcpy(C.data(), Mapped, BytesC);
  CL_CHECK(clEnqueueUnmapMemObject(Queue, BufC, Mapped, 0, nullptr, nullptr));
  CL_CHECK(clFinish(Queue));
  const double Seconds = Timer.seconds();

  // Double-precision reference, i-k-j order so the inner loop streams through rows of B and C.
  std::vector<double> Ref(C.size(), 0.0);
  for (size_t I = 0; I < M; ++I)
    for (size_t P = 0; P < K; ++P) {
      const double Aip = A[I * K + P];
      for (size_t J = 0; J < N; ++J)
        Ref[I * N + J] += Aip * B[P * N + J];
    }

  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t I = 0; I < C.size(); ++I) {
    const double RelError = std::fabs(C[I] - Ref[I]) / Ref[I];
    // A NaN left over from the sentinel (an element nobody wrote) fails the test: it counts as
    // wrong.
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
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
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %zu, max rel error %.3g (tolerance %.0e)",
                Wrong, C.size(), MaxRelError, Tolerance);
  return app::report("matmul", Wrong == 0, Choice, Seconds, Detail);
}
