// Kernels with global atomics, whose per-device results libsplit combines: counters that
// accumulate over launches with host reads, writes and fills in between, a sub-buffer of a
// larger buffer (the bytes around it must stay as they were), a CL_MEM_USE_HOST_PTR buffer, an
// app offset, a 2D NDRange, a {min, max} record, and two kernels that must keep running as one
// launch: the same buffer passed both for atomics and for plain writes, and a compaction that
// uses atomic_inc's result. Every result is also checked against the host's.
#include "api_test.hpp"

#include <algorithm>
#include <climits>

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void count_mod(__global const uint *in, __global uint *bins, uint mod) {
  atomic_inc(&bins[in[get_global_id(0)] % mod]);
}
__kernel void extremes(__global const int *in, __global int *lohi) {
  int v = in[get_global_id(0)];
  atomic_min(&lohi[0], v);
  atomic_max(&lohi[1], v);
}
__kernel void marks(__global const uint *in, __global uint *flags, __global uint *out) {
  size_t i = get_global_id(0);
  atomic_or(&flags[0], 1u << (in[i] & 31));
  out[i + 1] = in[i] + 1u;
}
__kernel void grid_sum(__global const uint *in, __global uint *sums, uint pitch) {
  size_t x = get_global_id(0), y = get_global_id(1);
  atomic_add(&sums[y % 4], in[y * pitch + x]);
  atomic_sub(&sums[4 + x % 4], in[y * pitch + x] & 255u);
}
__kernel void pick(__global const uint *in, __global uint *out, __global uint *count) {
  uint v = in[get_global_id(0)];
  if (v & 1u)
    out[atomic_inc(count)] = v;
}
)CLC";

constexpr cl_uint Sentinel = 0xa5a5a5a5u;
constexpr size_t N = 20000;

std::vector<cl_uint> inputs() {
  std::vector<cl_uint> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = static_cast<cl_uint>(I * 2654435761u) ^ static_cast<cl_uint>(I >> 3);
  return In;
}

void verdict(const char *Name, cl_int Result, const std::vector<cl_uint> &Got,
             const std::vector<cl_uint> &Expected) {
  say("%s: %s, checksum %08x, correct %s", Name, errorName(Result), checksum(Got),
      yesNo(Got == Expected));
}

void counters(const Setup &S, cl_program Program, cl_mem In, const std::vector<cl_uint> &Input) {
  cl_kernel Kernel = createKernel(Program, "count_mod");
  const cl_uint Mod = 61;
  std::vector<cl_uint> Zeros(Mod, 0), Expected(Mod, 0);
  cl_mem Bins = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             Mod * sizeof(cl_uint), Zeros.data());
  setArg(Kernel, 0, In);
  setArg(Kernel, 1, Bins);
  setArg(Kernel, 2, Mod);
  auto launch = [&](size_t Count) {
    for (size_t I = 0; I < Count; ++I)
      ++Expected[Input[I] % Mod];
    return clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &Count, nullptr, 0, nullptr,
                                  nullptr);
  };
  cl_int Result = launch(N);
  verdict("histogram, one launch", Result, readAll<cl_uint>(S.Queue, Bins, Mod), Expected);
  Result = launch(N);
  if (Result == CL_SUCCESS)
    Result = launch(N / 2);
  verdict("histogram, two more launches", Result, readAll<cl_uint>(S.Queue, Bins, Mod), Expected);
  // The host changes one counter: the next launch must start from it.
  const cl_uint Seven = 7;
  Expected[3] = Seven;
  API_NEED(clEnqueueWriteBuffer(S.Queue, Bins, CL_TRUE, 3 * sizeof(cl_uint), sizeof(cl_uint),
                                &Seven, 0, nullptr, nullptr));
  Result = launch(N);
  verdict("histogram after a host write", Result, readAll<cl_uint>(S.Queue, Bins, Mod), Expected);
  // Counters just below 2^32 wrap.
  const cl_uint Near = 0xfffffff0u;
  API_NEED(clEnqueueFillBuffer(S.Queue, Bins, &Near, sizeof(Near), 0, Mod * sizeof(cl_uint), 0,
                               nullptr, nullptr));
  std::fill(Expected.begin(), Expected.end(), Near);
  Result = launch(N);
  verdict("histogram after a fill, wrapping", Result, readAll<cl_uint>(S.Queue, Bins, Mod),
          Expected);
  clReleaseMemObject(Bins);

  // A sub-buffer in the middle of a larger buffer: the rest keeps its sentinels.
  cl_uint AlignBits = 0;
  API_NEED(clGetDeviceInfo(S.Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(AlignBits), &AlignBits,
                           nullptr));
  const size_t Origin = std::max<size_t>(AlignBits / 8, 256), RootWords = Origin / 4 + Mod + 64;
  std::vector<cl_uint> Fill(RootWords, Sentinel);
  cl_mem Root = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             RootWords * sizeof(cl_uint), Fill.data());
  cl_buffer_region Region = {Origin, Mod * sizeof(cl_uint)};
  cl_int Error = CL_SUCCESS;
  cl_mem Sub =
      clCreateSubBuffer(Root, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
  need(Error, "clCreateSubBuffer");
  std::fill(Expected.begin(), Expected.end(), Sentinel);
  setArg(Kernel, 1, Sub);
  Result = launch(N);
  std::vector<cl_uint> WholeExpected = Fill;
  std::copy(Expected.begin(), Expected.end(), WholeExpected.begin() + Origin / 4);
  verdict("histogram in a sub-buffer", Result, readAll<cl_uint>(S.Queue, Root, RootWords),
          WholeExpected);
  clReleaseMemObject(Sub);
  clReleaseMemObject(Root);

  // The app's own memory as the host copy.
  std::vector<cl_uint> Host(Mod, 1);
  std::fill(Expected.begin(), Expected.end(), 1);
  cl_mem Used = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                             Mod * sizeof(cl_uint), Host.data());
  setArg(Kernel, 1, Used);
  Result = launch(N);
  if (Result == CL_SUCCESS)
    Result = launch(N / 3);
  void *Mapped = clEnqueueMapBuffer(S.Queue, Used, CL_TRUE, CL_MAP_READ, 0, Mod * sizeof(cl_uint),
                                    0, nullptr, nullptr, &Error);
  need(Error, "clEnqueueMapBuffer");
  const auto *Words = static_cast<const cl_uint *>(Mapped);
  verdict("histogram in a CL_MEM_USE_HOST_PTR buffer", Result,
          std::vector<cl_uint>(Words, Words + Mod), Expected);
  API_NEED(clEnqueueUnmapMemObject(S.Queue, Used, Mapped, 0, nullptr, nullptr));
  API_NEED(clFinish(S.Queue));
  clReleaseMemObject(Used);
  clReleaseKernel(Kernel);
}

void records(const Setup &S, cl_program Program, cl_mem In, const std::vector<cl_uint> &Input) {
  cl_kernel Kernel = createKernel(Program, "extremes");
  const cl_int Start[2] = {INT_MAX, INT_MIN};
  cl_mem LoHi = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(Start),
                             const_cast<cl_int *>(Start));
  setArg(Kernel, 0, In);
  setArg(Kernel, 1, LoHi);
  // Work-items [Offset, Offset + Count) of the input, through the app's global offset.
  const size_t Offset = 5, Count = N - 17;
  cl_int Lo = INT_MAX, Hi = INT_MIN;
  for (size_t I = Offset; I < Offset + Count; ++I) {
    Lo = std::min(Lo, static_cast<cl_int>(Input[I]));
    Hi = std::max(Hi, static_cast<cl_int>(Input[I]));
  }
  cl_int Result =
      clEnqueueNDRangeKernel(S.Queue, Kernel, 1, &Offset, &Count, nullptr, 0, nullptr, nullptr);
  verdict("signed {min, max} record, app offset 5", Result, readAll<cl_uint>(S.Queue, LoHi, 2),
          {static_cast<cl_uint>(Lo), static_cast<cl_uint>(Hi)});
  clReleaseMemObject(LoHi);
  clReleaseKernel(Kernel);

  // 2D, and add and sub on a record of eight counters.
  cl_kernel Grid = createKernel(Program, "grid_sum");
  const size_t Pitch = 160, Rows = 120, Global[2] = {Pitch, Rows};
  std::vector<cl_uint> Zeros(8, 0), Expected(8, 0);
  for (size_t Y = 0; Y < Rows; ++Y)
    for (size_t X = 0; X < Pitch; ++X) {
      Expected[Y % 4] += Input[Y * Pitch + X];
      Expected[4 + X % 4] -= Input[Y * Pitch + X] & 255u;
    }
  cl_mem Sums = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             8 * sizeof(cl_uint), Zeros.data());
  setArg(Grid, 0, In);
  setArg(Grid, 1, Sums);
  setArg(Grid, 2, static_cast<cl_uint>(Pitch));
  Result = clEnqueueNDRangeKernel(S.Queue, Grid, 2, nullptr, Global, nullptr, 0, nullptr, nullptr);
  verdict("2D sums and differences", Result, readAll<cl_uint>(S.Queue, Sums, 8), Expected);
  clReleaseMemObject(Sums);
  clReleaseKernel(Grid);
}

void mustStayWhole(const Setup &S, cl_program Program, cl_mem In,
                   const std::vector<cl_uint> &Input) {
  // flags (word 0, atomic_or) and out (words 1..N, plain stores) in one buffer.
  cl_kernel Marks = createKernel(Program, "marks");
  std::vector<cl_uint> Zeros(N + 1, 0), Expected(N + 1, 0);
  for (size_t I = 0; I < N; ++I) {
    Expected[0] |= 1u << (Input[I] & 31);
    Expected[I + 1] = Input[I] + 1u;
  }
  cl_mem Both = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             (N + 1) * sizeof(cl_uint), Zeros.data());
  setArg(Marks, 0, In);
  setArg(Marks, 1, Both);
  setArg(Marks, 2, Both);
  cl_int Result =
      clEnqueueNDRangeKernel(S.Queue, Marks, 1, nullptr, &N, nullptr, 0, nullptr, nullptr);
  verdict("one buffer for atomic flags and plain output", Result,
          readAll<cl_uint>(S.Queue, Both, N + 1), Expected);
  clReleaseMemObject(Both);
  clReleaseKernel(Marks);

  // Stream compaction: the slots come from atomic_inc, in schedule order (sorted here).
  cl_kernel Pick = createKernel(Program, "pick");
  const cl_uint Zero = 0;
  cl_mem Out = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint), nullptr);
  cl_mem Count = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_uint),
                              const_cast<cl_uint *>(&Zero));
  setArg(Pick, 0, In);
  setArg(Pick, 1, Out);
  setArg(Pick, 2, Count);
  Result = clEnqueueNDRangeKernel(S.Queue, Pick, 1, nullptr, &N, nullptr, 0, nullptr, nullptr);
  const cl_uint Picked = readAll<cl_uint>(S.Queue, Count, 1)[0];
  std::vector<cl_uint> Values = readAll<cl_uint>(S.Queue, Out, std::min<size_t>(Picked, N));
  std::sort(Values.begin(), Values.end());
  std::vector<cl_uint> Odd;
  for (cl_uint V : Input)
    if (V & 1u)
      Odd.push_back(V);
  std::sort(Odd.begin(), Odd.end());
  verdict("compaction by atomic_inc's result (sorted)", Result, Values, Odd);
  clReleaseMemObject(Out);
  clReleaseMemObject(Count);
  clReleaseKernel(Pick);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  const std::vector<cl_uint> Input = inputs();
  cl_mem In = createBuffer(S.Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                           const_cast<cl_uint *>(Input.data()));
  say("== counters");
  counters(S, Program, In, Input);
  say("== records");
  records(S, Program, In, Input);
  say("== kernels that run as one launch");
  mustStayWhole(S, Program, In, Input);
  clReleaseMemObject(In);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
