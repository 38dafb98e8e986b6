// The one libsplit object of the process: the real OpenCL API, configuration, logging, and the
// platforms and devices. Every entry point starts from runtime().
#pragma once

#include "balancing.hpp"
#include "context_services.hpp"
#include "deferred_writes.hpp"
#include "device_discovery.hpp"
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
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace libsplit {

class Context;
class Runtime;

// The process's one Runtime, made at the first call.
Runtime &runtime();

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

  // The platforms; their devices, and the devices a split launch may use (LIBSPLIT_DEVICES,
  // LIBSPLIT_SUBDEVICES), found in the background (DeviceDiscovery).
  const std::vector<std::unique_ptr<Platform>> &platforms() const { return Devices.platforms(); }
  DeviceDiscovery &devices() { return Devices; }

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
  // What each context and its objects use, the two above included (given to each context).
  ContextServices &contextServices() { return Objects; }

  // Images and samplers (DeviceObjects): which context each belongs to; null for any other
  // handle.
  void addDeviceObject(const void *Object, std::shared_ptr<Context> Owner) {
    AppDeviceObjects.add(Object, std::move(Owner));
  }
  void removeDeviceObject(const void *Object) { AppDeviceObjects.remove(Object); }
  std::shared_ptr<Context> deviceObjectContext(const void *Object) {
    return AppDeviceObjects.contextOf(Object);
  }

  // At exit, once the contexts' background work ended: the summary (LIBSPLIT_SUMMARY), the trace
  // flushed, the tuning saved.
  void finish();

private:
  config::Config Settings;
  config::Logger Logger;
  RealApi Real;
  bool Usable = false;
  bool Splitting = false;
  // Finding a platform's devices starts the vendor's runtime, which registers exit work of its
  // own: finish() registered again after it runs before that work (exit runs the last first).
  DeviceDiscovery Devices{Real, Settings, Logger, [] { std::atexit([] { runtime().finish(); }); }};
  std::atomic<bool> Finished{false};
  BackgroundWork Background{[] { std::atexit([] { runtime().finish(); }); }};
  KernelEnqueueLocks EnqueueLocks;
  DeviceObjects AppDeviceObjects;
  QueueSerials Queues;
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
  ContextServices Objects{Real,       Memory,       Launch,           Devices,
                          Background, EnqueueLocks, AppDeviceObjects, Queues};
};

} // namespace libsplit
