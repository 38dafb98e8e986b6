// PolyBench's covariance, written from its definition: the M x M sample covariance matrix of
// N observations (rows) of M variables (columns) of a row-major N x M data matrix. Three naive
// kernels per iteration, each reading what the previous one wrote: the column means (1D, one
// work-item per variable, NULL local size), the centred data (2D, one work-item per datum, NULL
// local size; written to a buffer of its own, so that every iteration starts from the same data),
// and the covariances (2D, one work-item per matrix element, explicit 16x16 local size over a
// padded global size; the full symmetric matrix, each half computed by its own work-items, as one
// work-item per output element does). The output is the covariance matrix.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

static const char *KernelSource = R"CLC(
__kernel void cov_mean(__global const float *data, __global float *mean, const uint n,
                       const uint m) {
  const uint j = get_global_id(0);
  float sum = 0.0f;
  for (uint i = 0; i < n; ++i)
    sum += data[i * m + j];
  mean[j] = sum / (float)n;
}

__kernel void cov_center(__global const float *data, __global const float *mean,
                         __global float *centered, const uint m) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  centered[i * m + j] = data[i * m + j] - mean[j];
}

__kernel void cov_matrix(__global const float *centered, __global float *cov, const uint n,
                         const uint m) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i < m && j < m) {
    float sum = 0.0f;
    for (uint k = 0; k < n; ++k)
      sum += centered[k * m + i] * centered[k * m + j];
    cov[i * m + j] = sum / (float)(n - 1);
  }
}
)CLC";

// The centred data have both signs, so a covariance may be much smaller than its terms; the error
// is measured against Scale = sum_k |x_ki x_kj| / (N - 1) instead of the value. The float means
// are within N * 2^-24 of exact at worst (positive data), which moves each centred datum by at
// most that much of the mean; the float dot product adds N * 2^-24 of Scale. In practice rounding
// errors of both signs cancel (measured: at most 8e-6 of Scale at the manifest's sizes).
static constexpr double Tolerance = 1e-4;
// The reference recomputes at most this many multiply-adds for the covariances: every element
// when that is enough, else a strided sample (see sampleStride). Means and centred data are
// always recomputed in full (N x M, like one launch of the first two kernels).
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
  app::Options Opts(argc, argv, "[--n OBSERVATIONS] [--m VARIABLES] [--iterations ROUNDS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 512));
  const cl_uint M = static_cast<cl_uint>(Opts.integer("m", 256));
  const long Iterations = Opts.integer("iterations", 1);
  if (N < 2 || M == 0)
    app::fail("--n must be at least 2 and --m positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  // Each variable has its own offset and a pattern that differs from its neighbours', so that
  // the covariances differ and none is identically zero.
  std::vector<float> Data(static_cast<size_t>(N) * M);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < M; ++J)
      Data[I * M + J] = static_cast<float>(J % 13) * 0.125f +
                        static_cast<float>((I * (J % 7 + 1) + J * 3) % 31) / 31.0f;
  // Intermediate and result buffers start as NaN: anything left unwritten shows.
  std::vector<float> Mean(M, std::nanf("")), Centered(Data.size(), std::nanf(""));
  std::vector<float> Cov(static_cast<size_t>(M) * M, std::nanf(""));

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
  cl_mem BufData = createBuffer(CL_MEM_READ_ONLY, Data, "clCreateBuffer(data)");
  cl_mem BufMean = createBuffer(CL_MEM_READ_WRITE, Mean, "clCreateBuffer(mean)");
  cl_mem BufCentered = createBuffer(CL_MEM_READ_WRITE, Centered, "clCreateBuffer(centered)");
  cl_mem BufCov = createBuffer(CL_MEM_WRITE_ONLY, Cov, "clCreateBuffer(cov)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel KernelMean = clCreateKernel(Program, "cov_mean", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cov_mean)");
  cl_kernel KernelCenter = clCreateKernel(Program, "cov_center", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cov_center)");
  cl_kernel KernelMatrix = clCreateKernel(Program, "cov_matrix", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cov_matrix)");
  CL_CHECK(clSetKernelArg(KernelMean, 0, sizeof(cl_mem), &BufData));
  CL_CHECK(clSetKernelArg(KernelMean, 1, sizeof(cl_mem), &BufMean));
  CL_CHECK(clSetKernelArg(KernelMean, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(KernelMean, 3, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(KernelCenter, 0, sizeof(cl_mem), &BufData));
  CL_CHECK(clSetKernelArg(KernelCenter, 1, sizeof(cl_mem), &BufMean));
  CL_CHECK(clSetKernelArg(KernelCenter, 2, sizeof(cl_mem), &BufCentered));
  CL_CHECK(clSetKernelArg(KernelCenter, 3, sizeof(cl_uint), &M));
  CL_CHECK(clSetKernelArg(KernelMatrix, 0, sizeof(cl_mem), &BufCentered));
  CL_CHECK(clSetKernelArg(KernelMatrix, 1, sizeof(cl_mem), &BufCov));
  CL_CHECK(clSetKernelArg(KernelMatrix, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(KernelMatrix, 3, sizeof(cl_uint), &M));

  app::Stopwatch Timer;
  const size_t GlobalMean = M;
  const size_t GlobalCenter[2] = {M, N};
  const size_t LocalMatrix[2] = {16, 16};
  const size_t GlobalMatrix[2] = {roundUp(M, LocalMatrix[0]), roundUp(M, LocalMatrix[1])};
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clEnqueueNDRangeKernel(Queue, KernelMean, 1, nullptr, &GlobalMean, nullptr, 0, nullptr,
                                    nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, KernelCenter, 2, nullptr, GlobalCenter, nullptr, 0,
                                    nullptr, nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, KernelMatrix, 2, nullptr, GlobalMatrix, LocalMatrix, 0,
                                    nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufCov, CL_TRUE, 0, sizeof(float) * Cov.size(), Cov.data(), 0,
                               nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference: means and centred data in full, the sampled covariances; all of
  // the matrix is scanned for the sentinel.
  std::vector<double> RefMean(M, 0.0), RefCentered(Data.size());
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < M; ++J)
      RefMean[J] += Data[I * M + J];
  for (size_t J = 0; J < M; ++J)
    RefMean[J] /= N;
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < M; ++J)
      RefCentered[I * M + J] = Data[I * M + J] - RefMean[J];
  const size_t Stride = sampleStride(Cov.size(), N, M);
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (size_t E = 0; E < Cov.size(); ++E) {
    if (!std::isfinite(Cov[E])) {
      ++Wrong;
      continue;
    }
    if (E % Stride != 0 && E + 1 != Cov.size())
      continue;
    const size_t I = E / M, J = E % M;
    double Sum = 0.0, Scale = 0.0;
    for (size_t K = 0; K < N; ++K) {
      const double Term = RefCentered[K * M + I] * RefCentered[K * M + J];
      Sum += Term;
      Scale += std::fabs(Term);
    }
    const double RelError = std::fabs(Cov[E] - Sum / (N - 1)) / (Scale / (N - 1));
    if (!(RelError <= Tolerance))
      ++Wrong;
    MaxRelError = std::max(MaxRelError, RelError);
    ++Checked;
  }

  app::writeOutput(Opts, Cov);
  clReleaseKernel(KernelMean);
  clReleaseKernel(KernelCenter);
  clReleaseKernel(KernelMatrix);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufData, BufMean, BufCentered, BufCov})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (stride %zu), max error %.3g of the terms' "
                "magnitude (tolerance %.0e)",
                Wrong, Cov.size(), Checked, Stride, MaxRelError, Tolerance);
  return app::report("covariance", Wrong == 0, Choice, Seconds, Detail);
}
