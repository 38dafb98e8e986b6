#include "real_commands.hpp"

#include "context.hpp"
#include "quiet_wait.hpp"
#include "thread_name.hpp"

namespace libsplit {

namespace {

// Waits for Done; returns the status the device gave it.
cl_int awaitStatus(const RealApi &Api, cl_event Done) {
  cl_int Error = Api.clWaitForEvents(1, &Done);
  // The app's event ends with the status the device gave, as it would natively, not with the
  // wait's CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
  cl_int Status = CL_COMPLETE;
  if (Error == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST &&
      Api.clGetEventInfo(Done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status,
                         nullptr) == CL_SUCCESS &&
      Status < 0)
    Error = Status;
  return Error;
}

} // namespace

cl_int awaitEnd(const ExecDevice &Device, cl_event Done) {
  const RealApi &Api = Device.Owner->real();
  const cl_int Error = awaitStatus(Api, Done);
  Api.clReleaseEvent(Done);
  return Error;
}

cl_int awaitKernel(const ExecDevice &Device, cl_event Done, double &Seconds, double *SinceQueued,
                   RealTimes *Times) {
  const RealApi &Api = Device.Owner->real();
  const cl_int Error = awaitStatus(Api, Done);
  cl_ulong Queued = 0, Start = 0, End = 0;
  auto stamp = [&](cl_profiling_info Which, cl_ulong &Out) {
    return Api.clGetEventProfilingInfo(Done, Which, sizeof(Out), &Out, nullptr) == CL_SUCCESS;
  };
  if (Error == CL_SUCCESS && stamp(CL_PROFILING_COMMAND_START, Start) &&
      stamp(CL_PROFILING_COMMAND_END, End) && End >= Start) {
    Seconds = static_cast<double>(End - Start) * 1e-9;
    const bool QueuedKnown =
        (SinceQueued || Times) && stamp(CL_PROFILING_COMMAND_QUEUED, Queued) && Start >= Queued;
    if (SinceQueued && QueuedKnown)
      *SinceQueued = static_cast<double>(Start - Queued) * 1e-9;
    if (Times && QueuedKnown)
      *Times = RealTimes{Queued, Start, End};
  }
  Api.clReleaseEvent(Done);
  return Error;
}

cl_int awaitPipelined(const ExecDevice &Device, cl_event Running,
                      std::chrono::steady_clock::time_point Enqueued, const std::string &Name,
                      double &Seconds, const std::optional<Timeline::Call> &Called,
                      RealTimes *Times) {
  using Clock = std::chrono::steady_clock;
  auto host = [](double S) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(S));
  };
  double Waited = 0.0;
  const cl_int Error = awaitKernel(Device, Running, Seconds, &Waited, Times);
  const auto Began = Enqueued + host(Waited);
  Device.Owner->launchServices().Spans.span(Device.Name, Name, Began, Began + host(Seconds),
                                            Called);
  return Error;
}

namespace {

// The kernel on the device's profiling twin queue, in RealQueue's order: after a marker of what
// RealQueue holds, and RealQueue's next commands behind it (a barrier on its event). Markers
// are flushed: a command of one queue that waits for another's might otherwise wait for ever.
cl_int enqueueOnTimingQueue(const RealApi &Real, ExecDevice &Device, cl_kernel Kernel,
                            cl_uint WorkDim, const size_t *Offset, const size_t *Global,
                            const size_t *Local, cl_event &Done) {
  cl_event Before = nullptr;
  cl_int Error = Real.clEnqueueMarkerWithWaitList(Device.RealQueue, 0, nullptr, &Before);
  if (Error != CL_SUCCESS)
    return Error;
  Real.clFlush(Device.RealQueue);
  Error = Real.clEnqueueNDRangeKernel(Device.TimingQueue, Kernel, WorkDim, Offset, Global, Local, 1,
                                      &Before, &Done);
  Real.clReleaseEvent(Before);
  if (Error != CL_SUCCESS)
    return Error;
  Real.clFlush(Device.TimingQueue);
  // Where the barrier cannot be queued, RealQueue's next command must still come after it.
  if (Real.clEnqueueBarrierWithWaitList(Device.RealQueue, 1, &Done, nullptr) != CL_SUCCESS)
    Real.clWaitForEvents(1, &Done);
  return CL_SUCCESS;
}

} // namespace

cl_int enqueueRealKernel(ExecDevice &Device, cl_kernel Kernel, cl_uint WorkDim,
                         const size_t *Offset, const size_t *Global, const size_t *Local,
                         cl_event *Done) {
  const RealApi &Real = Device.Owner->real();
  cl_int Error = CL_SUCCESS;
  const bool RunsHere = Device.KernelRunsInEnqueue.load(std::memory_order_relaxed) == 1;
  const auto Start =
      RunsHere ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  {
    // The driver's own time for it: its first launch of a kernel loads (or compiles) its code.
    Timeline &Spans = Device.Owner->launchServices().Spans;
    const std::optional<ScopedSpan> Shown =
        Spans.enabled()
            ? std::make_optional<ScopedSpan>(Spans, callingThreadTrack(), "real enqueue")
            : std::nullopt;
    std::lock_guard<std::mutex> Lock(*Device.KernelEnqueueLock);
    Error = Done && Device.TimingQueue
                ? enqueueOnTimingQueue(Real, Device, Kernel, WorkDim, Offset, Global, Local, *Done)
                : Real.clEnqueueNDRangeKernel(Device.RealQueue, Kernel, WorkDim, Offset, Global,
                                              Local, 0, nullptr, Done);
  }
  if (RunsHere)
    Device.RanInEnqueueNs.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now() - Start)
                                        .count(),
                                    std::memory_order_relaxed);
  if (Error != CL_SUCCESS || !Done ||
      Device.KernelRunsInEnqueue.load(std::memory_order_relaxed) >= 0)
    return Error;
  cl_int Status = CL_QUEUED;
  if (Real.clGetEventInfo(*Done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status,
                          nullptr) != CL_SUCCESS)
    return Error;
  if (Status > CL_COMPLETE)
    Device.KernelRunsInEnqueue.store(0, std::memory_order_relaxed);
  else if (++Device.CompleteWhenQueued >= 3)
    Device.KernelRunsInEnqueue.store(1, std::memory_order_relaxed);
  return Error;
}

void awaitRealQueue(ExecDevice &Device) { Device.Owner->real().clFinish(Device.RealQueue); }

void awaitRealQueueSoFar(ExecDevice &Device, bool Quietly) {
  const RealApi &Real = Device.Owner->real();
  cl_event Marker = nullptr;
  if (Real.clEnqueueMarkerWithWaitList(Device.RealQueue, 0, nullptr, &Marker) != CL_SUCCESS ||
      !Marker) {
    Real.clFinish(Device.RealQueue);
    return;
  }
  if (Quietly) {
    waitQuietly({Marker});
  } else {
    // A marker is not flushed by itself: a wait on it alone might wait for ever.
    Real.clFlush(Device.RealQueue);
    Real.clWaitForEvents(1, &Marker);
  }
  Real.clReleaseEvent(Marker);
}

} // namespace libsplit
