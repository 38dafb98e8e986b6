// What deferred host writes (LIBSPLIT_DEFER) cost and save: an app writes a large input buffer
// once, then launches an iterative kernel that reads it in slices (y = x, then y = 0.5 y + x),
// then rewrites its host array for a next round, as apps do. Run it under libsplit with
// LIBSPLIT_DEFER=mprotect|copy|off and LIBSPLIT_SUMMARY=1 (bench/tools/defer_modes.sh does):
// the summary gives the bytes sent host->devices, this tool the wall times.
//
// --fault-buffers K: K separate 1 MiB arrays, each written to a buffer of its own, then 32 of
// each array's pages written once (one byte each): under mprotect each of those writes is a
// first-write fault; the time per write, less the same loop without libsplit, is the cost of a
// fault.
//
//   defer_transfer [--device P:D] [--mib M] [--iterations N] [--fault-buffers K]
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
__kernel void start(__global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = x[i];
}
__kernel void relax(__global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = 0.5f * y[i] + x[i];
}
)CLC";

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--mib M] [--iterations N] [--fault-buffers K]");
  const size_t Mib = static_cast<size_t>(Opts.integer("mib", 256));
  const long Iterations = std::max(1L, Opts.integer("iterations", 20));
  const long FaultBuffers = Opts.integer("fault-buffers", 0);
  const size_t Count = Mib * (1u << 20) / sizeof(float);
  const size_t Local = 64;

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");
  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Start = clCreateKernel(Program, "start", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel start");
  cl_kernel Kernel = clCreateKernel(Program, "relax", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel relax");

  std::vector<float> X(Count);
  for (size_t I = 0; I < Count; ++I)
    X[I] = static_cast<float>(I % 1000) * 0.001f;
  cl_mem XBuffer = clCreateBuffer(Context, CL_MEM_READ_ONLY, Count * sizeof(float), nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer x");
  // y never comes from the host: the first iteration writes it (y = x), so the only host data
  // the devices need is x.
  cl_mem YBuffer = clCreateBuffer(Context, CL_MEM_READ_WRITE, Count * sizeof(float), nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer y");

  app::Stopwatch WriteTimer;
  CL_CHECK(clEnqueueWriteBuffer(Queue, XBuffer, CL_TRUE, 0, Count * sizeof(float), X.data(), 0,
                                nullptr, nullptr));
  const double WriteSeconds = WriteTimer.seconds();

  for (cl_kernel K : {Start, Kernel}) {
    CL_CHECK(clSetKernelArg(K, 0, sizeof(cl_mem), &XBuffer));
    CL_CHECK(clSetKernelArg(K, 1, sizeof(cl_mem), &YBuffer));
  }
  app::Stopwatch LaunchTimer;
  for (long I = 0; I < Iterations; ++I)
    CL_CHECK(clEnqueueNDRangeKernel(Queue, I == 0 ? Start : Kernel, 1, nullptr, &Count, &Local, 0,
                                    nullptr, nullptr));
  CL_CHECK(clFinish(Queue));
  const double LaunchSeconds = LaunchTimer.seconds();

  // The next round's input, written over the same array.
  app::Stopwatch RewriteTimer;
  for (size_t I = 0; I < Count; ++I)
    X[I] = static_cast<float>(I % 777);
  const double RewriteSeconds = RewriteTimer.seconds();

  std::vector<float> Y(Count);
  CL_CHECK(clEnqueueReadBuffer(Queue, YBuffer, CL_TRUE, 0, Count * sizeof(float), Y.data(), 0,
                               nullptr, nullptr));
  bool Correct = true;
  for (size_t I = 0; I < Count && Correct; I += 997) {
    const float In = static_cast<float>(I % 1000) * 0.001f;
    float Expected = In;
    for (long K = 1; K < Iterations; ++K)
      Expected = 0.5f * Expected + In;
    Correct = std::fabs(Y[I] - Expected) <= 1e-5f * std::max(1.0f, std::fabs(Expected));
  }
  std::printf("defer_transfer: %zu MiB written once, %ld iterations: write call %.2f ms, "
              "iterations %.2f ms, host rewrite %.2f ms, total %.2f ms%s\n",
              Mib, Iterations, 1e3 * WriteSeconds, 1e3 * LaunchSeconds, 1e3 * RewriteSeconds,
              1e3 * (WriteSeconds + LaunchSeconds + RewriteSeconds), Correct ? "" : "; WRONG");

  if (FaultBuffers > 0) {
    const size_t Page = 4096, ArrayBytes = 1u << 20, Touches = 32;
    std::vector<std::vector<std::uint8_t>> Arrays(static_cast<size_t>(FaultBuffers),
                                                  std::vector<std::uint8_t>(ArrayBytes, 1));
    std::vector<cl_mem> Buffers;
    for (size_t I = 0; I < Arrays.size(); ++I) {
      Buffers.push_back(clCreateBuffer(Context, CL_MEM_READ_ONLY, ArrayBytes, nullptr, &Err));
      CL_CHECK_ERR(Err, "clCreateBuffer");
    }
    app::Stopwatch WriteCallTimer;
    for (size_t I = 0; I < Arrays.size(); ++I)
      CL_CHECK(clEnqueueWriteBuffer(Queue, Buffers[I], CL_TRUE, 0, ArrayBytes, Arrays[I].data(), 0,
                                    nullptr, nullptr));
    const double WriteCallSeconds = WriteCallTimer.seconds();
    // Pages 2, 6, 10...: never the first or last page of an array (those may be shared with
    // the allocator's headers and are never protected).
    app::Stopwatch FaultTimer;
    for (auto &A : Arrays)
      for (size_t T = 0; T < Touches; ++T)
        A[(2 + 4 * T) * Page + 8] = 2;
    const double FaultSeconds = FaultTimer.seconds();
    const double Writes = static_cast<double>(Arrays.size() * Touches);
    std::printf("defer_transfer: %ld blocking 1 MiB writes: %.1f us each; %.0f first writes to "
                "pages of those arrays: %.2f us each\n",
                FaultBuffers, 1e6 * WriteCallSeconds / static_cast<double>(FaultBuffers), Writes,
                1e6 * FaultSeconds / Writes);
    for (cl_mem B : Buffers)
      clReleaseMemObject(B);
  }

  clReleaseMemObject(XBuffer);
  clReleaseMemObject(YBuffer);
  clReleaseKernel(Start);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return Correct ? app::ExitCorrect : app::ExitWrongResult;
}
