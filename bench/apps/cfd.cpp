// An explicit finite-volume solver in the style of Rodinia's cfd, reduced to one dimension: the
// linear advection-diffusion equation u_t + c u_x = D u_xx on N cells of uneven widths, with a
// left inflow that changes over time and a right outflow, advanced with local time steps. Each
// step is four short 1D launches (NULL local sizes), each reading what the previous one wrote:
// cfd_flux computes the N + 1 face fluxes (upwind advection plus central diffusion) from the
// cell states and the ghost cells at both ends; cfd_step_factor computes each cell's local time
// step over its width; cfd_update moves each cell by its step factor times its flux balance;
// cfd_boundary copies the new states back and refreshes the ghost cells (the inflow, a triangle
// wave between 1.5 and 2, from the step number: a scalar argument that changes every step). With a
// few thousand cells and hundreds of steps, that is thousands of launches of a few microseconds of
// work each. The output is the N cell states.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
// Face f lies between cells f and f + 1 of the N + 2 (ghosts included) in u and width.
__kernel void cfd_flux(__global const float *u, __global const float *width,
                       __global float *flux, const float c, const float d) {
  const uint f = get_global_id(0);
  const float distance = 0.5f * (width[f] + width[f + 1]);
  flux[f] = c * u[f] - d * (u[f + 1] - u[f]) / distance;
}

__kernel void cfd_step_factor(__global const float *width, __global float *factor,
                              const float c, const float d, const float cfl) {
  const uint i = get_global_id(0) + 1;
  const float left = 0.5f * (width[i - 1] + width[i]);
  const float right = 0.5f * (width[i] + width[i + 1]);
  const float dt = cfl * width[i] / (c + d / left + d / right);
  factor[i] = dt / width[i];
}

__kernel void cfd_update(__global const float *u, __global const float *flux,
                         __global const float *factor, __global float *next) {
  const uint i = get_global_id(0) + 1;
  next[i] = u[i] - factor[i] * (flux[i] - flux[i - 1]);
}

__kernel void cfd_boundary(__global const float *next, __global float *u, const uint n,
                           const uint step) {
  const uint i = get_global_id(0);
  if (i == 0)
    u[0] = 1.5f + 0.5f * (float)abs((int)(step % 128) - 64) / 64.0f;
  else if (i == n + 1)
    u[n + 1] = next[n];
  else
    u[i] = next[i];
}
)CLC";

// The physical constants and the local time step's Courant number, as the device rounds them.
static const float Speed = 1.0f, Diffusion = 0.05f, Courant = 0.8f;
// With every cell's time step at Courant 0.8 of its stability limit, each update is a convex
// combination of the cell and its two neighbours (weights 1 - 0.8, and 0.8 shared by the
// neighbours), so the states stay between their initial and inflow values, all in [1, 2]: a
// relative error is meaningful, and the rounding errors of one step are not amplified by the next
// ones. But the device's float step factors and face distances differ from the reference's by an
// ulp or so in every step alike, which moves the fronts travelling down the line by a tiny distance
// that grows with the steps; across a front's steep slope that shows as an error that grows with
// the steps too (measured: at most 7e-7 after 1000 steps, 3e-5 after 3000, 5e-5 after 5000).
static constexpr double Tolerance = 1e-4;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n CELLS] [--steps STEPS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 4096));
  const cl_uint Steps = static_cast<cl_uint>(Opts.integer("steps", 500));
  if (N == 0 || Steps == 0)
    app::fail("--n and --steps must be positive");

  // Cell widths in [0.5, 1.5] (ghosts included), states in [1, 2] with ghosts equal to their
  // neighbours.
  const size_t Cells = N + 2;
  std::vector<float> Width(Cells), U(Cells), Zeros(Cells, 0.0f);
  for (size_t I = 0; I < Cells; ++I) {
    Width[I] = 0.5f + static_cast<float>((I * 37) % 101) / 100.0f;
    U[I] = 1.0f + static_cast<float>((I * 13) % 29) / 28.0f;
  }
  U[0] = U[1];
  U[N + 1] = U[N];
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> Result(N, std::nanf(""));

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
  cl_mem BufU = createBuffer(CL_MEM_READ_WRITE, U, "clCreateBuffer(u)");
  cl_mem BufWidth = createBuffer(CL_MEM_READ_ONLY, Width, "clCreateBuffer(width)");
  // next and factor are only used at indices 1..N; zeros elsewhere keep them defined.
  cl_mem BufNext = createBuffer(CL_MEM_READ_WRITE, Zeros, "clCreateBuffer(next)");
  cl_mem BufFactor = createBuffer(CL_MEM_READ_WRITE, Zeros, "clCreateBuffer(factor)");
  cl_mem BufFlux =
      clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(float) * (N + 1), nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(flux)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Flux = clCreateKernel(Program, "cfd_flux", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cfd_flux)");
  cl_kernel StepFactor = clCreateKernel(Program, "cfd_step_factor", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cfd_step_factor)");
  cl_kernel Update = clCreateKernel(Program, "cfd_update", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cfd_update)");
  cl_kernel Boundary = clCreateKernel(Program, "cfd_boundary", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(cfd_boundary)");
  CL_CHECK(clSetKernelArg(Flux, 0, sizeof(cl_mem), &BufU));
  CL_CHECK(clSetKernelArg(Flux, 1, sizeof(cl_mem), &BufWidth));
  CL_CHECK(clSetKernelArg(Flux, 2, sizeof(cl_mem), &BufFlux));
  CL_CHECK(clSetKernelArg(Flux, 3, sizeof(float), &Speed));
  CL_CHECK(clSetKernelArg(Flux, 4, sizeof(float), &Diffusion));
  CL_CHECK(clSetKernelArg(StepFactor, 0, sizeof(cl_mem), &BufWidth));
  CL_CHECK(clSetKernelArg(StepFactor, 1, sizeof(cl_mem), &BufFactor));
  CL_CHECK(clSetKernelArg(StepFactor, 2, sizeof(float), &Speed));
  CL_CHECK(clSetKernelArg(StepFactor, 3, sizeof(float), &Diffusion));
  CL_CHECK(clSetKernelArg(StepFactor, 4, sizeof(float), &Courant));
  CL_CHECK(clSetKernelArg(Update, 0, sizeof(cl_mem), &BufU));
  CL_CHECK(clSetKernelArg(Update, 1, sizeof(cl_mem), &BufFlux));
  CL_CHECK(clSetKernelArg(Update, 2, sizeof(cl_mem), &BufFactor));
  CL_CHECK(clSetKernelArg(Update, 3, sizeof(cl_mem), &BufNext));
  CL_CHECK(clSetKernelArg(Boundary, 0, sizeof(cl_mem), &BufNext));
  CL_CHECK(clSetKernelArg(Boundary, 1, sizeof(cl_mem), &BufU));
  CL_CHECK(clSetKernelArg(Boundary, 2, sizeof(cl_uint), &N));

  app::Stopwatch Timer;
  const size_t Faces = N + 1, Interior = N, All = Cells;
  for (cl_uint Step = 0; Step < Steps; ++Step) {
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Flux, 1, nullptr, &Faces, nullptr, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, StepFactor, 1, nullptr, &Interior, nullptr, 0, nullptr,
                                    nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Update, 1, nullptr, &Interior, nullptr, 0, nullptr, nullptr));
    CL_CHECK(clSetKernelArg(Boundary, 3, sizeof(cl_uint), &Step));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Boundary, 1, nullptr, &All, nullptr, 0, nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufU, CL_TRUE, sizeof(float), sizeof(float) * N,
                               Result.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference in full (a few operations per cell and step), from the same
  // float widths, states and constants.
  const double C = Speed, D = Diffusion, Cfl = Courant;
  std::vector<double> Ref(U.begin(), U.end()), Next(Cells), Fluxes(N + 1), Factors(Cells);
  for (size_t I = 1; I <= N; ++I) {
    const double Left = 0.5 * (Width[I - 1] + static_cast<double>(Width[I]));
    const double Right = 0.5 * (Width[I] + static_cast<double>(Width[I + 1]));
    Factors[I] = Cfl / (C + D / Left + D / Right);
  }
  for (cl_uint Step = 0; Step < Steps; ++Step) {
    for (size_t F = 0; F <= N; ++F)
      Fluxes[F] = C * Ref[F] - D * (Ref[F + 1] - Ref[F]) /
                                   (0.5 * (Width[F] + static_cast<double>(Width[F + 1])));
    for (size_t I = 1; I <= N; ++I)
      Next[I] = Ref[I] - Factors[I] * (Fluxes[I] - Fluxes[I - 1]);
    std::copy(Next.begin() + 1, Next.begin() + N + 1, Ref.begin() + 1);
    Ref[0] = 1.5 + 0.5 * std::abs(static_cast<double>(Step % 128) - 64.0) / 64.0;
    Ref[N + 1] = Next[N];
  }

  size_t Wrong = 0;
  double MaxRelError = 0.0;
  for (size_t I = 0; I < N; ++I) {
    const double RelError = std::fabs(Result[I] - Ref[I + 1]) / Ref[I + 1];
    // A NaN left over from the sentinel (an element nobody wrote) counts as wrong.
    if (!(RelError <= Tolerance))
      ++Wrong;
    if (std::isfinite(RelError))
      MaxRelError = std::max(MaxRelError, RelError);
  }

  app::writeOutput(Opts, Result);
  for (cl_kernel Kernel : {Flux, StepFactor, Update, Boundary})
    clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufU, BufWidth, BufNext, BufFactor, BufFlux})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[160];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %u steps, max rel error %.3g (tolerance %.0e)", Wrong,
                Result.size(), Steps, MaxRelError, Tolerance);
  return app::report("cfd", Wrong == 0, Choice, Seconds, Detail);
}
