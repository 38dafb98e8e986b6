#include "event.hpp"
#include "context.hpp"
#include "device_clock.hpp"

#include <ctime>
#include <string>

namespace libsplit {

namespace {
// An event status as LIBSPLIT_DEBUG=events prints it.
std::string statusName(cl_int Status) {
  switch (Status) {
  case CL_QUEUED:
    return "queued";
  case CL_SUBMITTED:
    return "submitted";
  case CL_RUNNING:
    return "running";
  case CL_COMPLETE:
    return "complete";
  default:
    return "error " + std::to_string(Status);
  }
}
} // namespace

std::uint64_t hostNanoseconds() {
  timespec Now;
  clock_gettime(CLOCK_MONOTONIC_RAW, &Now);
  return static_cast<std::uint64_t>(Now.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(Now.tv_nsec);
}

Event::Event(std::shared_ptr<Context> Owner, std::shared_ptr<Queue> Issuer, cl_command_type Type,
             bool Profiled)
    : Owner(std::move(Owner)), Issuer(std::move(Issuer)), Type(Type), Profiled(Profiled),
      Status(Type == CL_COMMAND_USER ? CL_SUBMITTED : CL_QUEUED) {
  initHandle(*this, HandleMagic::Event);
  if (Profiled)
    Stamps[0] = hostNanoseconds();
}

cl_int Event::status() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Status;
}

void Event::setStatus(cl_int NewStatus) {
  std::vector<PendingCallback> Due;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Status <= CL_COMPLETE || NewStatus >= Status)
      return; // finished already, or not a step forward
    // Room for the callbacks first, and nothing below throws: a status that changes reaches its
    // waiters whatever happens (completions run where an exception must not start). Without
    // room (host memory exhausted) the due callbacks are lost, the waiters still woken.
    try {
      Due.reserve(Callbacks.size());
    } catch (...) {
    }
    Status = NewStatus;
    try {
      Owner->launchServices().Log.debug(config::DebugCategory::Events, "event ",
                                        static_cast<const void *>(this), " (command type ", Type,
                                        "): ", statusName(NewStatus));
    } catch (...) {
    }
    // A callback registered for state S runs once the event reaches S or beyond; an error
    // status counts as complete.
    for (auto It = Callbacks.begin(); It != Callbacks.end() && Due.size() < Due.capacity();) {
      if (Status <= It->Trigger) {
        Due.push_back(*It);
        It = Callbacks.erase(It);
      } else {
        ++It;
      }
    }
  }
  Changed.notify_all();
  for (const PendingCallback &C : Due)
    C.Fn(this, NewStatus < 0 ? NewStatus : C.Trigger, C.UserData);
}

cl_int Event::wait() {
  std::unique_lock<std::mutex> Lock(Mutex);
  Changed.wait(Lock, [this] { return Status <= CL_COMPLETE; });
  return Status;
}

void Event::addCallback(cl_int Trigger, Callback Fn, void *UserData) {
  cl_int Now;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Status > Trigger) {
      Callbacks.push_back({Trigger, Fn, UserData});
      return;
    }
    Now = Status;
  }
  Fn(this, Now < 0 ? Now : Trigger, UserData);
}

bool Event::hasCallbacks() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Callbacks.empty();
}

void Event::stamp(cl_profiling_info Which, std::uint64_t Nanoseconds) {
  const unsigned Slot = Which - CL_PROFILING_COMMAND_QUEUED;
  if (Slot < 4) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stamps[Slot] = Nanoseconds;
  }
}

void Event::stampFromDevice(std::uint64_t EnqueuedNs, std::uint64_t Queued, std::uint64_t Start,
                            std::uint64_t End) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const HostSpan OnHost = onHostClock(EnqueuedNs, Queued, Start, End, Stamps[1]);
  Stamps[2] = OnHost.Start;
  Stamps[3] = OnHost.End;
  FromDevice = true;
}

void Event::stampEnd() {
  const std::uint64_t Now = hostNanoseconds();
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!FromDevice)
    Stamps[3] = Now;
}

void Event::keepDeviceEvent(cl_event Real, std::uint64_t EnqueuedNs) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (DeviceEvent)
    Owner->real().clReleaseEvent(DeviceEvent);
  DeviceEvent = Real;
  DeviceEnqueuedNs = EnqueuedNs;
}

Event::~Event() {
  if (DeviceEvent)
    Owner->real().clReleaseEvent(DeviceEvent);
}

bool Event::profilingInfo(cl_profiling_info Which, std::uint64_t &Nanoseconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  unsigned Slot = Which == CL_PROFILING_COMMAND_COMPLETE ? 3 : Which - CL_PROFILING_COMMAND_QUEUED;
  if (Slot >= 4)
    return false;
  // Asked once the command completed (the caller checks): its real event has ended too.
  if (DeviceEvent && Slot >= 2) {
    const RealApi &Api = Owner->real();
    cl_ulong Times[3] = {0, 0, 0};
    const cl_profiling_info Asked[3] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_START,
                                        CL_PROFILING_COMMAND_END};
    bool Known = true;
    for (int I = 0; I < 3 && Known; ++I)
      Known = Api.clGetEventProfilingInfo(DeviceEvent, Asked[I], sizeof(cl_ulong), &Times[I],
                                          nullptr) == CL_SUCCESS;
    if (Known && Times[2] >= Times[1]) {
      const HostSpan OnHost =
          onHostClock(DeviceEnqueuedNs, Times[0], Times[1], Times[2], Stamps[1]);
      Stamps[2] = OnHost.Start;
      Stamps[3] = OnHost.End;
      FromDevice = true;
    }
    Api.clReleaseEvent(DeviceEvent);
    DeviceEvent = nullptr;
  }
  Nanoseconds = Stamps[Slot];
  return true;
}

Event *asEvent(cl_event Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Event))
    return nullptr;
  return static_cast<Event *>(Handle);
}

} // namespace libsplit
