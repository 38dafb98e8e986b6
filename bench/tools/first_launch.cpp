// Where a short run's launches spend the app's time, call by call: the sequence a one-launch app
// times (set an argument, launch with an event, read one buffer without blocking, read another
// blocking, ask the event's profiling times, release it), repeated, each call timed on its own.
// Prints the first round's times and the median of the others. Run it natively and under
// libsplit; the difference says which call libsplit makes slower, and whether only the first.
//
//   first_launch [--device P:D] [--rounds N] [--groups G] [--local L] [--profiling 0|1]
//                [--copy-host-ptr 0|1]
// --copy-host-ptr 1 creates the buffers from host data (CL_MEM_COPY_HOST_PTR), as the EP app
// does; 0 leaves them uninitialised.
#include "common/app_common.hpp"

#include <algorithm>
#include <array>
#include <vector>

static const char *KernelSource = R"CLC(
__kernel void fill(uint seed, __global uint *a, __global uint *b) {
  size_t i = get_global_id(0);
  a[i] = (uint)i * 2654435761u + seed;
  if (get_local_id(0) == 0)
    b[get_group_id(0)] = seed;
}
)CLC";

namespace {

enum Call { SetArg, Launch, ReadLater, ReadNow, Profile, Release, Calls };
const char *const CallNames[Calls] = {"clSetKernelArg",      "clEnqueueNDRangeKernel",
                                      "clEnqueueReadBuffer", "clEnqueueReadBuffer(blocking)",
                                      "clGetEventProfiling", "clReleaseEvent"};

double median(std::vector<double> V) {
  if (V.empty())
    return 0.0;
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  app::Options Opts(
      argc, argv, "[--rounds N] [--groups G] [--local L] [--profiling 0|1] [--copy-host-ptr 0|1]");
  const long Rounds = std::max(1L, Opts.integer("rounds", 20));
  const size_t Groups = static_cast<size_t>(std::max(1L, Opts.integer("groups", 64)));
  const size_t Local = static_cast<size_t>(std::max(1L, Opts.integer("local", 64)));
  const bool Profiling = Opts.integer("profiling", 1) != 0;
  const bool CopyHostPtr = Opts.integer("copy-host-ptr", 1) != 0;
  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  const auto [Context, Queue] = app::openDevice(Choice, Profiling);
  const size_t Global = Groups * Local;
  std::vector<cl_uint> A(Global, 0xFFFFFFFFu), B(Groups, 0xFFFFFFFFu);
  const cl_mem_flags Flags = CL_MEM_WRITE_ONLY | (CopyHostPtr ? CL_MEM_COPY_HOST_PTR : 0);
  cl_mem BufA = clCreateBuffer(Context, Flags, sizeof(cl_uint) * A.size(),
                               CopyHostPtr ? A.data() : nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer");
  cl_mem BufB = clCreateBuffer(Context, Flags, sizeof(cl_uint) * B.size(),
                               CopyHostPtr ? B.data() : nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer");
  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "fill", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufB));

  std::vector<std::array<double, Calls + 1>> Times; // the calls, then the round's total
  bool Correct = true;
  for (long Round = 0; Round < Rounds; ++Round) {
    std::array<double, Calls + 1> T{};
    app::Stopwatch Whole;
    app::Stopwatch Step;
    auto lap = [&](Call C) {
      T[C] = Step.seconds();
      Step = app::Stopwatch();
    };
    const cl_uint Seed = static_cast<cl_uint>(Round) + 1u;
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_uint), &Seed));
    lap(SetArg);
    cl_event Event = nullptr;
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &Local, 0, nullptr,
                                    Profiling ? &Event : nullptr));
    lap(Launch);
    CL_CHECK(clEnqueueReadBuffer(Queue, BufB, CL_FALSE, 0, sizeof(cl_uint) * B.size(), B.data(), 0,
                                 nullptr, nullptr));
    lap(ReadLater);
    CL_CHECK(clEnqueueReadBuffer(Queue, BufA, CL_TRUE, 0, sizeof(cl_uint) * A.size(), A.data(), 0,
                                 nullptr, nullptr));
    lap(ReadNow);
    if (Event) {
      cl_ulong Start = 0, End = 0;
      CL_CHECK(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_START, sizeof(Start), &Start,
                                       nullptr));
      CL_CHECK(
          clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr));
      lap(Profile);
      CL_CHECK(clReleaseEvent(Event));
      lap(Release);
    }
    T[Calls] = Whole.seconds();
    Times.push_back(T);
    Correct = Correct && B[Groups - 1] == Seed &&
              A[Global - 1] == static_cast<cl_uint>(Global - 1) * 2654435761u + Seed;
  }
  std::printf("first_launch on %s, %ld rounds of %zu work-items (local %zu), profiling %d, "
              "copy-host-ptr %d: microseconds, first round / median of the others\n",
              Choice.Name.c_str(), Rounds, Global, Local, Profiling ? 1 : 0, CopyHostPtr ? 1 : 0);
  for (int C = 0; C <= Calls; ++C) {
    if (!Profiling && (C == Profile || C == Release))
      continue;
    std::vector<double> Later;
    for (size_t R = 1; R < Times.size(); ++R)
      Later.push_back(Times[R][static_cast<size_t>(C)]);
    std::printf("  %-30s %9.1f %9.1f\n", C == Calls ? "round" : CallNames[C],
                1e6 * Times[0][static_cast<size_t>(C)], 1e6 * median(Later));
  }
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  if (!Correct)
    std::fprintf(stderr, "first_launch: the buffers read back do not hold the kernel's values\n");
  return Correct ? 0 : 1;
}
