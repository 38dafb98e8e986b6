// Monte Carlo pricing of European call options under Black-Scholes, one work-group per option
// (in the style of the vendor SDK MonteCarlo samples): each work-item simulates its share of the
// option's paths from its own 64-bit LCG stream with Box-Muller normals, accumulates the
// discounted payoff and its square in float, and the work-group reduces them in __local memory
// (a fixed-order tree, no atomics) into the option's slot of the output. The option parameters
// go in through a buffer made with CL_MEM_COPY_HOST_PTR; each launch uses a new seed and the host
// reads the partial sums back after every launch. Compute-bound: exp, log, sqrt, sin and cos per
// pair of paths, a few bytes per option.
//
// Output file: per launch, per option, the sum and the sum of squares of the discounted payoffs
// (f32). The check recomputes the sums of a sample of options on the host with the same streams,
// and compares every option's price, averaged over the launches, with the Black-Scholes formula
// (within 5 standard errors).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
// The host reference does the same arithmetic without contraction.
#pragma OPENCL FP_CONTRACT OFF

ulong mix64(ulong z) {
  z += 0x9E3779B97F4A7C15UL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
  return z ^ (z >> 31);
}

// Knuth's MMIX LCG; 24 high bits as a float in (0, 1].
float next_uniform(ulong *state) {
  *state = *state * 6364136223846793005UL + 1442695040888963407UL;
  return (float)((uint)(*state >> 40) + 1u) * 0x1.0p-24f;
}

// opts[g] = (spot, strike, years, volatility)
__kernel void mc_price(__global const float4 *opts, const float rate, const uint pairs,
                       const ulong seed, __global float2 *sums) {
  __local float lsum[LOCAL_SIZE];
  __local float lsq[LOCAL_SIZE];
  const uint lid = get_local_id(0);
  const float4 o = opts[get_group_id(0)];
  const float drift = (rate - 0.5f * o.w * o.w) * o.z;
  const float vol = o.w * sqrt(o.z);
  const float discount = exp(-rate * o.z);
  ulong state = mix64(seed ^ ((ulong)get_global_id(0) * 0xD1B54A32D192ED03UL));
  float s = 0.0f, sq = 0.0f;
  for (uint p = 0; p < pairs; ++p) {
    const float u1 = next_uniform(&state);
    const float u2 = next_uniform(&state);
    const float r = sqrt(-2.0f * log(u1));
    const float a = 6.2831853f * u2;
    const float z[2] = {r * cos(a), r * sin(a)};
    for (int k = 0; k < 2; ++k) {
      const float pay = discount * fmax(o.x * exp(drift + vol * z[k]) - o.y, 0.0f);
      s += pay;
      sq += pay * pay;
    }
  }
  lsum[lid] = s;
  lsq[lid] = sq;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = LOCAL_SIZE / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      lsum[lid] += lsum[lid + stride];
      lsq[lid] += lsq[lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = (float2)(lsum[0], lsq[0]);
}
)CLC";

// Power of two (the tree reduction halves it).
constexpr size_t LocalSize = 64;
constexpr float Rate = 0.03f;
// The reference recomputes at most this many path pairs (a strided sample of options whose
// phase moves from launch to launch, always including the last option).
constexpr double ReferencePairBudget = 1 << 20;

static uint64_t mix64(uint64_t Z) {
  Z += 0x9E3779B97F4A7C15ULL;
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
  return Z ^ (Z >> 31);
}

static float nextUniform(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<float>(static_cast<uint32_t>(State >> 40) + 1u) * 0x1.0p-24f;
}

static uint64_t launchSeed(long Launch) {
  return 314159265358ULL + 7919ULL * static_cast<uint64_t>(Launch);
}

struct Option {
  float Spot, Strike, Years, Vol;
};

// One work-group of the kernel on the host, in float like the kernel; sums in double (the
// device's tree order differs, hence the tolerance).
static void referenceOption(const Option &O, uint64_t Seed, size_t Group, cl_uint Pairs,
                            double &Sum, double &SumSq) {
  const float Drift = (Rate - 0.5f * O.Vol * O.Vol) * O.Years;
  const float Vol = O.Vol * std::sqrt(O.Years);
  const float Discount = std::exp(-Rate * O.Years);
  Sum = SumSq = 0.0;
  for (size_t L = 0; L < LocalSize; ++L) {
    const uint64_t Gid = Group * LocalSize + L;
    uint64_t State = mix64(Seed ^ (Gid * 0xD1B54A32D192ED03ULL));
    for (cl_uint P = 0; P < Pairs; ++P) {
      const float U1 = nextUniform(State);
      const float U2 = nextUniform(State);
      const float R = std::sqrt(-2.0f * std::log(U1));
      const float A = 6.2831853f * U2;
      const float Z[2] = {R * std::cos(A), R * std::sin(A)};
      for (float ZK : Z) {
        const float Pay = Discount * std::max(O.Spot * std::exp(Drift + Vol * ZK) - O.Strike, 0.0f);
        Sum += Pay;
        SumSq += static_cast<double>(Pay) * Pay;
      }
    }
  }
}

static double blackScholesCall(const Option &O) {
  const double S = O.Spot, K = O.Strike, T = O.Years, V = O.Vol, R = Rate;
  const double D1 = (std::log(S / K) + (R + 0.5 * V * V) * T) / (V * std::sqrt(T));
  const double D2 = D1 - V * std::sqrt(T);
  auto Phi = [](double X) { return 0.5 * std::erfc(-X / std::sqrt(2.0)); };
  return S * Phi(D1) - K * std::exp(-R * T) * Phi(D2);
}

// Fixed-seed 64-bit LCG, so every run prices the same options.
static float randomUnit(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<float>(State >> 40) * 0x1.0p-24f;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv,
                    "[--options OPTIONS] [--pairs PATH_PAIRS_PER_ITEM] [--iterations LAUNCHES]");
  const long OptionsArg = Opts.integer("options", 256);
  const long PairsArg = Opts.integer("pairs", 128);
  const long Iterations = Opts.integer("iterations", 10);
  if (OptionsArg == 0 || OptionsArg > (1L << 20))
    app::fail("--options must be between 1 and 2^20");
  if (PairsArg == 0 || PairsArg > (1L << 20))
    app::fail("--pairs must be between 1 and 2^20");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  const size_t NumOptions = static_cast<size_t>(OptionsArg);
  const cl_uint Pairs = static_cast<cl_uint>(PairsArg);

  uint64_t Seed = 161803;
  std::vector<Option> Opt(NumOptions);
  for (Option &O : Opt) {
    O.Spot = 50.0f + 100.0f * randomUnit(Seed);
    O.Strike = O.Spot * (0.8f + 0.4f * randomUnit(Seed));
    O.Years = 0.25f + 2.0f * randomUnit(Seed);
    O.Vol = 0.1f + 0.4f * randomUnit(Seed);
  }

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue =
      clCreateCommandQueue(Context, Choice.Device, CL_QUEUE_PROFILING_ENABLE, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  cl_mem BufOpts = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  sizeof(Option) * NumOptions, Opt.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(options)");
  std::vector<cl_float2> Sums(NumOptions);
  for (cl_float2 &S : Sums)
    S.s[0] = S.s[1] = std::nanf("");
  cl_mem BufSums = clCreateBuffer(Context, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR,
                                  sizeof(cl_float2) * NumOptions, Sums.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(sums)");

  const std::string BuildOptions = "-DLOCAL_SIZE=" + std::to_string(LocalSize);
  cl_program Program =
      app::buildProgram(Context, Choice.Device, KernelSource, BuildOptions.c_str());
  cl_kernel Kernel = clCreateKernel(Program, "mc_price", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufOpts));
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(float), &Rate));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_uint), &Pairs));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(cl_mem), &BufSums));

  const double PairsPerOption = static_cast<double>(Pairs) * LocalSize;
  const double Total = static_cast<double>(NumOptions) * static_cast<double>(Iterations);
  const size_t Stride =
      static_cast<size_t>(std::max(1.0, std::ceil(Total * PairsPerOption / ReferencePairBudget)));

  std::vector<float> Result(2 * NumOptions * static_cast<size_t>(Iterations), std::nanf(""));
  std::vector<double> PriceSum(NumOptions, 0.0), SqSum(NumOptions, 0.0);
  const size_t Global = NumOptions * LocalSize;
  cl_ulong KernelNs = 0;
  double MaxError = 0.0, ReferenceSeconds = 0.0;
  size_t Checked = 0;
  app::Stopwatch Timer;
  for (long It = 0; It < Iterations; ++It) {
    const cl_ulong LaunchSeed = launchSeed(It);
    CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_ulong), &LaunchSeed));
    cl_event Event = nullptr;
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &LocalSize, 0, nullptr, &Event));
    CL_CHECK(clEnqueueReadBuffer(Queue, BufSums, CL_TRUE, 0, sizeof(cl_float2) * NumOptions,
                                 Sums.data(), 0, nullptr, nullptr));
    cl_ulong Start = 0, End = 0;
    CL_CHECK(
        clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_START, sizeof(Start), &Start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr));
    KernelNs += End - Start;
    CL_CHECK(clReleaseEvent(Event));

    for (size_t G = 0; G < NumOptions; ++G) {
      float *Out = &Result[2 * (NumOptions * static_cast<size_t>(It) + G)];
      Out[0] = Sums[G].s[0];
      Out[1] = Sums[G].s[1];
      PriceSum[G] += Sums[G].s[0];
      SqSum[G] += Sums[G].s[1];
    }

    app::Stopwatch RefTimer;
    const size_t Phase = static_cast<size_t>(It) % Stride;
    for (size_t G = 0; G < NumOptions; ++G) {
      if (G % Stride != Phase && G + 1 != NumOptions)
        continue;
      double Sum = 0.0, SumSq = 0.0;
      referenceOption(Opt[G], LaunchSeed, G, Pairs, Sum, SumSq);
      const double Errors[2] = {std::fabs(Sums[G].s[0] - Sum) / std::max(Sum, 1e-6),
                                std::fabs(Sums[G].s[1] - SumSq) / std::max(SumSq, 1e-6)};
      for (double E : Errors)
        MaxError = std::isnan(E) ? INFINITY : std::max(MaxError, E);
      ++Checked;
    }
    ReferenceSeconds += RefTimer.seconds();
  }
  const double Seconds = Timer.seconds() - ReferenceSeconds;

  // Every option's price over all launches against the closed form: within 5 standard errors
  // (plus a cent for the float arithmetic); a group that never ran is NaN and fails this.
  const double Paths = 2.0 * PairsPerOption * static_cast<double>(Iterations);
  double WorstSigmas = 0.0;
  for (size_t G = 0; G < NumOptions; ++G) {
    const double Mean = PriceSum[G] / Paths;
    const double StdErr = std::sqrt(std::max(SqSum[G] / Paths - Mean * Mean, 0.0) / Paths);
    const double Sigmas = std::fabs(Mean - blackScholesCall(Opt[G])) / (StdErr + 0.01);
    WorstSigmas = std::isnan(Sigmas) ? INFINITY : std::max(WorstSigmas, Sigmas);
  }
  const bool Correct = Checked > 0 && MaxError <= 1e-4 && WorstSigmas <= 5.0;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufOpts);
  clReleaseMemObject(BufSums);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[300];
  std::snprintf(Detail, sizeof(Detail),
                "%zu options x %zu items x %u path pairs, %ld launches, kernel time %.6f s "
                "(profiling), %zu options checked (stride %zu), max rel error %.3g, worst "
                "distance to Black-Scholes %.2f standard errors",
                NumOptions, LocalSize, Pairs, Iterations, static_cast<double>(KernelNs) * 1e-9,
                Checked, Stride, MaxError, WorstSigmas);
  return app::report("montecarlo", Correct, Choice, Seconds, Detail);
}
