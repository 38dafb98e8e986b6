// LU factorization without pivoting (PolyBench's lu, right-looking form), in place, of an N x N
// row-major float matrix. Step k = 0..N-2 is two launches, each reading what the previous one
// wrote: lu_scale (1D, local size 64) divides the column below the pivot by the pivot, making
// it L's column k; lu_update (2D, local size 16x16) subtracts the outer product of that column
// and U's row k from the trailing (N-k-1) x (N-k-1) block. The NDRanges shrink every step: their
// global sizes are the trailing size rounded up to the local size, and the kernels receive k and
// N and leave the padding idle. The output is the factored matrix: U on and above the diagonal,
// L (unit diagonal, not stored) below it.
//
// The matrix is a strictly diagonally dominant M-matrix: off-diagonal entries in [-1, -0.1],
// each diagonal entry twice its row's off-diagonal sum. Without pivoting every Schur complement
// stays such a matrix, so L and U keep the signs of A (negative off the diagonal) and every
// update a[i][j] -= a[i][k] * a[k][j] moves an off-diagonal entry away from zero: no
// cancellation there, and each diagonal entry stays above half its start (the dominance margin).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void lu_scale(__global float *a, const uint k, const uint n) {
  const uint i = k + 1 + get_global_id(0);
  if (i < n)
    a[i * n + k] /= a[k * n + k];
}

__kernel void lu_update(__global float *a, const uint k, const uint n) {
  const uint j = k + 1 + get_global_id(0);
  const uint i = k + 1 + get_global_id(1);
  if (i < n && j < n)
    a[i * n + j] -= a[i * n + k] * a[k * n + j];
}
)CLC";

// Every entry of L and U keeps one sign from start to end (see above), so its relative error is
// meaningful: an entry of U is the sum of at most N terms of one sign, within N * 2^-24 of exact
// at worst and near sqrt(N) * 2^-24 in practice; the diagonal loses at most half its value, which
// at most doubles that, and L's entries add one division. The double reference LU starts from
// the same float matrix, and sampled products L * U are checked the same way (measured: at most
// 3e-6 at the manifest's sizes).
static constexpr double Tolerance = 1e-4;
// A full double LU costs N^3 / 3 multiply-adds: done when that is at most ReferenceBudget, else
// the check samples rows and columns of L * U and compares them with A (see below).
constexpr double ReferenceBudget = 1 << 28;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 512));
  if (N < 2)
    app::fail("--n must be at least 2");

  const size_t Cells = static_cast<size_t>(N) * N;
  std::vector<float> A(Cells);
  for (size_t I = 0; I < N; ++I) {
    double OffDiagonal = 0.0;
    for (size_t J = 0; J < N; ++J) {
      if (I == J)
        continue;
      const float Value = -(0.1f + 0.9f * static_cast<float>((I * 13 + J * 7 + I * J) % 97) / 96);
      A[I * N + J] = Value;
      OffDiagonal -= Value;
    }
    A[I * N + I] = static_cast<float>(2.0 * OffDiagonal);
  }
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> Result(Cells, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(float) * Cells;
  cl_mem BufA = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufA, CL_TRUE, 0, Bytes, A.data(), 0, nullptr, nullptr));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Scale = clCreateKernel(Program, "lu_scale", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(lu_scale)");
  cl_kernel Update = clCreateKernel(Program, "lu_update", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(lu_update)");
  CL_CHECK(clSetKernelArg(Scale, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Scale, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Update, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Update, 2, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t ScaleLocal = 64;
  const size_t UpdateLocal[2] = {16, 16};
  for (cl_uint K = 0; K + 1 < N; ++K) {
    const size_t Trailing = N - K - 1;
    const size_t ScaleGlobal = roundUp(Trailing, ScaleLocal);
    const size_t UpdateGlobal[2] = {roundUp(Trailing, UpdateLocal[0]),
                                    roundUp(Trailing, UpdateLocal[1])};
    CL_CHECK(clSetKernelArg(Scale, 1, sizeof(cl_uint), &K));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Scale, 1, nullptr, &ScaleGlobal, &ScaleLocal, 0, nullptr,
                                    nullptr));
    CL_CHECK(clSetKernelArg(Update, 1, sizeof(cl_uint), &K));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Update, 2, nullptr, UpdateGlobal, UpdateLocal, 0,
                                    nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufA, CL_TRUE, 0, Bytes, Result.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (float Value : Result)
    if (!std::isfinite(Value))
      ++Wrong;
  auto record = [&](double Got, double Want, double Scale) {
    const double RelError = std::fabs(Got - Want) / Scale;
    if (!(RelError <= Tolerance) && std::isfinite(Got))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
    ++Checked;
  };
  const double Cost = static_cast<double>(N) * N * N / 3;
  const bool Full = Cost <= ReferenceBudget;
  size_t Samples = N;
  if (Full) {
    // The same factorization in double, from the same float matrix; every entry compared.
    std::vector<double> Ref(A.begin(), A.end());
    for (size_t K = 0; K + 1 < N; ++K) {
      const double Pivot = Ref[K * N + K];
      for (size_t I = K + 1; I < N; ++I) {
        const double L = Ref[I * N + K] /= Pivot;
        for (size_t J = K + 1; J < N; ++J)
          Ref[I * N + J] -= L * Ref[K * N + J];
      }
    }
    for (size_t E = 0; E < Cells; ++E)
      record(Result[E], Ref[E], std::fabs(Ref[E]));
  } else {
    // Too large for a full reference: rows and columns of L * U, from the device's factors, in
    // double, against A. Entry (i, j) of L * U is sum_k L[i][k] U[k][j] over k <= min(i, j); its
    // error is measured against sum_k |L[i][k] U[k][j]|, the scale of the factorization's
    // rounding errors in that entry (its backward error bound). A sampled row and the column of
    // the same index cost at most N^2 multiply-adds; the samples are spread from the first row
    // and column to the last.
    Samples =
        std::max<size_t>(2, static_cast<size_t>(ReferenceBudget / static_cast<double>(Cells)));
    auto product = [&](size_t I, size_t J) {
      double Sum = 0.0, Scale = 0.0;
      for (size_t K = 0; K <= std::min(I, J); ++K) {
        const double Term =
            (K == I ? 1.0 : static_cast<double>(Result[I * N + K])) * Result[K * N + J];
        Sum += Term;
        Scale += std::fabs(Term);
      }
      record(Sum, A[I * N + J], Scale);
    };
    for (size_t S = 0; S < Samples; ++S) {
      const size_t Line = S * (N - 1) / (Samples - 1);
      for (size_t Other = 0; Other < N; ++Other) {
        product(Line, Other);
        product(Other, Line);
      }
    }
  }

  app::writeOutput(Opts, Result);
  clReleaseKernel(Scale);
  clReleaseKernel(Update);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  if (Full)
    std::snprintf(Detail, sizeof(Detail),
                  "%zu wrong of %zu, %u steps, against a double LU, max rel error %.3g "
                  "(tolerance %.0e)",
                  Wrong, Cells, N - 1, MaxRelError, Tolerance);
  else
    std::snprintf(Detail, sizeof(Detail),
                  "%zu wrong of %zu, %u steps, %zu entries of L*U checked (%zu rows and columns), "
                  "max rel error %.3g (tolerance %.0e)",
                  Wrong, Cells, N - 1, Checked, Samples, MaxRelError, Tolerance);
  return app::report("lu", Wrong == 0, Choice, Seconds, Detail);
}
