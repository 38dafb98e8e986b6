// Sum, min, max and a 64-bin histogram of N 8-bit-range integers, the way reductions are usually
// written: each work-group reduces its block in __local memory (a tree for the sum/min/max, local
// atomic_inc for the histogram), then one work-item per group folds the group's result into
// __global counters with atomic_add / atomic_min / atomic_max. The input goes in through
// clEnqueueWriteBuffer, the counters are reset before every launch (clEnqueueWriteBuffer for the
// sum/min/max identities, clEnqueueFillBuffer for the histogram), the local size is explicit and
// passed to the kernel compiler as a -D option, and each work-item loads several elements at
// get_group_id-based offsets (the "first add during the global load" idiom).
#include "common/app_common.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

static const char *KernelSource = R"CLC(
#define BINS 64

__kernel void reduce_stats(__global const int *in, const uint n, __global int *stats,
                           __global int *hist) {
  __local int sum[LOCAL_SIZE];
  __local int lo[LOCAL_SIZE];
  __local int hi[LOCAL_SIZE];
  __local int bins[BINS];

  const uint lid = get_local_id(0);
  for (uint b = lid; b < BINS; b += LOCAL_SIZE)
    bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  int s = 0, mn = INT_MAX, mx = INT_MIN;
  const uint base = get_group_id(0) * (LOCAL_SIZE * ITEMS_PER_THREAD) + lid;
  for (uint k = 0; k < ITEMS_PER_THREAD; ++k) {
    const uint i = base + k * LOCAL_SIZE;
    if (i < n) {
      const int v = in[i];
      s += v;
      mn = min(mn, v);
      mx = max(mx, v);
      atomic_inc(&bins[(v + 128) >> 2]);
    }
  }
  sum[lid] = s;
  lo[lid] = mn;
  hi[lid] = mx;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint stride = LOCAL_SIZE / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      sum[lid] += sum[lid + stride];
      lo[lid] = min(lo[lid], lo[lid + stride]);
      hi[lid] = max(hi[lid], hi[lid + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (lid == 0) {
    atomic_add(&stats[0], sum[0]);
    atomic_min(&stats[1], lo[0]);
    atomic_max(&stats[2], hi[0]);
  }
  for (uint b = lid; b < BINS; b += LOCAL_SIZE)
    if (bins[b] != 0)
      atomic_add(&hist[b], bins[b]);
}
)CLC";

// Power of two (the tree reduction halves it) and a size every OpenCL device accepts.
constexpr size_t LocalSize = 256;
constexpr cl_uint ItemsPerThread = 4;
constexpr size_t Bins = 64;
// |value| <= 128, so the sum of up to INT_MAX / 128 values cannot overflow an int counter.
constexpr long MaxN = INT_MAX / 128;

// Fixed-seed 64-bit LCG (Knuth's MMIX constants), so every run sees the same input.
static cl_uint nextRandom(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<cl_uint>(State >> 33);
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ELEMENTS] [--iterations LAUNCHES]");
  const long NArg = Opts.integer("n", 1 << 22);
  const long Iterations = Opts.integer("iterations", 1);
  if (NArg == 0 || NArg > MaxN)
    app::fail("--n must be between 1 and INT_MAX / 128");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  const cl_uint N = static_cast<cl_uint>(NArg);

  // Most values stay in [-120, 120]; the only -128 sits in the middle and the only 127 is the
  // last element, so a part of the range that was never reduced changes min or max.
  std::vector<cl_int> In(N);
  uint64_t Seed = 20240611;
  for (cl_uint I = 0; I < N; ++I)
    In[I] = static_cast<cl_int>(nextRandom(Seed) % 241) - 120;
  In[N / 2] = -128;
  In[N - 1] = 127;

  const size_t NumStats = 3;
  std::vector<cl_int> Result(NumStats + Bins, static_cast<cl_int>(0xDEADBEEF));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  cl_mem BufIn = clCreateBuffer(Context, CL_MEM_READ_ONLY, sizeof(cl_int) * N, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(in)");
  cl_mem BufStats =
      clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(cl_int) * NumStats, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(stats)");
  cl_mem BufHist = clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(cl_int) * Bins, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(hist)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufIn, CL_FALSE, 0, sizeof(cl_int) * N, In.data(), 0,
                                nullptr, nullptr));

  const std::string BuildOptions = "-DLOCAL_SIZE=" + std::to_string(LocalSize) +
                                   " -DITEMS_PER_THREAD=" + std::to_string(ItemsPerThread);
  cl_program Program =
      app::buildProgram(Context, Choice.Device, KernelSource, BuildOptions.c_str());
  cl_kernel Kernel = clCreateKernel(Program, "reduce_stats", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufIn));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufStats));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_mem), &BufHist));

  const size_t PerGroup = LocalSize * ItemsPerThread;
  const size_t Global = (N + PerGroup - 1) / PerGroup * LocalSize;
  const cl_int Identities[NumStats] = {0, INT_MAX, INT_MIN};
  const cl_int Zero = 0;

  app::Stopwatch Timer;
  for (long It = 0; It < Iterations; ++It) {
    // The counters accumulate, so every launch starts again from the identities.
    CL_CHECK(clEnqueueWriteBuffer(Queue, BufStats, CL_FALSE, 0, sizeof(Identities), Identities, 0,
                                  nullptr, nullptr));
    CL_CHECK(clEnqueueFillBuffer(Queue, BufHist, &Zero, sizeof(Zero), 0, sizeof(cl_int) * Bins, 0,
                                 nullptr, nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &LocalSize, 0, nullptr,
                                    nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufStats, CL_TRUE, 0, sizeof(cl_int) * NumStats,
                               Result.data(), 0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufHist, CL_TRUE, 0, sizeof(cl_int) * Bins,
                               Result.data() + NumStats, 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  std::vector<cl_int> Expected(NumStats + Bins, 0);
  int64_t Sum = 0;
  cl_int Min = INT_MAX, Max = INT_MIN;
  for (cl_int V : In) {
    Sum += V;
    Min = std::min(Min, V);
    Max = std::max(Max, V);
    ++Expected[NumStats + static_cast<size_t>((V + 128) >> 2)];
  }
  Expected[0] = static_cast<cl_int>(Sum);
  Expected[1] = Min;
  Expected[2] = Max;

  size_t Wrong = 0;
  for (size_t I = 0; I < Result.size(); ++I)
    if (Result[I] != Expected[I])
      ++Wrong;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufIn);
  clReleaseMemObject(BufStats);
  clReleaseMemObject(BufHist);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return app::report("reduction", Wrong == 0, Choice, Seconds,
                     "sum " + std::to_string(Result[0]) + " min " + std::to_string(Result[1]) +
                         " max " + std::to_string(Result[2]) + ", " + std::to_string(Wrong) +
                         " wrong of " + std::to_string(Result.size()) + " counters");
}
