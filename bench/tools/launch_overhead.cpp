// Host cost per kernel launch: launches an empty kernel many times and reports the wall time
// per launch. Run it natively and under libsplit; the difference is what libsplit adds (its
// executor, planning and worker hand-offs), the devices' own launch latency being in both.
//
//   launch_overhead [--device P:D] [--launches N] [--global G] [--local L] [--sync each|end]
//                   [--event 0|1] [--event-every N] [--profiling 0|1] [--buffer-mib M] [--sizes K]
//                   [--set-args 0|1]
// --event 1 asks for an event per launch (released at once) and --profiling 1 makes a profiling
// queue: natively, what libsplit's own launches cost the driver (it does both). --event-every N
// asks for one every N launches only, as a runtime that tracks completion now and then does.
// --buffer-mib makes the kernel's buffer argument that large (written once before the launches), to
// see whether a launch's host cost depends on the size of the buffers it names. --sizes K cycles
// the launches through K global sizes (G, G - L, G - 2L, ...), as a factorization whose NDRange
// shrinks every step does: what a launch of a size not seen before costs. --local 0 leaves the
// local size to the implementation (a NULL local size, as many apps pass; with --sizes, the
// sizes then step by 64). --set-args 1 sets both arguments again, to the same values, before
// each launch, as an app whose launch helper sets every argument does.
#include "common/app_common.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

static const char *KernelSource = R"CLC(
__kernel void empty(__global int *unused, int n) {
  if (get_global_id(0) == (size_t)n)
    unused[0] = 0;
}
)CLC";

int main(int argc, char **argv) {
  app::Options Opts(argc, argv,
                    "[--launches N] [--global G] [--local L] "
                    "[--sync each|wait|poll|callback|other-queue|end] "
                    "[--warmup N] "
                    "[--event 0|1] [--event-every N] [--profiling 0|1] [--buffer-mib M] "
                    "[--sizes K] [--set-args 0|1]");
  const long Launches = Opts.integer("launches", 2000);
  const size_t Global = static_cast<size_t>(Opts.integer("global", 1024));
  const size_t Local = static_cast<size_t>(Opts.integer("local", 64));
  const long Warmup = Opts.integer("warmup", 50);
  // each: clFinish after every launch; wait: clWaitForEvents on every launch's event, as
  // Rodinia's helpers do; poll: every launch's event polled until it completes, as
  // apps that check their kernels' progress do; callback: the host spins until a callback on the
  // launch's event says it completed, as apps driven by callbacks do; other-queue: a second queue
  // waits for the launch's event with a marker, which the host waits for there, as apps that
  // chain queues do (all four ask for the event, whatever --event says).
  const std::string Sync = Opts.text("sync", "end");
  const bool SyncEach = Sync == "each";
  const bool Wait = Sync == "wait";
  const bool Poll = Sync == "poll";
  const bool Callback = Sync == "callback";
  const bool OtherQueue = Sync == "other-queue";
  const long EventEvery = Opts.integer("event", 0) != 0 ? 1 : Opts.integer("event-every", 0);
  const bool Profiling = Opts.integer("profiling", 0) != 0;
  const long Sizes = std::max(1L, Opts.integer("sizes", 1));
  const bool SetArgs = Opts.integer("set-args", 0) != 0;
  const size_t Step = Local ? Local : 64;
  if (static_cast<size_t>(Sizes - 1) * Step >= Global)
    app::fail("--sizes K needs (K - 1) * local below global");
  const size_t BufferBytes =
      std::max<size_t>(sizeof(int), static_cast<size_t>(Opts.integer("buffer-mib", 0)) << 20);

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  const auto [Context, Queue] = app::openDevice(Choice, Profiling);
  cl_command_queue Second = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue (second)");
  cl_mem Unused = clCreateBuffer(Context, CL_MEM_READ_WRITE, BufferBytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer");
  if (BufferBytes > sizeof(int)) {
    const std::vector<char> Zeros(BufferBytes, 0);
    CL_CHECK(clEnqueueWriteBuffer(Queue, Unused, CL_TRUE, 0, BufferBytes, Zeros.data(), 0, nullptr,
                                  nullptr));
  }
  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Kernel = clCreateKernel(Program, "empty", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  const int Never = -1;
  auto setArgs = [&] {
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &Unused));
    CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(int), &Never));
  };
  setArgs();

  long Launched = 0;
  auto launch = [&] {
    if (SetArgs)
      setArgs();
    cl_event Done = nullptr;
    const bool WithEvent =
        Wait || Poll || Callback || OtherQueue || (EventEvery > 0 && Launched % EventEvery == 0);
    const size_t Size = Global - static_cast<size_t>(Launched++ % Sizes) * Step;
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Size, Local ? &Local : nullptr, 0,
                                    nullptr, WithEvent ? &Done : nullptr));
    if (OtherQueue) {
      CL_CHECK(clFlush(Queue));
      CL_CHECK(clEnqueueMarkerWithWaitList(Second, 1, &Done, nullptr));
      CL_CHECK(clFinish(Second));
    }
    if (Callback) {
      std::atomic<bool> Ended{false};
      CL_CHECK(clSetEventCallback(
          Done, CL_COMPLETE,
          [](cl_event, cl_int, void *Flag) {
            static_cast<std::atomic<bool> *>(Flag)->store(true, std::memory_order_release);
          },
          &Ended));
      CL_CHECK(clFlush(Queue));
      while (!Ended.load(std::memory_order_acquire))
        std::this_thread::yield();
    }
    if (Wait)
      CL_CHECK(clWaitForEvents(1, &Done));
    if (Poll) {
      CL_CHECK(clFlush(Queue));
      cl_int Status = CL_QUEUED;
      do
        CL_CHECK(clGetEventInfo(Done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status,
                                nullptr));
      while (Status > CL_COMPLETE);
    }
    if (Done)
      clReleaseEvent(Done);
    if (SyncEach)
      CL_CHECK(clFinish(Queue));
  };
  for (long I = 0; I < Warmup; ++I)
    launch();
  CL_CHECK(clFinish(Queue));
  app::Stopwatch Timer;
  for (long I = 0; I < Launches; ++I)
    launch();
  // With --sync end: how long the app's thread spent queueing, apart from the wait at the end.
  const double Queueing = Timer.seconds();
  CL_CHECK(clFinish(Queue));
  const double Seconds = Timer.seconds();
  const double PerLaunch = 1e6 / static_cast<double>(std::max(Launches, 1L));
  std::printf("launch_overhead: %ld launches of %zu work-items (local %zu, %ld sizes), sync %s: "
              "%.2f us per launch (%.2f us of it before the final clFinish)\n",
              Launches, Global, Local, Sizes, Sync.c_str(), Seconds * PerLaunch,
              Queueing * PerLaunch);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(Unused);
  clReleaseCommandQueue(Second);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return 0;
}
