// A triangular one-launch kernel, in the manner of correlation-style loops over j >= i: work-item
// i runs work * (n - i) / n steps of an integer recurrence (so the first work-items do all the
// work and the last almost none) and writes its final value. Launched once; the work per
// work-group falls linearly with the group's index, so a split into equal halves of the index
// space gives one device three times the other's work. Integer arithmetic only: every device
// computes the same bits.
//
// Output file: the n values (u32).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
__kernel void triangle_rows(const uint n, const uint work, __global uint *out) {
  const uint i = get_global_id(0);
  if (i >= n)
    return;
  const uint steps = (uint)(((ulong)work * (ulong)(n - i)) / (ulong)n);
  uint h = i * 0x9E3779B9u + 1u;
  for (uint s = 0; s < steps; ++s)
    h = (h ^ (s + i)) * 0x01000193u + (h >> 13);
  out[i] = h;
}
)CLC";

static cl_uint referenceRow(cl_uint I, cl_uint N, cl_uint Work) {
  const cl_uint Steps = static_cast<cl_uint>(
      (static_cast<uint64_t>(Work) * static_cast<uint64_t>(N - I)) / static_cast<uint64_t>(N));
  cl_uint H = I * 0x9E3779B9u + 1u;
  for (cl_uint S = 0; S < Steps; ++S)
    H = (H ^ (S + I)) * 0x01000193u + (H >> 13);
  return H;
}

// The reference recomputes at most this many steps: every row when the run is smaller, else a
// strided sample (always the first and the last row).
constexpr double ReferenceStepBudget = 1 << 26;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n WORK_ITEMS] [--work STEPS_OF_THE_FIRST] [--local L]");
  const long NArg = Opts.integer("n", 65536);
  const long WorkArg = Opts.integer("work", 4096);
  const long LocalArg = Opts.integer("local", 64);
  if (NArg <= 0 || NArg > (1L << 28))
    app::fail("--n must be between 1 and 2^28");
  if (WorkArg <= 0 || WorkArg > (1L << 31))
    app::fail("--work must be between 1 and 2^31");
  if (LocalArg <= 0 || NArg % LocalArg != 0)
    app::fail("--local must be positive and divide --n");
  const cl_uint N = static_cast<cl_uint>(NArg);
  const cl_uint Work = static_cast<cl_uint>(WorkArg);
  const size_t Global = static_cast<size_t>(NArg), Local = static_cast<size_t>(LocalArg);

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");
  cl_mem Out = clCreateBuffer(Context, CL_MEM_WRITE_ONLY, sizeof(cl_uint) * Global, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer");
  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "triangle_rows", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_uint), &Work));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &Out));

  std::vector<cl_uint> Result(Global, 0);
  app::Stopwatch Timer;
  CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &Local, 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, sizeof(cl_uint) * Global, Result.data(), 0,
                               nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Steps of all rows: Work * (N + 1) / 2 on average per row, about.
  const double AllSteps = static_cast<double>(Work) * static_cast<double>(N) / 2.0;
  const size_t Stride =
      static_cast<size_t>(std::max(1.0, std::ceil(AllSteps / ReferenceStepBudget)));
  size_t Checked = 0, Wrong = 0;
  for (size_t I = 0; I < Global; I += Stride) {
    Wrong += Result[I] != referenceRow(static_cast<cl_uint>(I), N, Work);
    ++Checked;
  }
  Wrong += Result[Global - 1] != referenceRow(N - 1, N, Work);
  ++Checked;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(Out);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%u work-items, %u steps for the first, %zu rows checked "
                "(stride %zu), %zu wrong",
                N, Work, Checked, Stride, Wrong);
  return app::report("triangular", Wrong == 0, Choice, Seconds, Detail);
}
