// libsplit's events: every command the app enqueues gets one, completed by libsplit when all of
// the command's real work (possibly on several devices) is done. User events are the same
// object without a queue.
#pragma once

#include "handles.hpp"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace libsplit {

class Context;
class Queue;

class Event : public _cl_event, public RefCounted<Event> {
public:
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  Event(std::shared_ptr<Context> Owner, std::shared_ptr<Queue> Issuer, cl_command_type Type,
        bool Profiled);
  ~Event();
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  Context &context() const { return *Owner; }
  Queue *queue() const { return Issuer.get(); }
  cl_command_type type() const { return Type; }
  cl_int status() const;
  bool profiled() const { return Profiled; }

  // Moves the execution status forward (QUEUED > SUBMITTED > RUNNING > COMPLETE or an error)
  // and runs the callbacks that became due, outside the lock.
  void setStatus(cl_int Status);
  // Waits for completion; returns CL_COMPLETE or the (negative) error status.
  cl_int wait();
  void addCallback(cl_int Trigger, Callback Fn, void *UserData);
  // Whether the app registered callbacks that have not run yet.
  bool hasCallbacks() const;

  // Profiling, in nanoseconds of the host's CLOCK_MONOTONIC_RAW.
  void stamp(cl_profiling_info Which, std::uint64_t Nanoseconds);
  // A command run as one real command: its start and end are the device's (Start, End, in the
  // device's clock), on the host's clock by where the device put its enqueueing (Queued) and
  // when libsplit enqueued it (EnqueuedNs). Its end is then not stamped when libsplit completes
  // it (stampEnd), which may be long after: the app's kernel time is the device's.
  void stampFromDevice(std::uint64_t EnqueuedNs, std::uint64_t Queued, std::uint64_t Start,
                       std::uint64_t End);
  // Stamps the end now, unless stampFromDevice did.
  void stampEnd();
  // The same from Real, the command's real event (owned from here on), read only once the app
  // asks for its start or end (profilingInfo), as a native app's query reads them: nothing of
  // libsplit's waits for it or queries it meanwhile.
  void keepDeviceEvent(cl_event Real, std::uint64_t EnqueuedNs);
  bool profilingInfo(cl_profiling_info Which, std::uint64_t &Nanoseconds);

private:
  struct PendingCallback {
    cl_int Trigger;
    Callback Fn;
    void *UserData;
  };

  std::shared_ptr<Context> Owner;
  std::shared_ptr<Queue> Issuer;
  cl_command_type Type;
  bool Profiled;
  mutable std::mutex Mutex;
  std::condition_variable Changed;
  cl_int Status;
  std::uint64_t Stamps[4] = {0, 0, 0, 0}; // QUEUED, SUBMIT, START, END
  bool FromDevice = false;
  cl_event DeviceEvent = nullptr; // keepDeviceEvent's, until read
  std::uint64_t DeviceEnqueuedNs = 0;
  std::vector<PendingCallback> Callbacks;
};

Event *asEvent(cl_event Handle);
std::uint64_t hostNanoseconds();

} // namespace libsplit
