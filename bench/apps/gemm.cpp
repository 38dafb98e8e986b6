// PolyBench's gemm, written from its definition: C = alpha * A x B + beta * C, with A NI x NK,
// B NK x NJ and C NI x NJ, row-major. The naive kernel a user writes first: one work-item per
// element of C, a plain loop over global memory, a 2D launch with an explicit 32x8 local size over
// a padded global size (the shape of the PolyBench/GPU ports). Every --iterations launch applies
// the update again to the C the previous one left, so C_t = beta * C_(t-1) + alpha * A x B.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

static const char *KernelSource = R"CLC(
__kernel void gemm(__global const float *a, __global const float *b, __global float *c,
                   const uint ni, const uint nj, const uint nk, const float alpha,
                   const float beta) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i < ni && j < nj) {
    float acc = 0.0f;
    for (uint k = 0; k < nk; ++k)
      acc += a[i * nk + k] * b[k * nj + j];
    c[i * nj + j] = beta * c[i * nj + j] + alpha * acc;
  }
}
)CLC";

constexpr float Alpha = 1.5f;
constexpr float Beta = 1.2f;
// All inputs are positive, so no cancellation: a float dot product of length NK in any fixed order
// (with or without fused multiply-adds) is within NK * 2^-24 of the exact value at worst and near
// sqrt(NK) * 2^-24 in practice (rounding errors of both signs cancel; measured: at most 2e-6 at
// the manifest's sizes), and the update with positive alpha and beta adds a few ulp per launch
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
  app::Options Opts(argc, argv,
                    "[--size NI=NJ=NK] [--ni ROWS] [--nj COLUMNS] [--nk INNER] "
                    "[--iterations LAUNCHES]");
  const long Size = Opts.integer("size", 256);
  const cl_uint NI = static_cast<cl_uint>(Opts.integer("ni", Size));
  const cl_uint NJ = static_cast<cl_uint>(Opts.integer("nj", Size));
  const cl_uint NK = static_cast<cl_uint>(Opts.integer("nk", Size));
  const long Iterations = Opts.integer("iterations", 1);
  if (NI == 0 || NJ == 0 || NK == 0)
    app::fail("--ni, --nj and --nk must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(NI) * NK), B(static_cast<size_t>(NK) * NJ);
  std::vector<float> CInit(static_cast<size_t>(NI) * NJ);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>(I % 61) / 61.0f;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = 0.5f + static_cast<float>((I * 7) % 53) / 53.0f;
  for (size_t I = 0; I < CInit.size(); ++I)
    CInit[I] = 1.0f + static_cast<float>((I * 3) % 47) / 47.0f;
  // C is read and written by the kernel, so it starts as the input; the host copy that receives
  // the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> C(CInit.size(), std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t BytesA = sizeof(float) * A.size();
  const size_t BytesB = sizeof(float) * B.size();
  const size_t BytesC = sizeof(float) * C.size();
  cl_mem BufA =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesA, A.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, BytesB, B.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  cl_mem BufC =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BytesC, CInit.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(c)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "gemm", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufC));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &NI));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_uint), &NJ));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(cl_uint), &NK));
  CL_CHECK(clSetKernelArg(Kernel, 6, sizeof(cl_float), &Alpha));
  CL_CHECK(clSetKernelArg(Kernel, 7, sizeof(cl_float), &Beta));

  app::Stopwatch Timer;
  const size_t Local[2] = {32, 8};
  const size_t Global[2] = {roundUp(NJ, Local[0]), roundUp(NI, Local[1])};
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, Local, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufC, CL_TRUE, 0, BytesC, C.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference of the sampled elements (each one only needs its row of A, its
  // column of B and its own start value), plus a scan of all of C for the sentinel.
  const size_t Stride = sampleStride(C.size(), NK, NJ);
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (size_t E = 0; E < C.size(); ++E) {
    if (!std::isfinite(C[E])) {
      ++Wrong;
      continue;
    }
    if (E % Stride != 0 && E + 1 != C.size())
      continue;
    const size_t I = E / NJ, J = E % NJ;
    double Dot = 0.0;
    for (size_t K = 0; K < NK; ++K)
      Dot += static_cast<double>(A[I * NK + K]) * B[K * NJ + J];
    double Want = CInit[E];
    for (long It = 0; It < Iterations; ++It)
      Want = static_cast<double>(Beta) * Want + static_cast<double>(Alpha) * Dot;
    const double RelError = std::fabs(C[E] - Want) / Want;
    if (!(RelError <= Tolerance))
      ++Wrong;
    MaxRelError = std::max(MaxRelError, RelError);
    ++Checked;
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
  return app::report("gemm", Wrong == 0, Choice, Seconds, Detail);
}
