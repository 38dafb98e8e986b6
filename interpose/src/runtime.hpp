// The one libsplit object of the process: the real OpenCL API, configuration, logging, and the
// platforms and devices. Every entry point starts from runtime().
#pragma once

#include "balancing.hpp"
#include "deferred_writes.hpp"
#include "launch_services.hpp"
#include "memory_services.hpp"
#include "planning.hpp"
#include "platform.hpp"
#include "real_api.hpp"
#include "real_backend.hpp"
#include "run_record.hpp"
#include "timeline.hpp"

#include "config/config.hpp"
#include "config/log.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace libsplit {

class Context;

class Runtime {
public:
  Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  const RealApi &real() const { return Real; }
  const config::Config &config() const { return Settings; }
  config::Logger &log() { return Logger; }

  // False when libsplit could not start (no loader) or runs pass-through by request or after a
  // bad control: entry points then forward everything to the real implementation untouched.
  bool splitting() const { return Splitting; }
  bool usable() const { return Usable; }

  const std::vector<std::unique_ptr<Platform>> &platforms() const { return Platforms; }
  Platform *findPlatform(cl_platform_id Real) const;
  Device *findRootDevice(cl_device_id Real) const;

  // The devices a split launch may use (LIBSPLIT_DEVICES, LIBSPLIT_SUBDEVICES), as real ids.
  const std::vector<cl_device_id> &splitDevices() const { return SplitDevices; }

  LaunchBalancer &balancer() { return *Balance; }
  LaunchPlanner &planner() { return *Planner; }
  RunRecorder &recorder() { return *Recorder; }
  Timeline &timeline() { return *Spans; }
  // Pending deferred host writes (LIBSPLIT_DEFER=mprotect).
  DeferredWrites &deferredWrites() { return Deferred; }

  LiveMemory &liveMemory() { return Live; }
  // What buffers use (given to each context): the real backend and the services above.
  MemoryServices &memoryServices() { return Memory; }
  // What launches use (given to each context).
  LaunchServices &launchServices() { return Launch; }

  // Images and samplers live on the app's device only: the app holds the real objects, and
  // these say which libsplit context each belongs to (kept alive while they are, as a real
  // object keeps its real context). Null for any other handle.
  void addDeviceObject(const void *Object, std::shared_ptr<Context> Owner);
  void removeDeviceObject(const void *Object);
  std::shared_ptr<Context> deviceObjectContext(const void *Object);

  // Held around each real kernel enqueue on RealDevice, whichever of libsplit's contexts it
  // comes from: PoCL 3.1's basic device runs the kernel inside the call, and two threads doing
  // so at once abort it (pocl_release_dlhandle_cache; api.two_contexts, about 1 run in 100).
  std::mutex &kernelEnqueueLock(cl_device_id RealDevice);

  // Work left running in the background (partition-ready programs built for devices that get
  // no work at first): finish() waits for it, so that no vendor call is still running while the
  // vendors' libraries tear down at exit.
  void backgroundStarted();
  void backgroundDone();

  // At exit: the summary (LIBSPLIT_SUMMARY), the trace flushed, the tuning saved.
  void finish();

private:
  void discover();
  void selectSplitDevices();

  config::Config Settings;
  config::Logger Logger;
  RealApi Real;
  bool Usable = false;
  bool Splitting = false;
  std::vector<std::unique_ptr<Platform>> Platforms;
  std::vector<std::shared_ptr<Device>> RootDevices;
  std::vector<cl_device_id> SplitDevices;
  std::mutex BackgroundMutex;
  std::condition_variable BackgroundIdle;
  unsigned Background = 0;
  std::mutex EnqueueLocksMutex;
  std::map<cl_device_id, std::mutex> EnqueueLocks; // nodes never move: references stay valid
  std::mutex DeviceObjectsMutex;
  std::unordered_map<const void *, std::shared_ptr<Context>> DeviceObjects; // DeviceObjectsMutex
  std::unique_ptr<LaunchBalancer> Balance;
  std::unique_ptr<LaunchPlanner> Planner;
  std::unique_ptr<RunRecorder> Recorder;
  std::unique_ptr<Timeline> Spans;
  DeferredWrites Deferred;
  RealBackend Backend{Real};
  LiveMemory Live;
  MemoryServices Memory{Backend, Deferred, Settings.Defer, Live, *Recorder, *Spans, Logger};
  LaunchFailures Failures{Settings.FailLaunch};
  LaunchServices Launch{Settings, Logger, *Balance, *Planner, *Recorder, *Spans, Backend, Failures};
};

Runtime &runtime();

} // namespace libsplit
