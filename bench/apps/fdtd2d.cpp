// PolyBench's fdtd-2d (named fdtd2d here: app names are identifiers), written from its
// definition: T steps of a 2D finite-difference time-domain (Yee) scheme over NX x NY row-major
// float fields ex, ey and hz, with a source vector fict of T values. Each step is three 2D
// launches (explicit 32x8 local size over a padded global size, bounds checks in the kernels),
// each reading what the previous one wrote: fdtd_ey sets row 0 of ey to fict[t] (t is a scalar
// argument that changes every step) and updates the other rows from the difference of hz with
// the row above; fdtd_ex updates ex (all but column 0) from the difference of hz with the column
// to the left; fdtd_hz updates hz (all but the last row and column) from the new ex and ey to
// its right and below. So the first two read hz across any split of the grid and the third reads
// ex and ey across it. The output is ex, ey, then hz (NX x NY floats each).
#include "common/app_common.hpp"
#include "common/row_pool.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

static const char *KernelSource = R"CLC(
__kernel void fdtd_ey(__global float *ey, __global const float *hz, __global const float *fict,
                      const uint t, const uint nx, const uint ny) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i >= nx || j >= ny)
    return;
  if (i == 0)
    ey[j] = fict[t];
  else
    ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

__kernel void fdtd_ex(__global float *ex, __global const float *hz, const uint nx,
                      const uint ny) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i < nx && j > 0 && j < ny)
    ex[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

__kernel void fdtd_hz(__global const float *ex, __global const float *ey, __global float *hz,
                      const uint nx, const uint ny) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  if (i + 1 < nx && j + 1 < ny)
    hz[i * ny + j] -= 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] -
                              ey[i * ny + j]);
}
)CLC";

// The kernels' coefficients as the device rounds them.
static const float Half = 0.5f, Coupling = 0.7f;
// The fields oscillate and cross zero, so the error of each value is measured against the
// largest magnitude of the output (normwise), not against the value. The scheme is stable (its
// Courant number, sqrt(0.5 * 0.7) = 0.59, is below the 2D limit 1 / sqrt(2)) and neither damps
// nor amplifies; the fields' largest magnitude grows about linearly with the steps (the edges
// that are never updated keep driving them, as in PolyBench), not exponentially. Each step adds a
// few ulp of that magnitude, and the errors add up over the steps (measured: at most 7e-7 at the
// manifest's sizes, 2e-5 after 2000 steps).
static constexpr double Tolerance = 1e-4;
// The reference computes at most about this many cell-steps: the whole grid when that is
// enough, else windows of WindowSide x WindowSide cells, each from the rectangle that holds its
// dependency cone (see referenceRegion).
constexpr double ReferenceBudget = 1 << 26;
constexpr size_t WindowSide = 32;

struct Fields {
  std::vector<double> Ex, Ey, Hz;
};

// The rectangle of rows Top..Bottom and columns Left..Right after Steps steps, in double, from
// the initial fields. Every value depends only on values within one row and one column of it in
// the step before, so a cell that is at least Steps rows and columns away from every side of the
// rectangle that is not an edge of the grid comes out exact, whatever happens at those sides
// (there, an update that needs a value outside the rectangle is skipped). The grid's own edges
// follow the kernels.
static Fields referenceRegion(const std::vector<float> &Ex, const std::vector<float> &Ey,
                              const std::vector<float> &Hz, const std::vector<float> &Fict,
                              size_t NX, size_t NY, size_t Steps, size_t Top, size_t Bottom,
                              size_t Left, size_t Right, app::RowPool &Pool) {
  const size_t Width = Right - Left + 1, Height = Bottom - Top + 1;
  Fields F;
  for (std::vector<double> *Field : {&F.Ex, &F.Ey, &F.Hz})
    Field->resize(Width * Height);
  for (size_t I = Top; I <= Bottom; ++I)
    for (size_t J = Left; J <= Right; ++J) {
      const size_t K = (I - Top) * Width + J - Left;
      F.Ex[K] = Ex[I * NY + J];
      F.Ey[K] = Ey[I * NY + J];
      F.Hz[K] = Hz[I * NY + J];
    }
  const double H = Half, C = Coupling;
  for (size_t T = 0; T < Steps; ++T) {
    Pool.rows(Top, Bottom + 1, [&](size_t I) {
      for (size_t J = Left; J <= Right; ++J) {
        const size_t K = (I - Top) * Width + J - Left;
        if (I == 0)
          F.Ey[K] = Fict[T];
        else if (I > Top)
          F.Ey[K] -= H * (F.Hz[K] - F.Hz[K - Width]);
        if (J > 0 && J > Left)
          F.Ex[K] -= H * (F.Hz[K] - F.Hz[K - 1]);
      }
    });
    Pool.rows(Top, Bottom + 1, [&](size_t I) {
      for (size_t J = Left; J <= Right; ++J) {
        const size_t K = (I - Top) * Width + J - Left;
        if (I + 1 < NX && J + 1 < NY && I < Bottom && J < Right)
          F.Hz[K] -= C * (F.Ex[K + 1] - F.Ex[K] + F.Ey[K + Width] - F.Ey[K]);
      }
    });
  }
  return F;
}

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--nx ROWS] [--ny COLUMNS] [--steps STEPS]");
  const cl_uint NX = static_cast<cl_uint>(Opts.integer("nx", 1000));
  const cl_uint NY = static_cast<cl_uint>(Opts.integer("ny", 1200));
  const cl_uint Steps = static_cast<cl_uint>(Opts.integer("steps", 100));
  if (NX < 2 || NY < 2)
    app::fail("--nx and --ny must be at least 2");
  if (Steps == 0)
    app::fail("--steps must be positive");

  // Bumpy fields in [-1, 1] and a source that steps through eleven values in [0, 0.5].
  const size_t Cells = static_cast<size_t>(NX) * NY;
  std::vector<float> Ex(Cells), Ey(Cells), Hz(Cells), Fict(Steps);
  for (size_t I = 0; I < NX; ++I)
    for (size_t J = 0; J < NY; ++J) {
      Ex[I * NY + J] = static_cast<float>((I * 3 + J * 5) % 41) / 20.0f - 1.0f;
      Ey[I * NY + J] = static_cast<float>((I * 7 + J * 2) % 37) / 18.0f - 1.0f;
      Hz[I * NY + J] = static_cast<float>((I * 5 + J * 11) % 43) / 21.0f - 1.0f;
    }
  for (size_t T = 0; T < Steps; ++T)
    Fict[T] = static_cast<float>((T * 7) % 11) / 20.0f;
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> Result(3 * Cells, std::nanf(""));

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
  cl_mem BufEx = createBuffer(CL_MEM_READ_WRITE, Ex, "clCreateBuffer(ex)");
  cl_mem BufEy = createBuffer(CL_MEM_READ_WRITE, Ey, "clCreateBuffer(ey)");
  cl_mem BufHz = createBuffer(CL_MEM_READ_WRITE, Hz, "clCreateBuffer(hz)");
  cl_mem BufFict = createBuffer(CL_MEM_READ_ONLY, Fict, "clCreateBuffer(fict)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel KernelEy = clCreateKernel(Program, "fdtd_ey", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(fdtd_ey)");
  cl_kernel KernelEx = clCreateKernel(Program, "fdtd_ex", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(fdtd_ex)");
  cl_kernel KernelHz = clCreateKernel(Program, "fdtd_hz", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(fdtd_hz)");
  CL_CHECK(clSetKernelArg(KernelEy, 0, sizeof(cl_mem), &BufEy));
  CL_CHECK(clSetKernelArg(KernelEy, 1, sizeof(cl_mem), &BufHz));
  CL_CHECK(clSetKernelArg(KernelEy, 2, sizeof(cl_mem), &BufFict));
  CL_CHECK(clSetKernelArg(KernelEy, 4, sizeof(cl_uint), &NX));
  CL_CHECK(clSetKernelArg(KernelEy, 5, sizeof(cl_uint), &NY));
  CL_CHECK(clSetKernelArg(KernelEx, 0, sizeof(cl_mem), &BufEx));
  CL_CHECK(clSetKernelArg(KernelEx, 1, sizeof(cl_mem), &BufHz));
  CL_CHECK(clSetKernelArg(KernelEx, 2, sizeof(cl_uint), &NX));
  CL_CHECK(clSetKernelArg(KernelEx, 3, sizeof(cl_uint), &NY));
  CL_CHECK(clSetKernelArg(KernelHz, 0, sizeof(cl_mem), &BufEx));
  CL_CHECK(clSetKernelArg(KernelHz, 1, sizeof(cl_mem), &BufEy));
  CL_CHECK(clSetKernelArg(KernelHz, 2, sizeof(cl_mem), &BufHz));
  CL_CHECK(clSetKernelArg(KernelHz, 3, sizeof(cl_uint), &NX));
  CL_CHECK(clSetKernelArg(KernelHz, 4, sizeof(cl_uint), &NY));

  app::Stopwatch Timer;
  const size_t Local[2] = {32, 8};
  const size_t Global[2] = {roundUp(NY, Local[0]), roundUp(NX, Local[1])};
  for (cl_uint T = 0; T < Steps; ++T) {
    CL_CHECK(clSetKernelArg(KernelEy, 3, sizeof(cl_uint), &T));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelEy, 2, nullptr, Global, Local, 0, nullptr, nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelEx, 2, nullptr, Global, Local, 0, nullptr, nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelHz, 2, nullptr, Global, Local, 0, nullptr, nullptr));
  }
  const size_t Bytes = sizeof(float) * Cells;
  CL_CHECK(
      clEnqueueReadBuffer(Queue, BufEx, CL_FALSE, 0, Bytes, Result.data(), 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufEy, CL_FALSE, 0, Bytes, Result.data() + Cells, 0, nullptr,
                               nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufHz, CL_FALSE, 0, Bytes, Result.data() + 2 * Cells, 0,
                               nullptr, nullptr));
  CL_CHECK(clFinish(Queue));
  const double Seconds = Timer.seconds();

  // Double-precision reference: the whole grid when that costs at most ReferenceBudget
  // cell-steps, else windows spread over the grid (their rows from the top to the bottom edge,
  // their columns a permutation of positions from the left to the right edge, so that the sample
  // meets every edge), each computed from its dependency cone. All of the output is scanned for
  // the sentinel, and the largest magnitude of the output scales the errors.
  size_t Windows = 1, SideX = NX, SideY = NY;
  if (static_cast<double>(Cells) * Steps > ReferenceBudget) {
    SideX = std::min<size_t>(WindowSide, NX);
    SideY = std::min<size_t>(WindowSide, NY);
    const double Height = static_cast<double>(std::min<size_t>(NX, SideX + 2 * Steps));
    const double Width = static_cast<double>(std::min<size_t>(NY, SideY + 2 * Steps));
    Windows = std::max<size_t>(2, static_cast<size_t>(ReferenceBudget / (Height * Width * Steps)));
    Windows = std::min({Windows, NX / SideX, NY / SideY});
  }
  size_t Wrong = 0, Checked = 0;
  double Largest = 0.0, MaxRelError = 0.0;
  for (float Value : Result)
    if (!std::isfinite(Value))
      ++Wrong;
    else
      Largest = std::max(Largest, static_cast<double>(std::fabs(Value)));
  Largest = std::max(Largest, 1e-30);
  // Column positions: window W takes position (W * Stride) mod Windows, a permutation when Stride
  // and Windows are coprime.
  size_t Stride = Windows / 2 + 1;
  while (std::gcd(Stride, Windows) != 1)
    ++Stride;
  app::RowPool Pool;
  for (size_t W = 0; W < Windows; ++W) {
    auto position = [&](size_t K, size_t Extent, size_t Side) {
      return Windows == 1 ? 0 : K * (Extent - Side) / (Windows - 1);
    };
    const size_t Row = position(W, NX, SideX), Column = position(W * Stride % Windows, NY, SideY);
    const size_t Top = Row > Steps ? Row - Steps : 0, Left = Column > Steps ? Column - Steps : 0;
    const size_t Bottom = std::min<size_t>(NX - 1, Row + SideX - 1 + Steps);
    const size_t Right = std::min<size_t>(NY - 1, Column + SideY - 1 + Steps);
    const Fields Want =
        referenceRegion(Ex, Ey, Hz, Fict, NX, NY, Steps, Top, Bottom, Left, Right, Pool);
    const size_t Width = Right - Left + 1;
    size_t Offset = 0;
    for (const std::vector<double> *Field : {&Want.Ex, &Want.Ey, &Want.Hz}) {
      for (size_t I = Row; I < Row + SideX; ++I)
        for (size_t J = Column; J < Column + SideY; ++J) {
          const double Got = Result[Offset + I * NY + J];
          const double RelError = std::fabs(Got - (*Field)[(I - Top) * Width + J - Left]) / Largest;
          if (!(RelError <= Tolerance) && std::isfinite(Got))
            ++Wrong;
          if (std::isfinite(RelError))
            MaxRelError = std::max(MaxRelError, RelError);
          ++Checked;
        }
      Offset += Cells;
    }
  }

  app::writeOutput(Opts, Result);
  clReleaseKernel(KernelEy);
  clReleaseKernel(KernelEx);
  clReleaseKernel(KernelHz);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufEx, BufEy, BufHz, BufFict})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (%zu windows), max error %.3g of the largest "
                "magnitude %.3g (tolerance %.0e)",
                Wrong, Result.size(), Checked, Windows, MaxRelError, Largest, Tolerance);
  return app::report("fdtd2d", Wrong == 0, Choice, Seconds, Detail);
}
