// Gaussian elimination without pivoting of A x = b, in the shape of the Rodinia suite's OpenCL
// gaussian: step t = 0..N-2 is two launches over NDRanges that never change size; the kernels
// receive t and leave idle the work-items outside the trailing part. elim_factors (1D, local
// size 64) computes the multipliers of column t below the pivot into M; elim_update (2D, local
// size 16x16) subtracts each multiple of the pivot row from the rows below it, and of b[t] from
// b. The host reads A and b back once, solves the triangular system by back substitution, and
// writes x.
//
// A is strictly diagonally dominant (off-diagonal entries in [-1, -0.1], each diagonal entry
// twice its row's off-diagonal sum): elimination without pivoting is stable, and every Schur
// complement stays so. b = A * (1, 2, ..., 1, 2): x is compared with a double elimination of the
// same float A and b.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void elim_factors(__global float *m, __global const float *a, const uint n,
                           const uint t) {
  const uint i = get_global_id(0);
  if (i + t + 1 < n)
    m[(i + t + 1) * n + t] = a[(i + t + 1) * n + t] / a[t * n + t];
}

__kernel void elim_update(__global const float *m, __global float *a, __global float *b,
                          const uint n, const uint t) {
  const uint x = get_global_id(0);
  const uint y = get_global_id(1);
  if (x + t + 1 >= n || y + t >= n)
    return;
  const uint row = x + t + 1;
  a[row * n + y + t] -= m[row * n + t] * a[t * n + y + t];
  if (y == 0)
    b[row] -= m[row * n + t] * b[t];
}
)CLC";

// x's entries are near 1 and 2 and A's condition number is small (dominance by a factor of 2):
// float elimination stays within N * 2^-24 of the double one at worst (measured: about 1e-6 at
// the manifest's sizes).
static constexpr double Tolerance = 1e-4;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 512));
  if (N < 2)
    app::fail("--n must be at least 2");

  const size_t Cells = static_cast<size_t>(N) * N;
  std::vector<float> A(Cells), B(N);
  for (size_t I = 0; I < N; ++I) {
    double OffDiagonal = 0.0;
    for (size_t J = 0; J < N; ++J) {
      if (I == J)
        continue;
      const float Value = -(0.1f + 0.9f * static_cast<float>((I * 11 + J * 5 + I * J) % 89) / 88);
      A[I * N + J] = Value;
      OffDiagonal -= Value;
    }
    A[I * N + I] = static_cast<float>(2.0 * OffDiagonal);
  }
  for (size_t I = 0; I < N; ++I) {
    double Sum = 0.0;
    for (size_t J = 0; J < N; ++J)
      Sum += A[I * N + J] * static_cast<double>(1 + J % 2);
    B[I] = static_cast<float>(Sum);
  }

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(float) * Cells;
  cl_mem BufA = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, A.data(),
                               &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               sizeof(float) * N, B.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  // M starts as zeros, as the public app's does.
  std::vector<float> Zeros(Cells, 0.0f);
  cl_mem BufM = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes,
                               Zeros.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(m)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Factors = clCreateKernel(Program, "elim_factors", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(elim_factors)");
  cl_kernel Update = clCreateKernel(Program, "elim_update", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(elim_update)");
  CL_CHECK(clSetKernelArg(Factors, 0, sizeof(cl_mem), &BufM));
  CL_CHECK(clSetKernelArg(Factors, 1, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Factors, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Update, 0, sizeof(cl_mem), &BufM));
  CL_CHECK(clSetKernelArg(Update, 1, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Update, 2, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Update, 3, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t FactorsLocal = 64;
  const size_t FactorsGlobal = roundUp(N, FactorsLocal);
  const size_t UpdateLocal[2] = {16, 16};
  const size_t UpdateGlobal[2] = {roundUp(N, UpdateLocal[0]), roundUp(N, UpdateLocal[1])};
  for (cl_uint T = 0; T + 1 < N; ++T) {
    CL_CHECK(clSetKernelArg(Factors, 3, sizeof(cl_uint), &T));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Factors, 1, nullptr, &FactorsGlobal, &FactorsLocal, 0,
                                    nullptr, nullptr));
    CL_CHECK(clSetKernelArg(Update, 4, sizeof(cl_uint), &T));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Update, 2, nullptr, UpdateGlobal, UpdateLocal, 0,
                                    nullptr, nullptr));
  }
  std::vector<float> U(Cells, std::nanf("")), C(N, std::nanf(""));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufA, CL_TRUE, 0, Bytes, U.data(), 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufB, CL_TRUE, 0, sizeof(float) * N, C.data(), 0, nullptr,
                               nullptr));
  const double Seconds = Timer.seconds();

  // Back substitution on the host, in float, from what the device left.
  std::vector<float> X(N);
  for (size_t I = N; I-- > 0;) {
    float Sum = C[I];
    for (size_t J = I + 1; J < N; ++J)
      Sum -= U[I * N + J] * X[J];
    X[I] = Sum / U[I * N + I];
  }
  // The same elimination and substitution in double, from the same float A and b.
  std::vector<double> RefA(A.begin(), A.end()), RefB(B.begin(), B.end()), RefX(N);
  for (size_t T = 0; T + 1 < N; ++T)
    for (size_t I = T + 1; I < N; ++I) {
      const double Factor = RefA[I * N + T] / RefA[T * N + T];
      for (size_t J = T; J < N; ++J)
        RefA[I * N + J] -= Factor * RefA[T * N + J];
      RefB[I] -= Factor * RefB[T];
    }
  for (size_t I = N; I-- > 0;) {
    double Sum = RefB[I];
    for (size_t J = I + 1; J < N; ++J)
      Sum -= RefA[I * N + J] * RefX[J];
    RefX[I] = Sum / RefA[I * N + I];
  }
  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t I = 0; I < N; ++I) {
    const double RelError = std::fabs(X[I] - RefX[I]) / std::fabs(RefX[I]);
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, X);
  clReleaseKernel(Factors);
  clReleaseKernel(Update);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseMemObject(BufM);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %u, %u steps, against a double elimination, max rel error %.3g "
                "(tolerance %.0e)",
                Wrong, N, N - 1, MaxRelError, Tolerance);
  return app::report("gaussian", Wrong == 0, Choice, Seconds, Detail);
}
