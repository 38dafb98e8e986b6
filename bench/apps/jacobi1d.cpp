// PolyBench's jacobi-1d (named jacobi1d here: app names are identifiers), written from its
// definition: T steps of the 3-point average B[i] = (A[i-1] + A[i] + A[i+1]) / 3 over the
// interior of an N-point float line, each followed, as in PolyBench, by a second kernel that
// copies the interior of B back into A. So every step is two 1D launches (NULL local size), and
// each reads what the previous one wrote: the stencil reads its neighbours across any split of
// the line, the copy writes the A the next stencil reads. The end points stay fixed.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void jacobi1d_stencil(__global const float *a, __global float *b, const uint n) {
  const uint i = get_global_id(0);
  if (i > 0 && i + 1 < n)
    b[i] = 0.33333f * (a[i - 1] + a[i] + a[i + 1]);
}

__kernel void jacobi1d_copy(__global const float *b, __global float *a, const uint n) {
  const uint i = get_global_id(0);
  if (i > 0 && i + 1 < n)
    a[i] = b[i];
}
)CLC";

// The kernel's weight as the device rounds it (PolyBench's 0.33333, slightly below 1/3).
static const float Third = 0.33333f;
// Every point starts in [1, 2] and the update is a weighted average (the weights add up to just
// below 1, so the interior decays slowly towards the fixed end points), so values stay away from
// zero and a relative error is meaningful. A double reference differs from the device by a few ulp
// per step, which the averaging does not amplify but which add up over the steps: at worst about
// Steps * 2^-22, in practice far less (measured: 4e-6 after 2500 steps).
static constexpr double Tolerance = 1e-4;
// The reference recomputes at most this many point-steps: the whole line when that is enough,
// else windows of WindowPoints points from their dependency cones (see referenceWindow).
constexpr double ReferenceBudget = 1 << 26;
constexpr size_t WindowPoints = 256;

// Points [First, First + Width) after Steps steps, in double, from the initial line: point i
// after Steps steps depends only on points i - Steps .. i + Steps at the start, so each step
// computes a range one point narrower on each side than the last, except where it reaches an
// end point (fixed, so known at every step).
static std::vector<double> referenceWindow(const std::vector<float> &Line, size_t Steps,
                                           size_t First, size_t Width) {
  const size_t N = Line.size();
  size_t Lo = First > Steps ? First - Steps : 0;
  size_t Hi = std::min(N - 1, First + Width - 1 + Steps);
  std::vector<double> Cur(Line.begin() + Lo, Line.begin() + Hi + 1), Next(Cur);
  const size_t Base = Lo;
  for (size_t Step = 0; Step < Steps; ++Step) {
    const size_t NewLo = Lo == 0 ? 0 : Lo + 1;
    const size_t NewHi = Hi == N - 1 ? N - 1 : Hi - 1;
    for (size_t I = NewLo; I <= NewHi; ++I) {
      const size_t K = I - Base;
      Next[K] = I == 0 || I == N - 1
                    ? Cur[K]
                    : static_cast<double>(Third) * (Cur[K - 1] + Cur[K] + Cur[K + 1]);
    }
    std::swap(Cur, Next);
    Lo = NewLo;
    Hi = NewHi;
  }
  return std::vector<double>(Cur.begin() + (First - Base), Cur.begin() + (First - Base + Width));
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n POINTS] [--iterations STEPS] [--sync end|each]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 1 << 20));
  const long Iterations = Opts.integer("iterations", 10);
  if (N < 3)
    app::fail("--n must be at least 3");
  // each: PolyBench-ACC's host code, which sets every argument before each launch and waits for
  // the queue after it (thousands of launches each followed by clFinish).
  const std::string Sync = Opts.text("sync", "end");
  if (Sync != "end" && Sync != "each")
    app::fail("--sync must be end or each");
  const bool SyncEach = Sync == "each";

  std::vector<float> Line(N);
  for (size_t I = 0; I < N; ++I)
    Line[I] = 1.0f + static_cast<float>((I * 7) % 64) / 63.0f;
  Line[0] = 2.0f;
  Line[N - 1] = 1.5f;
  // B starts as the initial line (PolyBench initialises both arrays), so its never-written end
  // points hold valid values; A's host copy starts as NaN until the read.
  std::vector<float> Result(N, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(float) * N;
  cl_mem BufA =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Line.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(a)");
  cl_mem BufB =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Line.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(b)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Stencil = clCreateKernel(Program, "jacobi1d_stencil", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(jacobi1d_stencil)");
  cl_kernel Copy = clCreateKernel(Program, "jacobi1d_copy", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(jacobi1d_copy)");
  CL_CHECK(clSetKernelArg(Stencil, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Stencil, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Stencil, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Copy, 0, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(Copy, 1, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Copy, 2, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t Global = N;
  const auto launch = [&](cl_kernel Kernel, cl_mem From, cl_mem To) {
    if (SyncEach) {
      CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &From));
      CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &To));
      CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_uint), &N));
    }
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    if (SyncEach)
      CL_CHECK(clFinish(Queue));
  };
  for (long It = 0; It < Iterations; ++It) {
    launch(Stencil, BufA, BufB);
    launch(Copy, BufB, BufA);
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufA, CL_TRUE, 0, Bytes, Result.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference: the whole line when that costs at most ReferenceBudget
  // point-steps, else windows of WindowPoints points spread over the line (the first and the last
  // included); all of the line is scanned for the sentinel.
  const size_t Steps = static_cast<size_t>(Iterations);
  const double WindowCost = static_cast<double>(WindowPoints + Steps) * static_cast<double>(Steps);
  size_t Windows = 1, Width = N;
  if (static_cast<double>(N) * static_cast<double>(Steps) > ReferenceBudget) {
    Width = std::min<size_t>(WindowPoints, N);
    Windows = std::max<size_t>(2, static_cast<size_t>(ReferenceBudget / WindowCost));
    Windows = std::min(Windows, N / Width);
  }
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (float Value : Result)
    if (!std::isfinite(Value))
      ++Wrong;
  for (size_t W = 0; W < Windows; ++W) {
    const size_t First = Windows == 1 ? 0 : W * (N - Width) / (Windows - 1);
    const std::vector<double> Want = referenceWindow(Line, Steps, First, Width);
    for (size_t I = 0; I < Width; ++I) {
      const double Got = Result[First + I];
      const double RelError = std::fabs(Got - Want[I]) / Want[I];
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
                "%zu wrong of %u, %zu checked (%zu windows), max rel error %.3g (tolerance %.0e)",
                Wrong, N, Checked, Windows, MaxRelError, Tolerance);
  return app::report("jacobi1d", Wrong == 0, Choice, Seconds, Detail);
}
