// Iterative 2D 5-point stencil (damped Jacobi) on an NX x NY float grid with fixed boundary cells.
// 2D launch with an explicit 16x16 local size over a padded global size, inputs uploaded with
// blocking writes, two buffers ping-ponged by re-setting the kernel arguments before each launch
// (every launch reads the neighbours that the previous one wrote), one blocking read at the end.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

static const char *KernelSource = R"CLC(
__kernel void jacobi(__global const float *in, __global float *out, const unsigned int nx,
                     const unsigned int ny) {
  const unsigned int x = get_global_id(0);
  const unsigned int y = get_global_id(1);
  if (x < nx && y < ny) {
    const unsigned int i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
      out[i] = in[i];
    else
      out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
  }
}
)CLC";

// Every cell lies in [1, 3] and the update is a convex combination, so values stay away from zero
// and a relative error is meaningful. A double reference may differ from the device by a few ulp
// per step (the device may contract multiply-adds); the damped update does not amplify them.
static constexpr double Tolerance = 1e-5;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--nx COLUMNS] [--ny ROWS] [--iterations STEPS]");
  const cl_uint NX = static_cast<cl_uint>(Opts.integer("nx", 512));
  const cl_uint NY = static_cast<cl_uint>(Opts.integer("ny", 512));
  const long Iterations = Opts.integer("iterations", 10);
  if (NX == 0 || NY == 0)
    app::fail("--nx and --ny must be positive");

  // A hot top edge, a warm left edge and a bumpy interior, so that every step changes the grid.
  const size_t Cells = static_cast<size_t>(NX) * NY;
  std::vector<float> Grid(Cells), Result(Cells, std::nanf(""));
  for (cl_uint Y = 0; Y < NY; ++Y)
    for (cl_uint X = 0; X < NX; ++X) {
      float Value = 1.0f + static_cast<float>((X * 7 + Y * 13) % 64) / 63.0f;
      if (Y == 0)
        Value = 3.0f;
      else if (X == 0)
        Value = 2.5f;
      Grid[static_cast<size_t>(Y) * NX + X] = Value;
    }

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(float) * Cells;
  cl_mem BufCur = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(cur)");
  cl_mem BufNext = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(next)");
  CL_CHECK(
      clEnqueueWriteBuffer(Queue, BufCur, CL_TRUE, 0, Bytes, Grid.data(), 0, nullptr, nullptr));
  // Both buffers hold the initial grid, so whichever ends up as the result has valid boundaries
  // even before the first launch.
  CL_CHECK(
      clEnqueueWriteBuffer(Queue, BufNext, CL_TRUE, 0, Bytes, Grid.data(), 0, nullptr, nullptr));

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "jacobi", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_uint), &NX));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &NY));

  app::Stopwatch Timer;
  const size_t Local[2] = {16, 16};
  const size_t Global[2] = {roundUp(NX, Local[0]), roundUp(NY, Local[1])};
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufCur));
    CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufNext));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, Local, 0, nullptr, nullptr));
    std::swap(BufCur, BufNext);
  }
  CL_CHECK(clFinish(Queue));
  CL_CHECK(
      clEnqueueReadBuffer(Queue, BufCur, CL_TRUE, 0, Bytes, Result.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  std::vector<double> Ref(Grid.begin(), Grid.end()), RefNext(Ref);
  for (long It = 0; It < Iterations; ++It) {
    for (size_t Y = 1; Y + 1 < NY; ++Y)
      for (size_t X = 1; X + 1 < NX; ++X) {
        const size_t I = Y * NX + X;
        RefNext[I] = 0.5 * Ref[I] + 0.125 * (Ref[I - 1] + Ref[I + 1] + Ref[I - NX] + Ref[I + NX]);
      }
    std::swap(Ref, RefNext);
  }

  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t I = 0; I < Cells; ++I) {
    const double RelError = std::fabs(Result[I] - Ref[I]) / std::fabs(Ref[I]);
    // A NaN left over from the sentinel (a cell nobody wrote) fails the test, so it counts as
    // wrong.
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufCur);
  clReleaseMemObject(BufNext);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail), "%zu wrong of %zu, max rel error %.3g (tolerance %.0e)",
                Wrong, Cells, MaxRelError, Tolerance);
  return app::report("stencil2d", Wrong == 0, Choice, Seconds, Detail);
}
