// What a context and the objects under it (its execution devices, programs, kernels, queues and
// events) use of the rest of libsplit, handed to the context at its creation rather than reached
// through a global, as buffers (memory_services.hpp) and launches (launch_services.hpp) get
// theirs: the process's runtime makes the one set every context shares.
#pragma once

#include "device_discovery.hpp"
#include "device_worker.hpp"
#include "launch_services.hpp"
#include "memory_services.hpp"
#include "platform.hpp"
#include "real_api.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace libsplit {

class Context;

// Work left running in the background (split devices opening, partition-ready programs built for
// devices that get no work at first): the process's exit waits for it, so that no vendor call is
// still running while the vendors' libraries tear down. BeforeStart runs as each starts (the
// runtime registers its exit work again there: the wait then runs before the exit work of
// everything made until then, such as the static objects a vendor's compiler made at the app's
// own builds, which a build still running at exit uses).
class BackgroundWork {
public:
  explicit BackgroundWork(std::function<void()> BeforeStart = {})
      : BeforeStart(std::move(BeforeStart)) {}
  void started() {
    if (BeforeStart)
      BeforeStart();
    Running.add();
  }
  void done() { Running.done(); }
  void awaitIdle() { Running.wait(); }

private:
  std::function<void()> BeforeStart;
  Countdown Running{0};
};

// Held around each real kernel enqueue on a real device, whichever of libsplit's contexts it
// comes from: PoCL 3.1's basic device runs the kernel inside the call, and two threads doing so
// at once abort it (pocl_release_dlhandle_cache; api.two_contexts, about 1 run in 100).
class KernelEnqueueLocks {
public:
  std::mutex &of(cl_device_id RealDevice);

private:
  std::mutex Mutex;
  std::map<cl_device_id, std::mutex> Locks; // nodes never move: references stay valid
};

// Images and samplers live on the app's device only: the app holds the real objects, and this
// says which libsplit context each belongs to (kept alive while they are, as a real object keeps
// its real context).
class DeviceObjects {
public:
  void add(const void *Object, std::shared_ptr<Context> Owner);
  void remove(const void *Object);
  // Null for any other handle.
  std::shared_ptr<Context> contextOf(const void *Object);

private:
  std::mutex Mutex;
  std::unordered_map<const void *, std::shared_ptr<Context>> Owners; // Mutex
};

// Numbers for the queues, never given twice in the process: what a queue is known by where its
// object may be gone and another made at its address (Kernel's RepeatMemo).
class QueueSerials {
public:
  std::uint64_t next() { return Next.fetch_add(1, std::memory_order_relaxed); }

private:
  std::atomic<std::uint64_t> Next{1};
};

struct ContextServices {
  const RealApi &Real;    // the real OpenCL implementation
  MemoryServices &Memory; // for its buffers
  LaunchServices &Launch; // for its launches; and the controls, log, planner and timeline
  // The platforms' devices and the devices a split may use (LIBSPLIT_DEVICES,
  // LIBSPLIT_SUBDEVICES): none where nothing splits.
  DeviceDiscovery &Devices;
  BackgroundWork &Background;
  KernelEnqueueLocks &EnqueueLocks;
  DeviceObjects &AppDeviceObjects;
  QueueSerials &Queues;
};

} // namespace libsplit
