// CSR sparse matrix-vector product y = A x, one work-item per row (the "scalar CSR" kernel).
// Rows get denser with the row index (row i holds about 1 + i * K / rows nonzeros), so equal
// slices of the index space carry very different amounts of work; columns are pseudo-random, so
// x is read through the col_idx indirection. The big read-only arrays (col_idx, values) are
// wrapped with CL_MEM_USE_HOST_PTR, row_ptr and x are copied with CL_MEM_COPY_HOST_PTR, and the
// launch leaves local_work_size NULL.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
__kernel void spmv_csr(const uint rows, __global const uint *row_ptr,
                       __global const uint *col_idx, __global const float *values,
                       __global const float *x, __global float *y) {
  const uint row = get_global_id(0);
  if (row >= rows)
    return;
  float sum = 0.0f;
  const uint end = row_ptr[row + 1];
  for (uint k = row_ptr[row]; k < end; ++k)
    sum += values[k] * x[col_idx[k]];
  y[row] = sum;
}
)CLC";

// All terms are positive, so recursive summation of up to MaxNnzLimit products has a relative
// error of at most about MaxNnzLimit * 2^-24 = 6e-5; a device that contracts the multiply-add
// into an FMA only makes each step more exact. 1e-4 leaves margin for both.
constexpr double Tolerance = 1e-4;
constexpr long MaxNnzLimit = 1024;

// Fixed-seed 64-bit LCG (Knuth's MMIX constants), so every run builds the same matrix.
static cl_uint nextRandom(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<cl_uint>(State >> 33);
}

// Uniform in [Low, Low + 1) with 24 random bits, exactly representable as a float.
static float randomFloat(uint64_t &State, float Low) {
  return Low + static_cast<float>(nextRandom(State) & 0xFFFFFF) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--rows ROWS] [--max-nnz-per-row K] [--iterations LAUNCHES]");
  const long RowsArg = Opts.integer("rows", 100000);
  const long MaxNnz = Opts.integer("max-nnz-per-row", 64);
  const long Iterations = Opts.integer("iterations", 1);
  if (RowsArg == 0 || RowsArg >= (1L << 30))
    app::fail("--rows must be between 1 and 2^30 - 1");
  if (MaxNnz == 0 || MaxNnz > MaxNnzLimit)
    app::fail("--max-nnz-per-row must be between 1 and 1024");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  const cl_uint Rows = static_cast<cl_uint>(RowsArg);

  std::vector<cl_uint> RowPtr(Rows + 1);
  RowPtr[0] = 0;
  for (cl_uint Row = 0; Row < Rows; ++Row) {
    const uint64_t Nnz = 1 + static_cast<uint64_t>(Row) * static_cast<uint64_t>(MaxNnz - 1) / Rows;
    if (RowPtr[Row] + Nnz > UINT32_MAX)
      app::fail("too many nonzeros for 32-bit indices");
    RowPtr[Row + 1] = RowPtr[Row] + static_cast<cl_uint>(Nnz);
  }
  const cl_uint TotalNnz = RowPtr[Rows];

  uint64_t Seed = 77001;
  std::vector<cl_uint> ColIdx(TotalNnz);
  std::vector<float> Values(TotalNnz);
  for (cl_uint Row = 0; Row < Rows; ++Row) {
    for (cl_uint K = RowPtr[Row]; K < RowPtr[Row + 1]; ++K) {
      ColIdx[K] = nextRandom(Seed) % Rows;
      Values[K] = randomFloat(Seed, 0.25f);
    }
    // Sorted columns within a row, as CSR matrices usually come (duplicates are harmless).
    std::sort(ColIdx.begin() + RowPtr[Row], ColIdx.begin() + RowPtr[Row + 1]);
  }
  std::vector<float> X(Rows);
  for (float &V : X)
    V = randomFloat(Seed, 0.5f);
  std::vector<float> Y(Rows, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  cl_mem BufRowPtr = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                    sizeof(cl_uint) * RowPtr.size(), RowPtr.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(row_ptr)");
  cl_mem BufColIdx = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                                    sizeof(cl_uint) * ColIdx.size(), ColIdx.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(col_idx)");
  cl_mem BufValues = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                                    sizeof(float) * Values.size(), Values.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(values)");
  cl_mem BufX = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               sizeof(float) * X.size(), X.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(x)");
  cl_mem BufY = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, sizeof(float) * Rows, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(y)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "spmv_csr", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_uint), &Rows));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufRowPtr));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufColIdx));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_mem), &BufValues));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_mem), &BufX));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(cl_mem), &BufY));

  app::Stopwatch Timer;
  const size_t Global = Rows;
  for (long It = 0; It < Iterations; ++It)
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufY, CL_TRUE, 0, sizeof(float) * Rows, Y.data(), 0, nullptr,
                               nullptr));
  const double Seconds = Timer.seconds();

  // Every reference row is a sum of positive terms, so a plain relative error is meaningful.
  double MaxRelError = 0.0;
  size_t Wrong = 0;
  for (cl_uint Row = 0; Row < Rows; ++Row) {
    float Sum = 0.0f;
    for (cl_uint K = RowPtr[Row]; K < RowPtr[Row + 1]; ++K)
      Sum += Values[K] * X[ColIdx[K]];
    const double RelError = std::fabs(static_cast<double>(Y[Row]) - Sum) / Sum;
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isnan(RelError) || RelError > MaxRelError)
      MaxRelError = RelError;
  }

  app::writeOutput(Opts, Y);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufRowPtr);
  clReleaseMemObject(BufColIdx);
  clReleaseMemObject(BufValues);
  clReleaseMemObject(BufX);
  clReleaseMemObject(BufY);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %u rows (%u nonzeros), max rel error %.3g",
                Wrong, Rows, TotalNnz, MaxRelError);
  return app::report("spmv", Wrong == 0, Choice, Seconds, Detail);
}
