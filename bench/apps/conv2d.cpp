// PolyBench's 2D convolution (2DCONV of PolyBench/GPU), written from its definition: a 3x3
// filter over an NI x NJ row-major float image, B[i][j] = sum_{a,b} w[a][b] * A[i+a][j+b] for
// the (NI - 2) x (NJ - 2) positions where the filter fits. One work-item per output pixel in a
// 2D launch with an explicit 16x16 local size over a padded global size, the weights as
// constants in the kernel (not symmetric, so a transposed or shifted result shows). Every
// --iterations launch recomputes the same B (the filter is memory-bound, repeated to run long
// enough to measure).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void conv2d(__global const float *a, __global float *b, const uint ni, const uint nj) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i + 2 < ni && j + 2 < nj) {
    const uint up = i * nj + j, mid = up + nj, down = mid + nj;
    b[i * (nj - 2) + j] = 0.05f * a[up] + 0.10f * a[up + 1] + 0.15f * a[up + 2] +
                          0.20f * a[mid] + 0.25f * a[mid + 1] + 0.30f * a[mid + 2] +
                          0.35f * a[down] + 0.40f * a[down + 1] + 0.45f * a[down + 2];
  }
}
)CLC";

// The kernel's weights, row by row, as the device rounds them.
static const float Weights[3][3] = {
    {0.05f, 0.10f, 0.15f}, {0.20f, 0.25f, 0.30f}, {0.35f, 0.40f, 0.45f}};
// All weights and pixels are positive, so no cancellation: nine products summed in any fixed
// order (with or without fused multiply-adds) stay within a few ulp of the exact value.
static constexpr double Tolerance = 1e-5;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--ni ROWS] [--nj COLUMNS] [--iterations LAUNCHES]");
  const cl_uint NI = static_cast<cl_uint>(Opts.integer("ni", 2048));
  const cl_uint NJ = static_cast<cl_uint>(Opts.integer("nj", NI));
  const long Iterations = Opts.integer("iterations", 1);
  if (NI < 3 || NJ < 3)
    app::fail("--ni and --nj must be at least 3");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  const size_t OutRows = NI - 2, OutColumns = NJ - 2;
  std::vector<float> A(static_cast<size_t>(NI) * NJ);
  for (size_t I = 0; I < NI; ++I)
    for (size_t J = 0; J < NJ; ++J)
      A[I * NJ + J] = 1.0f + static_cast<float>((I * 7 + J * 13) % 64) / 63.0f;
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> B(OutRows * OutColumns, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t BytesA = sizeof(float) * A.size();
  const size_t BytesB = sizeof(float) * B.size();
  cl_mem BufA = clCreateBuffer(Context, CL_MEM_READ_ONLY, BytesA, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, BytesB, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufA, CL_TRUE, 0, BytesA, A.data(), 0, nullptr, nullptr));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "conv2d", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_uint), &NI));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &NJ));

  app::Stopwatch Timer;
  const size_t Local[2] = {16, 16};
  const size_t Global[2] = {roundUp(OutColumns, Local[0]), roundUp(OutRows, Local[1])};
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, Local, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufB, CL_TRUE, 0, BytesB, B.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference in full: it costs about one launch of the kernel.
  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t I = 0; I < OutRows; ++I)
    for (size_t J = 0; J < OutColumns; ++J) {
      double Want = 0.0;
      for (size_t R = 0; R < 3; ++R)
        for (size_t S = 0; S < 3; ++S)
          Want += static_cast<double>(Weights[R][S]) * A[(I + R) * NJ + J + S];
      const double RelError = std::fabs(B[I * OutColumns + J] - Want) / Want;
      // A NaN left over from the sentinel (a pixel nobody wrote) counts as wrong.
      if (!(RelError <= Tolerance))
        ++Wrong;
      if (std::isfinite(RelError))
        MaxRelError = std::max(MaxRelError, RelError);
    }

  app::writeOutput(Opts, B);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %zu, max rel error %.3g (tolerance %.0e)",
                Wrong, B.size(), MaxRelError, Tolerance);
  return app::report("conv2d", Wrong == 0, Choice, Seconds, Detail);
}
