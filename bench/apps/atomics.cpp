// Statistics of N 32-bit values through every kind of global atomic OpenCL 1.2 has, then a
// stream compaction. `tally` updates, per value: a 256-bin histogram (atomic_inc, never reset,
// so it accumulates over the launches), four down-counters (atomic_dec from 0: they wrap), one
// record with a field per operation (add and sub on one field, signed and unsigned min and max,
// or, and, xor), bit sets at value-dependent words (atomic_or) and parities at
// work-item-dependent words (atomic_xor), and, where the device has the 64-bit atomics
// extensions, a ulong sum (atom_add) and a long maximum (atom_max). No atomic's result is used.
// `compact` then copies the values divisible by 7 to slots handed out by atomic_inc (its result
// used: the order depends on the schedule, so the host sorts them). The launches leave the local
// size to the implementation; the record and the compaction counter are reset with
// clEnqueueWriteBuffer before each launch.
#include "common/app_common.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

static const char *KernelSource = R"CLC(
#define BINS 256

__kernel void tally(__global const uint *in, const uint n, __global uint *hist,
                    __global uint *down, __global int *stats, __global uint *seen,
                    __global uint *parity
#ifdef WIDE_ATOMICS
                    , __global ulong *squares, __global long *widest
#endif
                    ) {
  const uint i = get_global_id(0);
  if (i >= n)
    return;
  const uint v = in[i];
  atomic_inc(&hist[v % BINS]);
  atomic_dec(&down[v & 3]);
  atomic_add(&stats[0], (int)(v & 255));
  atomic_sub(&stats[0], (int)(v & 15));
  atomic_min(&stats[1], (int)v);
  atomic_max(&stats[2], (int)v);
  atomic_min((volatile __global uint *)&stats[3], v);
  atomic_max((volatile __global uint *)&stats[4], v);
  atomic_or(&stats[5], (int)(1u << (v >> 27)));
  atomic_and(&stats[6], (int)~(1u << (v & 31)));
  atomic_xor(&stats[7], (int)v);
  atomic_or(&seen[(v >> 8) & 31], 1u << (v & 31));
  atomic_xor(&parity[i & 15], v);
#ifdef WIDE_ATOMICS
  atom_add(squares, (ulong)v * v);
  atom_max(widest, (long)(int)v * 4099);
#endif
}

__kernel void compact(__global const uint *in, const uint n, __global uint *picked,
                      __global uint *count) {
  const uint i = get_global_id(0);
  if (i < n && in[i] % 7 == 0)
    picked[atomic_inc(count)] = in[i];
}
)CLC";

constexpr size_t Bins = 256, Downs = 4, Fields = 8, Words = 32, Parities = 16;

// Fixed-seed 64-bit LCG (Knuth's MMIX constants), so every run sees the same input.
static cl_uint nextRandom(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<cl_uint>(State >> 32);
}

static bool hasExtension(cl_device_id Device, const char *Name) {
  size_t Size = 0;
  CL_CHECK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, 0, nullptr, &Size));
  std::string Extensions(Size, '\0');
  CL_CHECK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, Size, Extensions.data(), nullptr));
  return (" " + Extensions + " ").find(std::string(" ") + Name + " ") != std::string::npos;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n VALUES] [--iterations LAUNCHES]");
  const long NArg = Opts.integer("n", 1 << 20);
  const long Iterations = Opts.integer("iterations", 1);
  if (NArg == 0 || NArg > INT_MAX)
    app::fail("--n must be between 1 and INT_MAX");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  const cl_uint N = static_cast<cl_uint>(NArg);

  std::vector<cl_uint> In(N);
  uint64_t Seed = 20240917;
  for (cl_uint &V : In)
    V = nextRandom(Seed);

  app::DeviceChoice Choice = app::pickDevice(Opts);
  const bool Wide = hasExtension(Choice.Device, "cl_khr_int64_base_atomics") &&
                    hasExtension(Choice.Device, "cl_khr_int64_extended_atomics");
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  auto buffer = [&](cl_mem_flags Flags, size_t Bytes, void *Host, const char *What) {
    cl_mem Buffer = clCreateBuffer(Context, Flags, Bytes, Host, &Err);
    CL_CHECK_ERR(Err, What);
    return Buffer;
  };
  const cl_uint Zeros[Bins] = {};
  cl_mem BufIn = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(cl_uint) * N, In.data(),
                        "clCreateBuffer(in)");
  cl_mem BufHist = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_uint) * Bins,
                          const_cast<cl_uint *>(Zeros), "clCreateBuffer(hist)");
  cl_mem BufDown = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_uint) * Downs,
                          const_cast<cl_uint *>(Zeros), "clCreateBuffer(down)");
  cl_mem BufStats =
      buffer(CL_MEM_READ_WRITE, sizeof(cl_int) * Fields, nullptr, "clCreateBuffer(stats)");
  cl_mem BufSeen = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_uint) * Words,
                          const_cast<cl_uint *>(Zeros), "clCreateBuffer(seen)");
  cl_mem BufParity = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_uint) * Parities,
                            const_cast<cl_uint *>(Zeros), "clCreateBuffer(parity)");
  cl_mem BufSquares =
      buffer(CL_MEM_READ_WRITE, sizeof(cl_ulong), nullptr, "clCreateBuffer(squares)");
  cl_mem BufWidest = buffer(CL_MEM_READ_WRITE, sizeof(cl_long), nullptr, "clCreateBuffer(widest)");
  cl_mem BufPicked =
      buffer(CL_MEM_READ_WRITE, sizeof(cl_uint) * N, nullptr, "clCreateBuffer(picked)");
  cl_mem BufCount = buffer(CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, "clCreateBuffer(count)");

  cl_program Program =
      app::buildProgram(Context, Choice.Device, KernelSource, Wide ? "-DWIDE_ATOMICS" : "");
  cl_kernel Tally = clCreateKernel(Program, "tally", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(tally)");
  cl_kernel Compact = clCreateKernel(Program, "compact", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(compact)");
  const cl_mem TallyBuffers[] = {BufHist,   BufDown,    BufStats, BufSeen,
                                 BufParity, BufSquares, BufWidest};
  CL_CHECK(clSetKernelArg(Tally, 0, sizeof(cl_mem), &BufIn));
  CL_CHECK(clSetKernelArg(Tally, 1, sizeof(cl_uint), &N));
  for (cl_uint I = 0; I < (Wide ? 7u : 5u); ++I)
    CL_CHECK(clSetKernelArg(Tally, 2 + I, sizeof(cl_mem), &TallyBuffers[I]));
  CL_CHECK(clSetKernelArg(Compact, 0, sizeof(cl_mem), &BufIn));
  CL_CHECK(clSetKernelArg(Compact, 1, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Compact, 2, sizeof(cl_mem), &BufPicked));
  CL_CHECK(clSetKernelArg(Compact, 3, sizeof(cl_mem), &BufCount));

  // The identity of each record field's operation.
  const cl_int StatsStart[Fields] = {0, INT_MAX, INT_MIN, -1, 0, 0, -1, 0};
  const cl_ulong SquaresStart = 0;
  const cl_long WidestStart = LLONG_MIN;
  const cl_uint CountStart = 0;
  const size_t Global = (N + 63) / 64 * 64;

  app::Stopwatch Timer;
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clEnqueueWriteBuffer(Queue, BufStats, CL_FALSE, 0, sizeof(StatsStart), StatsStart, 0,
                                  nullptr, nullptr));
    CL_CHECK(clEnqueueWriteBuffer(Queue, BufSquares, CL_FALSE, 0, sizeof(SquaresStart),
                                  &SquaresStart, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueWriteBuffer(Queue, BufWidest, CL_FALSE, 0, sizeof(WidestStart), &WidestStart,
                                  0, nullptr, nullptr));
    CL_CHECK(clEnqueueWriteBuffer(Queue, BufCount, CL_FALSE, 0, sizeof(CountStart), &CountStart, 0,
                                  nullptr, nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Tally, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Compact, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
  }
  std::vector<cl_uint> Hist(Bins), Down(Downs), Seen(Words), Parity(Parities);
  std::vector<cl_int> Stats(Fields);
  cl_ulong Squares = 0;
  cl_long Widest = 0;
  cl_uint Count = 0;
  CL_CHECK(clEnqueueReadBuffer(Queue, BufHist, CL_FALSE, 0, sizeof(cl_uint) * Bins, Hist.data(), 0,
                               nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufDown, CL_FALSE, 0, sizeof(cl_uint) * Downs, Down.data(), 0,
                               nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufStats, CL_FALSE, 0, sizeof(cl_int) * Fields, Stats.data(),
                               0, nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufSeen, CL_FALSE, 0, sizeof(cl_uint) * Words, Seen.data(), 0,
                               nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufParity, CL_FALSE, 0, sizeof(cl_uint) * Parities,
                               Parity.data(), 0, nullptr, nullptr));
  if (Wide) {
    CL_CHECK(clEnqueueReadBuffer(Queue, BufSquares, CL_FALSE, 0, sizeof(Squares), &Squares, 0,
                                 nullptr, nullptr));
    CL_CHECK(clEnqueueReadBuffer(Queue, BufWidest, CL_FALSE, 0, sizeof(Widest), &Widest, 0, nullptr,
                                 nullptr));
  }
  CL_CHECK(
      clEnqueueReadBuffer(Queue, BufCount, CL_TRUE, 0, sizeof(Count), &Count, 0, nullptr, nullptr));
  std::vector<cl_uint> Picked(std::min<cl_uint>(Count, N));
  if (!Picked.empty())
    CL_CHECK(clEnqueueReadBuffer(Queue, BufPicked, CL_TRUE, 0, sizeof(cl_uint) * Picked.size(),
                                 Picked.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();
  std::sort(Picked.begin(), Picked.end()); // slots are handed out in schedule order

  // The reference: the same updates, in order, on the host.
  std::vector<cl_uint> ExpectHist(Bins, 0), ExpectDown(Downs, 0), ExpectSeen(Words, 0),
      ExpectParity(Parities, 0);
  std::vector<cl_int> ExpectStats(StatsStart, StatsStart + Fields);
  cl_ulong ExpectSquares = 0;
  cl_long ExpectWidest = LLONG_MIN;
  std::vector<cl_uint> ExpectPicked;
  std::uint32_t Sum = 0;
  for (cl_uint I = 0; I < N; ++I) {
    const cl_uint V = In[I];
    ExpectHist[V % Bins] += static_cast<cl_uint>(Iterations);
    ExpectDown[V & 3] -= static_cast<cl_uint>(Iterations);
    Sum += (V & 255) - (V & 15);
    ExpectStats[1] = std::min(ExpectStats[1], static_cast<cl_int>(V));
    ExpectStats[2] = std::max(ExpectStats[2], static_cast<cl_int>(V));
    ExpectStats[3] = static_cast<cl_int>(std::min(static_cast<cl_uint>(ExpectStats[3]), V));
    ExpectStats[4] = static_cast<cl_int>(std::max(static_cast<cl_uint>(ExpectStats[4]), V));
    ExpectStats[5] |= static_cast<cl_int>(1u << (V >> 27));
    ExpectStats[6] &= static_cast<cl_int>(~(1u << (V & 31)));
    ExpectStats[7] ^= static_cast<cl_int>(V);
    ExpectSeen[(V >> 8) & 31] |= 1u << (V & 31);
    if (Iterations % 2 == 1)
      ExpectParity[I & 15] ^= V;
    ExpectSquares += static_cast<cl_ulong>(V) * V;
    ExpectWidest = std::max(ExpectWidest, static_cast<cl_long>(static_cast<cl_int>(V)) * 4099);
    if (V % 7 == 0)
      ExpectPicked.push_back(V);
  }
  ExpectStats[0] = static_cast<cl_int>(Sum);
  std::sort(ExpectPicked.begin(), ExpectPicked.end());
  if (!Wide) {
    ExpectSquares = 0;
    ExpectWidest = 0;
  }

  // Output: every counter, then the compaction (count and sorted values), as u32.
  std::vector<cl_uint> Result;
  auto append = [&Result](const auto &Values) {
    for (auto V : Values)
      Result.push_back(static_cast<cl_uint>(V));
  };
  append(Hist);
  append(Down);
  append(Stats);
  append(Seen);
  append(Parity);
  append(std::vector<cl_ulong>{Squares & 0xFFFFFFFFu, Squares >> 32,
                               static_cast<cl_ulong>(Widest) & 0xFFFFFFFFu,
                               static_cast<cl_ulong>(Widest) >> 32});
  Result.push_back(Count);
  append(Picked);

  size_t Wrong = 0;
  auto check = [&Wrong](bool Ok) { Wrong += Ok ? 0 : 1; };
  check(Hist == ExpectHist);
  check(Down == ExpectDown);
  check(Stats == ExpectStats);
  check(Seen == ExpectSeen);
  check(Parity == ExpectParity);
  check(Squares == ExpectSquares);
  check(Widest == ExpectWidest);
  check(Picked == ExpectPicked);

  app::writeOutput(Opts, Result);
  for (cl_kernel K : {Tally, Compact})
    clReleaseKernel(K);
  clReleaseProgram(Program);
  for (cl_mem M : {BufIn, BufHist, BufDown, BufStats, BufSeen, BufParity, BufSquares, BufWidest,
                   BufPicked, BufCount})
    clReleaseMemObject(M);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return app::report("atomics", Wrong == 0, Choice, Seconds,
                     std::to_string(Wrong) + " wrong of 8 groups of counters, " +
                         std::to_string(Count) + " values picked" +
                         (Wide ? ", with 64-bit atomics" : ", no 64-bit atomics"));
}
