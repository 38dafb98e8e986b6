// What launches use of the rest of libsplit, handed to them by the context they run in (from the
// process's runtime) rather than reached through a global, as buffers get theirs
// (memory_services.hpp): the controls, the log, the balancer and planner that decide, the trace,
// summary and timeline that report, and the backend that moves bytes.
#pragma once

#include "balancing.hpp"
#include "device_backend.hpp"
#include "planning.hpp"
#include "run_record.hpp"
#include "timeline.hpp"

#include "config/config.hpp"
#include "config/log.hpp"

#include <atomic>

namespace libsplit {

// LIBSPLIT_FAIL_LAUNCH: counts the kernel launches that start running and names the one that
// fails.
class LaunchFailures {
public:
  explicit LaunchFailures(unsigned FailLaunch) : FailLaunch(FailLaunch) {}
  // Counts a launch that starts running; true for the one LIBSPLIT_FAIL_LAUNCH names.
  bool failThisLaunch() { return FailLaunch != 0 && LaunchesRun.fetch_add(1) + 1 == FailLaunch; }

private:
  const unsigned FailLaunch;
  std::atomic<unsigned long> LaunchesRun{0};
};

struct LaunchServices {
  const config::Config &Settings;
  config::Logger &Log;
  LaunchBalancer &Balancer; // shares of split launches
  LaunchPlanner &Planner;   // whether a kernel splits, its cost models
  RunRecorder &Recorder;    // trace and summary
  Timeline &Spans;          // the timeline's spans
  DeviceBackend &Backend;   // copies between devices
  LaunchFailures &Failures;
};

} // namespace libsplit
