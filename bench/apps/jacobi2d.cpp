// PolyBench's jacobi-2d (named jacobi2d here: app names are identifiers), written from its
// definition: T steps of the 5-point average B[i][j] = (A[i][j] + A[i][j-1] + A[i][j+1] +
// A[i-1][j] + A[i+1][j]) / 5 over the interior of an N x N row-major float grid, each followed,
// as in PolyBench, by a second kernel that copies the interior of B back into A. So every step is
// two 2D launches (explicit 32x8 local size over a padded global size, the shape of the
// PolyBench/GPU ports), and each reads what the previous one wrote: the stencil reads the rows
// and columns next to any split of the grid, the copy writes the A the next stencil reads. The
// boundary stays fixed.
#include "common/app_common.hpp"
#include "common/row_pool.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

static const char *KernelSource = R"CLC(
__kernel void jacobi2d_stencil(__global const float *a, __global float *b, const uint n) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i > 0 && j > 0 && i + 1 < n && j + 1 < n)
    b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] +
                           a[(i - 1) * n + j] + a[(i + 1) * n + j]);
}

__kernel void jacobi2d_copy(__global const float *b, __global float *a, const uint n) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i > 0 && j > 0 && i + 1 < n && j + 1 < n)
    a[i * n + j] = b[i * n + j];
}
)CLC";

// The kernel's weight as the device rounds it.
static const float Fifth = 0.2f;
// Every cell lies in [1, 3] and the update is an average, so values stay away from zero and a
// relative error is meaningful. A double reference differs from the device by a few ulp per
// step, which the averaging does not amplify but which add up over the steps (measured on an
// H100: 1e-6 after 100 steps, 1.2e-5 after 2000): the tolerance grows with the steps.
static double toleranceFor(std::size_t Steps) { return 1e-5 + 1e-8 * static_cast<double>(Steps); }
// The reference recomputes at most this many cell-steps: the whole grid when that is enough,
// else square windows of WindowSide x WindowSide cells from their dependency cones (see
// referenceWindow).
constexpr double ReferenceBudget = 1 << 26;
constexpr size_t WindowSide = 32;

// The Side x Side cells from (Row, Column) after Steps steps, in double, from the initial N x N
// grid: a cell after Steps steps depends only on the cells within Steps rows and columns of it at
// the start, so each step computes a square one cell smaller on each side than the last, except
// where it reaches the boundary (fixed, so known at every step).
static std::vector<double> referenceWindow(const std::vector<float> &Grid, size_t N, size_t Steps,
                                           size_t Row, size_t Column, size_t Side,
                                           app::RowPool &Pool) {
  size_t Top = Row > Steps ? Row - Steps : 0, Left = Column > Steps ? Column - Steps : 0;
  size_t Bottom = std::min(N - 1, Row + Side - 1 + Steps);
  size_t Right = std::min(N - 1, Column + Side - 1 + Steps);
  const size_t Base0 = Top, Base1 = Left, Width = Right - Left + 1;
  std::vector<double> Cur((Bottom - Top + 1) * Width), Next;
  for (size_t I = Top; I <= Bottom; ++I)
    for (size_t J = Left; J <= Right; ++J)
      Cur[(I - Base0) * Width + J - Base1] = Grid[I * N + J];
  Next = Cur;
  auto shrinkLow = [](size_t Low) { return Low == 0 ? Low : Low + 1; };
  auto shrinkHigh = [N](size_t High) { return High == N - 1 ? High : High - 1; };
  for (size_t Step = 0; Step < Steps; ++Step) {
    Top = shrinkLow(Top);
    Left = shrinkLow(Left);
    Bottom = shrinkHigh(Bottom);
    Right = shrinkHigh(Right);
    Pool.rows(Top, Bottom + 1, [&](size_t I) {
      for (size_t J = Left; J <= Right; ++J) {
        const size_t K = (I - Base0) * Width + J - Base1;
        Next[K] = I == 0 || J == 0 || I == N - 1 || J == N - 1
                      ? Cur[K]
                      : static_cast<double>(Fifth) *
                            (Cur[K] + Cur[K - 1] + Cur[K + 1] + Cur[K - Width] + Cur[K + Width]);
      }
    });
    std::swap(Cur, Next);
  }
  std::vector<double> Window(Side * Side);
  for (size_t I = 0; I < Side; ++I)
    for (size_t J = 0; J < Side; ++J)
      Window[I * Side + J] = Cur[(Row + I - Base0) * Width + Column + J - Base1];
  return Window;
}

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER] [--iterations STEPS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 1024));
  const long Iterations = Opts.integer("iterations", 10);
  if (N < 3)
    app::fail("--n must be at least 3");

  // A hot top edge, a warm left edge and a bumpy interior, so that every step changes the grid.
  const size_t Cells = static_cast<size_t>(N) * N;
  std::vector<float> Grid(Cells);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J) {
      float Value = 1.0f + static_cast<float>((I * 13 + J * 7) % 64) / 63.0f;
      if (I == 0)
        Value = 3.0f;
      else if (J == 0)
        Value = 2.5f;
      Grid[I * N + J] = Value;
    }
  // B starts as the initial grid (PolyBench initialises both arrays), so its never-written
  // boundary holds valid values; A's host copy starts as NaN until the read.
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
  cl_mem BufB = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufA, CL_FALSE, 0, Bytes, Grid.data(), 0, nullptr, nullptr));
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufB, CL_FALSE, 0, Bytes, Grid.data(), 0, nullptr, nullptr));
  CL_CHECK(clFinish(Queue));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Stencil = clCreateKernel(Program, "jacobi2d_stencil", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(jacobi2d_stencil)");
  cl_kernel Copy = clCreateKernel(Program, "jacobi2d_copy", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(jacobi2d_copy)");
  CL_CHECK(clSetKernelArg(Stencil, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Stencil, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Stencil, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Copy, 0, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Copy, 1, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Copy, 2, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t Local[2] = {32, 8};
  const size_t Global[2] = {roundUp(N, Local[0]), roundUp(N, Local[1])};
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Stencil, 2, nullptr, Global, Local, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Copy, 2, nullptr, Global, Local, 0, nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufA, CL_TRUE, 0, Bytes, Result.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference: the whole grid when that costs at most ReferenceBudget
  // cell-steps, else square windows of WindowSide cells spread over the grid (their rows from the
  // top to the bottom edge, their columns a permutation of the same positions, so that the sample
  // meets every edge); all of the grid is scanned for the sentinel.
  const size_t Steps = static_cast<size_t>(Iterations);
  size_t Windows = 1, Side = N;
  if (static_cast<double>(Cells) * static_cast<double>(Steps) > ReferenceBudget) {
    Side = std::min<size_t>(WindowSide, N);
    // A window's dependency cone: Steps layers, each a square up to Side + 2 * Steps wide.
    const double Widest = static_cast<double>(std::min<size_t>(N, Side + 2 * Steps));
    const double WindowCost = Widest * Widest * static_cast<double>(Steps);
    Windows = std::max<size_t>(2, static_cast<size_t>(ReferenceBudget / WindowCost));
    Windows = std::min(Windows, N / Side);
  }
  const double Tolerance = toleranceFor(Steps);
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (float Value : Result)
    if (!std::isfinite(Value))
      ++Wrong;
  // Column positions: window W takes position (W * Stride) mod Windows, a permutation when Stride
  // and Windows are coprime.
  size_t Stride = Windows / 2 + 1;
  while (std::gcd(Stride, Windows) != 1)
    ++Stride;
  app::RowPool Pool;
  for (size_t W = 0; W < Windows; ++W) {
    auto position = [&](size_t K) { return Windows == 1 ? 0 : K * (N - Side) / (Windows - 1); };
    const size_t Row = position(W), Column = position(W * Stride % Windows);
    const std::vector<double> Want = referenceWindow(Grid, N, Steps, Row, Column, Side, Pool);
    for (size_t I = 0; I < Side; ++I)
      for (size_t J = 0; J < Side; ++J) {
        const double Got = Result[(Row + I) * N + Column + J];
        const double RelError = std::fabs(Got - Want[I * Side + J]) / Want[I * Side + J];
        if (!(RelError <= Tolerance) && std::isfinite(Got))
          ++Wrong;
        if (std::isfinite(RelError))
          MaxRelError = std::max(MaxRelError, RelError);
        ++Checked;
      }
  }

  app::writeOutput(Opts, Result);
  clReleaseKernel(Stencil);
  clReleaseKernel(Copy);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (%zu windows), max rel error %.3g (tolerance %.2g)",
                Wrong, Cells, Checked, Windows, MaxRelError, Tolerance);
  return app::report("jacobi2d", Wrong == 0, Choice, Seconds, Detail);
}
