// All-pairs gravitational N-body, one work-item per body, in the style of the classic GPU Gems /
// vendor SDK sample: positions are float4 (xyz + mass in w), the kernel walks over all bodies in
// tiles staged through __local memory (size given with clSetKernelArg(..., NULL)), and each step
// is a symplectic Euler update. Masses are non-uniform: a few heavy bodies among many light ones.
// The host keeps two position buffers and swaps them between launches with clSetKernelArg, waits
// for every launch with clWaitForEvents, and reads the kernel time with clGetEventProfilingInfo
// from a queue created with CL_QUEUE_PROFILING_ENABLE. The local size is explicit and N need not
// be a multiple of it (the global size is padded and the kernel guards).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

static const char *KernelSource = R"CLC(
__kernel void nbody_step(__global const float4 *pos_in, __global float4 *pos_out,
                         __global float4 *vel, const uint n, const float dt, const float eps2,
                         __local float4 *tile) {
  const uint i = get_global_id(0);
  const uint lid = get_local_id(0);
  const uint lsize = get_local_size(0);
  // Padding work-items still help load the tiles and reach every barrier.
  const float4 p = i < n ? pos_in[i] : (float4)(0.0f);
  float3 acc = (float3)(0.0f);

  for (uint base = 0; base < n; base += lsize) {
    const uint j = base + lid;
    tile[lid] = j < n ? pos_in[j] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint count = min(lsize, n - base);
    for (uint k = 0; k < count; ++k) {
      const float4 q = tile[k];
      const float3 d = q.xyz - p.xyz;
      const float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps2;
      const float inv = rsqrt(r2);
      const float s = q.w * inv * inv * inv;
      acc += d * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (i < n) {
    float4 v = vel[i];
    v.xyz += acc * dt;
    vel[i] = v;
    pos_out[i] = (float4)(p.xyz + v.xyz * dt, p.w);
  }
}
)CLC";

constexpr size_t LocalSize = 64;
constexpr float Dt = 0.005f;
// Softening of 0.1 (squared here) keeps close encounters with the heavy bodies smooth, which is
// also what keeps the device and the reference from drifting apart for a few hundred steps.
constexpr float Eps2 = 0.01f;
// Error = |state_i - reference_i| / max_j |reference_j|, separately for positions and velocities
// (normwise, because a body near the origin or at rest makes a per-body relative error
// meaningless). Each step differs from the reference only by rounding: rsqrt may be a few ulp off
// 1/sqrt and a device may contract multiply-adds. Close passes amplify such differences, so the
// error grows faster than linearly with the step count: on PoCL it is ~2e-7 after 20 steps and
// ~1e-5 after 300, but 6e-3 after 1000 (the system turns chaotic). Hence the step limit, below
// which 1e-3 leaves two orders of magnitude of margin for devices that round differently.
constexpr double Tolerance = 1e-3;
constexpr long MaxSteps = 300;

// Fixed-seed 64-bit LCG (Knuth's MMIX constants), so every run starts from the same bodies.
static cl_uint nextRandom(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<cl_uint>(State >> 33);
}

// Uniform in [0, 1) with 24 random bits, exactly representable as a float.
static float randomUnit(uint64_t &State) {
  return static_cast<float>(nextRandom(State) & 0xFFFFFF) * (1.0f / 16777216.0f);
}

struct Float4 {
  float X, Y, Z, W;
};

// The same step as the kernel, in the same operation order, on the host.
static void referenceStep(const std::vector<Float4> &PosIn, std::vector<Float4> &PosOut,
                          std::vector<Float4> &Vel) {
  const size_t N = PosIn.size();
  for (size_t I = 0; I < N; ++I) {
    const Float4 P = PosIn[I];
    float AccX = 0.0f, AccY = 0.0f, AccZ = 0.0f;
    for (size_t J = 0; J < N; ++J) {
      const Float4 Q = PosIn[J];
      const float DX = Q.X - P.X, DY = Q.Y - P.Y, DZ = Q.Z - P.Z;
      const float R2 = DX * DX + DY * DY + DZ * DZ + Eps2;
      const float Inv = 1.0f / std::sqrt(R2);
      const float S = Q.W * Inv * Inv * Inv;
      AccX += DX * S;
      AccY += DY * S;
      AccZ += DZ * S;
    }
    Float4 &V = Vel[I];
    V.X += AccX * Dt;
    V.Y += AccY * Dt;
    V.Z += AccZ * Dt;
    PosOut[I] = {P.X + V.X * Dt, P.Y + V.Y * Dt, P.Z + V.Z * Dt, P.W};
  }
}

// Largest |Got_i - Ref_i| over the largest |Ref_j|, on the xyz parts of float4 arrays.
static double normwiseError(const float *Got, const std::vector<Float4> &Ref) {
  double MaxNorm = 0.0, MaxDiff = 0.0;
  for (size_t I = 0; I < Ref.size(); ++I) {
    const double RX = Ref[I].X, RY = Ref[I].Y, RZ = Ref[I].Z;
    const double DX = Got[4 * I] - RX, DY = Got[4 * I + 1] - RY, DZ = Got[4 * I + 2] - RZ;
    MaxNorm = std::max(MaxNorm, std::sqrt(RX * RX + RY * RY + RZ * RZ));
    const double Diff = std::sqrt(DX * DX + DY * DY + DZ * DZ);
    if (std::isnan(Diff) || Diff > MaxDiff)
      MaxDiff = Diff;
    if (Got[4 * I + 3] != Ref[I].W)
      MaxDiff = std::nan("");
  }
  return MaxNorm > 0.0 ? MaxDiff / MaxNorm : MaxDiff;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n BODIES] [--iterations STEPS]");
  const long NArg = Opts.integer("n", 4096);
  const long Iterations = Opts.integer("iterations", 20);
  if (NArg == 0 || NArg >= (1L << 24))
    app::fail("--n must be between 1 and 2^24 - 1");
  if (Iterations > MaxSteps)
    app::fail("--iterations must be at most 300 (the check against the reference needs it)");
  const cl_uint N = static_cast<cl_uint>(NArg);

  // Bodies in the cube [-1, 1)^3 with small random velocities; about one in a hundred is 100
  // times heavier than the rest, and the total mass is of order 2 whatever N is.
  uint64_t Seed = 4242;
  std::vector<Float4> Pos(N), Vel(N);
  for (cl_uint I = 0; I < N; ++I) {
    Pos[I].X = 2.0f * randomUnit(Seed) - 1.0f;
    Pos[I].Y = 2.0f * randomUnit(Seed) - 1.0f;
    Pos[I].Z = 2.0f * randomUnit(Seed) - 1.0f;
    const bool Heavy = nextRandom(Seed) % 100 == 0;
    Pos[I].W = (Heavy ? 100.0f : 1.0f) * (0.5f + randomUnit(Seed)) / static_cast<float>(N);
    Vel[I] = {0.1f * randomUnit(Seed) - 0.05f, 0.1f * randomUnit(Seed) - 0.05f,
              0.1f * randomUnit(Seed) - 0.05f, 0.0f};
  }
  // Positions then velocities, as float4 each.
  std::vector<float> Result(8 * static_cast<size_t>(N), std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue =
      clCreateCommandQueue(Context, Choice.Device, CL_QUEUE_PROFILING_ENABLE, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(Float4) * N;
  cl_mem BufPos[2];
  BufPos[0] =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Pos.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(pos0)");
  BufPos[1] = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(pos1)");
  cl_mem BufVel =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Vel.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(vel)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "nbody_step", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufVel));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Kernel, 4, sizeof(float), &Dt));
  CL_CHECK(clSetKernelArg(Kernel, 5, sizeof(float), &Eps2));
  CL_CHECK(clSetKernelArg(Kernel, 6, sizeof(cl_float4) * LocalSize, nullptr));

  const size_t Global = (N + LocalSize - 1) / LocalSize * LocalSize;
  int Current = 0;
  cl_ulong KernelNs = 0;
  app::Stopwatch Timer;
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufPos[Current]));
    CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufPos[1 - Current]));
    cl_event Event = nullptr;
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &LocalSize, 0, nullptr, &Event));
    CL_CHECK(clWaitForEvents(1, &Event));
    cl_ulong Start = 0, End = 0;
    CL_CHECK(
        clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_START, sizeof(Start), &Start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr));
    KernelNs += End - Start;
    CL_CHECK(clReleaseEvent(Event));
    Current = 1 - Current;
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufPos[Current], CL_TRUE, 0, Bytes, Result.data(), 0, nullptr,
                               nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufVel, CL_TRUE, 0, Bytes, Result.data() + 4 * N, 0, nullptr,
                               nullptr));
  const double Seconds = Timer.seconds();

  std::vector<Float4> RefPos = Pos, RefNext(N), RefVel = Vel;
  for (long It = 0; It < Iterations; ++It) {
    referenceStep(RefPos, RefNext, RefVel);
    RefPos.swap(RefNext);
  }
  const double PosError = normwiseError(Result.data(), RefPos);
  const double VelError = normwiseError(Result.data() + 4 * N, RefVel);
  const bool Correct = PosError <= Tolerance && VelError <= Tolerance;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufPos[0]);
  clReleaseMemObject(BufPos[1]);
  clReleaseMemObject(BufVel);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%u bodies, %ld steps, kernel time %.6f s (profiling), max rel error position "
                "%.3g velocity %.3g",
                N, Iterations, static_cast<double>(KernelNs) * 1e-9, PosError, VelError);
  return app::report("nbody", Correct, Choice, Seconds, Detail);
}
