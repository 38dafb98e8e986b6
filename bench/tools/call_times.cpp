// Where an app's host time goes, call by call, without changing what runs: a library preloaded
// before libsplit (or alone, natively) that times each OpenCL call the app makes and passes it on
// to the next library in the search order. At exit it writes, for each function called, how many
// calls, their total, the median and the slowest, and the calls from the app's first kernel launch
// on, one by one in the app's order (the first launches of a short run, where its fixed costs
// are). Compare the two runs' lists:
//
//   LD_PRELOAD=build/bench/libcall_times.so app ...                    natively
//   LD_PRELOAD="build/bench/libcall_times.so build/lib/libsplit.so" app ... under libsplit
//
// CALL_TIMES_OUT=FILE writes the report there (default: stderr); CALL_TIMES_FIRST=N lists N calls
// from the first launch on (default 40). The timing's own cost is the same in both runs.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace {

enum Function {
  GetPlatformIDs,
  GetDeviceIDs,
  CreateContext,
  CreateCommandQueue,
  CreateCommandQueueWithProperties,
  CreateBuffer,
  CreateProgramWithSource,
  BuildProgram,
  CreateKernel,
  SetKernelArg,
  EnqueueNDRangeKernel,
  EnqueueReadBuffer,
  EnqueueWriteBuffer,
  EnqueueCopyBuffer,
  EnqueueFillBuffer,
  EnqueueMapBuffer,
  EnqueueUnmapMemObject,
  Finish,
  Flush,
  WaitForEvents,
  GetEventProfilingInfo,
  ReleaseEvent,
  ReleaseMemObject,
  ReleaseKernel,
  ReleaseProgram,
  ReleaseCommandQueue,
  ReleaseContext,
  Functions
};

const char *const Names[Functions] = {"clGetPlatformIDs",
                                      "clGetDeviceIDs",
                                      "clCreateContext",
                                      "clCreateCommandQueue",
                                      "clCreateCommandQueueWithProperties",
                                      "clCreateBuffer",
                                      "clCreateProgramWithSource",
                                      "clBuildProgram",
                                      "clCreateKernel",
                                      "clSetKernelArg",
                                      "clEnqueueNDRangeKernel",
                                      "clEnqueueReadBuffer",
                                      "clEnqueueWriteBuffer",
                                      "clEnqueueCopyBuffer",
                                      "clEnqueueFillBuffer",
                                      "clEnqueueMapBuffer",
                                      "clEnqueueUnmapMemObject",
                                      "clFinish",
                                      "clFlush",
                                      "clWaitForEvents",
                                      "clGetEventProfilingInfo",
                                      "clReleaseEvent",
                                      "clReleaseMemObject",
                                      "clReleaseKernel",
                                      "clReleaseProgram",
                                      "clReleaseCommandQueue",
                                      "clReleaseContext"};

using Clock = std::chrono::steady_clock;

struct FirstCall {
  Function What;
  double StartUs; // since the first launch
  double Us;
};

// Every call's duration, kept per function (the medians need them all), and the calls from the
// first launch on in the order the app made them.
class Report {
public:
  Report() : Loaded(Clock::now()) {
    if (const char *N = std::getenv("CALL_TIMES_FIRST"))
      FirstWanted = static_cast<std::size_t>(std::strtoul(N, nullptr, 10));
  }
  ~Report() { write(); }
  Report(const Report &) = delete;
  Report &operator=(const Report &) = delete;

  void add(Function What, Clock::time_point Start, Clock::time_point End) {
    const double Us = std::chrono::duration<double, std::micro>(End - Start).count();
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!FirstCallAt)
      FirstCallAt = Start;
    if (!Origin && What == EnqueueNDRangeKernel)
      Origin = Start;
    Durations[What].push_back(Us);
    if (Origin && First.size() < FirstWanted)
      First.push_back(
          {What, std::chrono::duration<double, std::micro>(Start - *Origin).count(), Us});
  }

private:
  void write() {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!FirstCallAt)
      return; // a process that made no OpenCL call (a compiler the driver runs)
    FILE *Out = stderr;
    if (const char *Path = std::getenv("CALL_TIMES_OUT"))
      if (FILE *F = std::fopen(Path, "w"))
        Out = F;
    std::fprintf(Out, "%-36s %8s %12s %10s %10s\n", "function", "calls", "total us", "median us",
                 "max us");
    for (int F = 0; F < Functions; ++F) {
      std::vector<double> &D = Durations[F];
      if (D.empty())
        continue;
      double Total = 0.0;
      for (double Us : D)
        Total += Us;
      std::sort(D.begin(), D.end());
      std::fprintf(Out, "%-36s %8zu %12.1f %10.2f %10.1f\n", Names[F], D.size(), Total,
                   D[D.size() / 2], D.back());
    }
    // Where the process's time went outside the calls: its start (before the first call) and
    // what follows the report (the libraries' teardown: the process's wall time less this).
    const auto since = [this](Clock::time_point T) {
      return std::chrono::duration<double, std::micro>(T - Loaded).count();
    };
    std::fprintf(Out, "since this library loaded: first call at %.1f us, report at %.1f us\n",
                 since(*FirstCallAt), since(Clock::now()));
    std::fprintf(Out, "from the first launch on: start us, duration us, function\n");
    for (const FirstCall &C : First)
      std::fprintf(Out, "%12.1f %10.1f %s\n", C.StartUs, C.Us, Names[C.What]);
    if (Out != stderr)
      std::fclose(Out);
  }

  std::mutex Mutex;
  std::array<std::vector<double>, Functions> Durations;
  std::vector<FirstCall> First;
  std::size_t FirstWanted = 40;
  std::optional<Clock::time_point> Origin;
  Clock::time_point Loaded;
  std::optional<Clock::time_point> FirstCallAt;
};

Report &report() {
  static Report R;
  return R;
}

// Made when the library loads, not at the first call: the start's time is measured from there.
[[maybe_unused]] const Report &LoadedReport = report();

// The next library's definition of the function (libsplit's, or the ICD loader's natively).
template <typename Fn> Fn next(const char *Name) {
  void *Found = dlsym(RTLD_NEXT, Name);
  if (!Found) {
    std::fprintf(stderr, "call_times: no next definition of %s\n", Name);
    std::abort();
  }
  return reinterpret_cast<Fn>(Found);
}

// Times one call of the next definition.
template <typename Fn, typename... Args> auto timed(Function What, Fn Next, Args... A) {
  const Clock::time_point Start = Clock::now();
  auto Result = Next(A...);
  report().add(What, Start, Clock::now());
  return Result;
}

} // namespace

// Each definition has the exact signature of its declaration in CL/cl.h.
#define CALL_TIMES_DEFINE(Ret, Name, Params, Args)                                                 \
  extern "C" CL_API_ENTRY Ret CL_API_CALL cl##Name Params {                                        \
    static const auto Next = next<decltype(&::cl##Name)>("cl" #Name);                              \
    return timed(Name, Next, CALL_TIMES_UNPACK Args);                                              \
  }
#define CALL_TIMES_UNPACK(...) __VA_ARGS__

CALL_TIMES_DEFINE(cl_int, GetPlatformIDs, (cl_uint N, cl_platform_id *P, cl_uint *Count),
                  (N, P, Count))
CALL_TIMES_DEFINE(cl_int, GetDeviceIDs,
                  (cl_platform_id P, cl_device_type T, cl_uint N, cl_device_id *D, cl_uint *Count),
                  (P, T, N, D, Count))
CALL_TIMES_DEFINE(cl_context, CreateContext,
                  (const cl_context_properties *P, cl_uint N, const cl_device_id *D,
                   void(CL_CALLBACK *F)(const char *, const void *, size_t, void *), void *U,
                   cl_int *E),
                  (P, N, D, F, U, E))
CALL_TIMES_DEFINE(cl_command_queue, CreateCommandQueue,
                  (cl_context C, cl_device_id D, cl_command_queue_properties P, cl_int *E),
                  (C, D, P, E))
CALL_TIMES_DEFINE(cl_command_queue, CreateCommandQueueWithProperties,
                  (cl_context C, cl_device_id D, const cl_queue_properties *P, cl_int *E),
                  (C, D, P, E))
CALL_TIMES_DEFINE(cl_mem, CreateBuffer,
                  (cl_context C, cl_mem_flags F, size_t S, void *H, cl_int *E), (C, F, S, H, E))
CALL_TIMES_DEFINE(cl_program, CreateProgramWithSource,
                  (cl_context C, cl_uint N, const char **S, const size_t *L, cl_int *E),
                  (C, N, S, L, E))
CALL_TIMES_DEFINE(cl_int, BuildProgram,
                  (cl_program P, cl_uint N, const cl_device_id *D, const char *O,
                   void(CL_CALLBACK *F)(cl_program, void *), void *U),
                  (P, N, D, O, F, U))
CALL_TIMES_DEFINE(cl_kernel, CreateKernel, (cl_program P, const char *N, cl_int *E), (P, N, E))
CALL_TIMES_DEFINE(cl_int, SetKernelArg, (cl_kernel K, cl_uint I, size_t S, const void *V),
                  (K, I, S, V))
CALL_TIMES_DEFINE(cl_int, EnqueueNDRangeKernel,
                  (cl_command_queue Q, cl_kernel K, cl_uint D, const size_t *O, const size_t *G,
                   const size_t *L, cl_uint N, const cl_event *W, cl_event *E),
                  (Q, K, D, O, G, L, N, W, E))
CALL_TIMES_DEFINE(cl_int, EnqueueReadBuffer,
                  (cl_command_queue Q, cl_mem B, cl_bool Blocking, size_t O, size_t S, void *H,
                   cl_uint N, const cl_event *W, cl_event *E),
                  (Q, B, Blocking, O, S, H, N, W, E))
CALL_TIMES_DEFINE(cl_int, EnqueueWriteBuffer,
                  (cl_command_queue Q, cl_mem B, cl_bool Blocking, size_t O, size_t S,
                   const void *H, cl_uint N, const cl_event *W, cl_event *E),
                  (Q, B, Blocking, O, S, H, N, W, E))
CALL_TIMES_DEFINE(cl_int, EnqueueCopyBuffer,
                  (cl_command_queue Q, cl_mem S, cl_mem T, size_t SO, size_t TO, size_t B,
                   cl_uint N, const cl_event *W, cl_event *E),
                  (Q, S, T, SO, TO, B, N, W, E))
CALL_TIMES_DEFINE(cl_int, EnqueueFillBuffer,
                  (cl_command_queue Q, cl_mem B, const void *P, size_t PS, size_t O, size_t S,
                   cl_uint N, const cl_event *W, cl_event *E),
                  (Q, B, P, PS, O, S, N, W, E))
CALL_TIMES_DEFINE(void *, EnqueueMapBuffer,
                  (cl_command_queue Q, cl_mem B, cl_bool Blocking, cl_map_flags F, size_t O,
                   size_t S, cl_uint N, const cl_event *W, cl_event *E, cl_int *R),
                  (Q, B, Blocking, F, O, S, N, W, E, R))
CALL_TIMES_DEFINE(cl_int, EnqueueUnmapMemObject,
                  (cl_command_queue Q, cl_mem B, void *P, cl_uint N, const cl_event *W,
                   cl_event *E),
                  (Q, B, P, N, W, E))
CALL_TIMES_DEFINE(cl_int, Finish, (cl_command_queue Q), (Q))
CALL_TIMES_DEFINE(cl_int, Flush, (cl_command_queue Q), (Q))
CALL_TIMES_DEFINE(cl_int, WaitForEvents, (cl_uint N, const cl_event *E), (N, E))
CALL_TIMES_DEFINE(cl_int, GetEventProfilingInfo,
                  (cl_event E, cl_profiling_info I, size_t S, void *V, size_t *R), (E, I, S, V, R))
CALL_TIMES_DEFINE(cl_int, ReleaseEvent, (cl_event E), (E))
CALL_TIMES_DEFINE(cl_int, ReleaseMemObject, (cl_mem M), (M))
CALL_TIMES_DEFINE(cl_int, ReleaseKernel, (cl_kernel K), (K))
CALL_TIMES_DEFINE(cl_int, ReleaseProgram, (cl_program P), (P))
CALL_TIMES_DEFINE(cl_int, ReleaseCommandQueue, (cl_command_queue Q), (Q))
CALL_TIMES_DEFINE(cl_int, ReleaseContext, (cl_context C), (C))
