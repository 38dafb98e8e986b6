// NPB EP ("embarrassingly parallel") in the style of the OpenCL ports of the NAS benchmarks:
// every work-item draws pairs of uniform numbers in (-1, 1) from its own 64-bit LCG stream
// (seeded from the launch seed and its global id), turns the pairs inside the unit circle into
// Gaussian pairs by the Marsaglia polar method, and accumulates the sums of the Gaussians and
// the counts per square annulus l <= max(|X|, |Y|) < l + 1. Each work-group reduces its
// work-items' partials in __local memory (a tree, fixed order, no atomics) and writes them to
// its own slot of two output arrays; the host reads the slots back after every launch and adds
// them up in group order. The kernel is repeated with a different seed per launch; it is
// compute-bound (log and sqrt in double per accepted pair) and its output is a few bytes.
//
// Output file: per launch, 12 doubles: sum X, sum Y, then the counts of annuli 0..9.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// The host reference does the same arithmetic without contraction.
#pragma OPENCL FP_CONTRACT OFF

#define ANNULI 10

ulong mix64(ulong z) {
  z += 0x9E3779B97F4A7C15UL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
  return z ^ (z >> 31);
}

// One step of Knuth's MMIX LCG; 53 high bits as a double in [0, 1), mapped to [-1, 1).
double next_uniform(ulong *state) {
  *state = *state * 6364136223846793005UL + 1442695040888963407UL;
  return 2.0 * ((double)(*state >> 11) * 0x1.0p-53) - 1.0;
}

__kernel void ep_pairs(const ulong seed, const uint pairs, __global double *sums,
                       __global uint *counts) {
  __local double lsx[LOCAL_SIZE];
  __local double lsy[LOCAL_SIZE];
  __local uint lq[ANNULI * LOCAL_SIZE];

  const uint lid = get_local_id(0);
  ulong state = mix64(seed ^ ((ulong)get_global_id(0) * 0xD1B54A32D192ED03UL));
  double sx = 0.0, sy = 0.0;
  uint q[ANNULI];
  for (uint a = 0; a < ANNULI; ++a)
    q[a] = 0;

  for (uint k = 0; k < pairs; ++k) {
    const double x = next_uniform(&state);
    const double y = next_uniform(&state);
    const double t = x * x + y * y;
    if (t <= 1.0 && t > 0.0) {
      const double f = sqrt(-2.0 * log(t) / t);
      const double gx = x * f;
      const double gy = y * f;
      sx += gx;
      sy += gy;
      const uint l = min((uint)fmax(fabs(gx), fabs(gy)), (uint)(ANNULI - 1));
      q[l] += 1;
    }
  }

  lsx[lid] = sx;
  lsy[lid] = sy;
  for (uint a = 0; a < ANNULI; ++a)
    lq[a * LOCAL_SIZE + lid] = q[a];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = LOCAL_SIZE / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      lsx[lid] += lsx[lid + stride];
      lsy[lid] += lsy[lid + stride];
      for (uint a = 0; a < ANNULI; ++a)
        lq[a * LOCAL_SIZE + lid] += lq[a * LOCAL_SIZE + lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (lid == 0) {
    const size_t g = get_group_id(0);
    sums[2 * g] = lsx[0];
    sums[2 * g + 1] = lsy[0];
    for (uint a = 0; a < ANNULI; ++a)
      counts[ANNULI * g + a] = lq[a * LOCAL_SIZE];
  }
}
)CLC";

// Power of two (the tree reduction halves it).
constexpr size_t LocalSize = 64;
constexpr size_t Annuli = 10;
constexpr size_t PerLaunch = 2 + Annuli;
// The reference recomputes at most this many pairs per run: every work-group of every launch
// when the run is smaller, else a strided sample of groups whose phase moves from launch to
// launch (so a range of more than Stride groups that was never computed is always caught).
constexpr double ReferencePairBudget = 1 << 22;

static uint64_t mix64(uint64_t Z) {
  Z += 0x9E3779B97F4A7C15ULL;
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
  return Z ^ (Z >> 31);
}

static double nextUniform(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return 2.0 * (static_cast<double>(State >> 11) * 0x1.0p-53) - 1.0;
}

static uint64_t launchSeed(long Launch) {
  return 271828182845ULL + 1000003ULL * static_cast<uint64_t>(Launch);
}

struct GroupResult {
  double SumX = 0.0, SumY = 0.0, AbsSum = 0.0;
  uint64_t Counts[Annuli] = {};
};

// One work-group of the kernel, on the host: the same streams and the same formulas (the sums
// are added in a different order, hence the tolerance in the check).
static GroupResult referenceGroup(uint64_t Seed, size_t Group, cl_uint Pairs) {
  GroupResult R;
  for (size_t L = 0; L < LocalSize; ++L) {
    const uint64_t Gid = Group * LocalSize + L;
    uint64_t State = mix64(Seed ^ (Gid * 0xD1B54A32D192ED03ULL));
    for (cl_uint K = 0; K < Pairs; ++K) {
      const double X = nextUniform(State);
      const double Y = nextUniform(State);
      const double T = X * X + Y * Y;
      if (T <= 1.0 && T > 0.0) {
        const double F = std::sqrt(-2.0 * std::log(T) / T);
        const double GX = X * F, GY = Y * F;
        R.SumX += GX;
        R.SumY += GY;
        R.AbsSum += std::fabs(GX) + std::fabs(GY);
        const double M = std::max(std::fabs(GX), std::fabs(GY));
        R.Counts[std::min(static_cast<size_t>(M), Annuli - 1)] += 1;
      }
    }
  }
  return R;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv,
                    "[--groups WORK_GROUPS] [--pairs PAIRS_PER_ITEM] [--iterations LAUNCHES]");
  const long Groups = Opts.integer("groups", 256);
  const long PairsArg = Opts.integer("pairs", 1024);
  const long Iterations = Opts.integer("iterations", 10);
  if (Groups == 0 || Groups > (1L << 20))
    app::fail("--groups must be between 1 and 2^20");
  if (PairsArg == 0 || PairsArg > (1L << 24))
    app::fail("--pairs must be between 1 and 2^24");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  const cl_uint Pairs = static_cast<cl_uint>(PairsArg);
  const size_t NumGroups = static_cast<size_t>(Groups);

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue =
      clCreateCommandQueue(Context, Choice.Device, CL_QUEUE_PROFILING_ENABLE, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  // Slots start as NaN / all ones, so a group that never wrote its slot cannot look right.
  std::vector<cl_double> Sums(2 * NumGroups, std::nan(""));
  std::vector<cl_uint> Counts(Annuli * NumGroups, 0xFFFFFFFFu);
  cl_mem BufSums = clCreateBuffer(Context, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR,
                                  sizeof(cl_double) * Sums.size(), Sums.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(sums)");
  cl_mem BufCounts = clCreateBuffer(Context, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR,
                                    sizeof(cl_uint) * Counts.size(), Counts.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(counts)");

  const std::string BuildOptions = "-DLOCAL_SIZE=" + std::to_string(LocalSize);
  cl_program Program =
      app::buildProgram(Context, Choice.Device, KernelSource, BuildOptions.c_str());
  cl_kernel Kernel = clCreateKernel(Program, "ep_pairs", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_uint), &Pairs));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufSums));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_mem), &BufCounts));

  // Which groups the reference recomputes (see ReferencePairBudget).
  const double PairsPerGroup = static_cast<double>(Pairs) * LocalSize;
  const double TotalGroups = static_cast<double>(NumGroups) * static_cast<double>(Iterations);
  const size_t Stride = static_cast<size_t>(
      std::max(1.0, std::ceil(TotalGroups * PairsPerGroup / ReferencePairBudget)));

  std::vector<double> Result(PerLaunch * static_cast<size_t>(Iterations), std::nan(""));
  const size_t Global = NumGroups * LocalSize;
  cl_ulong KernelNs = 0;
  double MaxSumError = 0.0;
  uint64_t MaxCountError = 0, Checked = 0, Accepted = 0;
  double ReferenceSeconds = 0.0;
  app::Stopwatch Timer;
  for (long It = 0; It < Iterations; ++It) {
    const cl_ulong Seed = launchSeed(It);
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_ulong), &Seed));
    cl_event Event = nullptr;
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &LocalSize, 0, nullptr, &Event));
    CL_CHECK(clEnqueueReadBuffer(Queue, BufSums, CL_FALSE, 0, sizeof(cl_double) * Sums.size(),
                                 Sums.data(), 0, nullptr, nullptr));
    CL_CHECK(clEnqueueReadBuffer(Queue, BufCounts, CL_TRUE, 0, sizeof(cl_uint) * Counts.size(),
                                 Counts.data(), 0, nullptr, nullptr));
    cl_ulong Start = 0, End = 0;
    CL_CHECK(
        clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_START, sizeof(Start), &Start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr));
    KernelNs += End - Start;
    CL_CHECK(clReleaseEvent(Event));

    // The host's part of the reduction: the groups' partials, in group order.
    double *Out = &Result[PerLaunch * static_cast<size_t>(It)];
    double SumX = 0.0, SumY = 0.0;
    uint64_t Total[Annuli] = {};
    for (size_t G = 0; G < NumGroups; ++G) {
      SumX += Sums[2 * G];
      SumY += Sums[2 * G + 1];
      for (size_t A = 0; A < Annuli; ++A)
        Total[A] += Counts[Annuli * G + A];
    }
    Out[0] = SumX;
    Out[1] = SumY;
    for (size_t A = 0; A < Annuli; ++A) {
      Out[2 + A] = static_cast<double>(Total[A]);
      Accepted += Total[A];
    }

    // The check, on this launch's sample of groups (always including the last group).
    app::Stopwatch RefTimer;
    const size_t Phase = static_cast<size_t>(It) % Stride;
    for (size_t G = 0; G < NumGroups; ++G) {
      if (G % Stride != Phase && G + 1 != NumGroups)
        continue;
      const GroupResult Ref = referenceGroup(Seed, G, Pairs);
      const double Scale = Ref.AbsSum + 1.0;
      for (int K = 0; K < 2; ++K) {
        const double Got = Sums[2 * G + K], Want = K == 0 ? Ref.SumX : Ref.SumY;
        const double Error = std::fabs(Got - Want) / Scale;
        if (std::isnan(Error) || Error > MaxSumError)
          MaxSumError = std::isnan(Error) ? INFINITY : Error;
      }
      // A pair exactly on an annulus border may land on either side after log and sqrt
      // rounding, so a couple of counts may move between neighbours; no more.
      uint64_t CountError = 0;
      for (size_t A = 0; A < Annuli; ++A) {
        const uint64_t Got = Counts[Annuli * G + A], Want = Ref.Counts[A];
        CountError += Got > Want ? Got - Want : Want - Got;
      }
      MaxCountError = std::max(MaxCountError, CountError);
      ++Checked;
    }
    ReferenceSeconds += RefTimer.seconds();
  }
  const double Seconds = Timer.seconds() - ReferenceSeconds;

  // pi/4 of the pairs fall inside the unit circle; anything far off means missing groups.
  const double Drawn = TotalGroups * PairsPerGroup;
  const double AcceptRatio = static_cast<double>(Accepted) / Drawn;
  const bool Correct = Checked > 0 && MaxSumError <= 1e-10 && MaxCountError <= 2 &&
                       std::fabs(AcceptRatio - 0.7853981633974483) < 0.01;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufSums);
  clReleaseMemObject(BufCounts);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[320];
  std::snprintf(Detail, sizeof(Detail),
                "%zu groups x %zu items x %u pairs, %ld launches, kernel time %.6f s (profiling), "
                "%llu groups checked (stride %zu), max rel error sums %.3g, max count error %llu, "
                "accepted %.5f",
                NumGroups, LocalSize, Pairs, Iterations, static_cast<double>(KernelNs) * 1e-9,
                static_cast<unsigned long long>(Checked), Stride, MaxSumError,
                static_cast<unsigned long long>(MaxCountError), AcceptRatio);
  return app::report("ep", Correct, Choice, Seconds, Detail);
}
