// What a split launch reports once measured: one record, fed to the balancer (each device's
// slice), the split guard (the launch's cost, and the app's device's slice scaled to the whole
// launch), the trace and the summary.
#pragma once

#include "kernel.hpp"
#include "launch.hpp"
#include "launch_plan.hpp"
#include "planning.hpp"
#include "run_record.hpp"
#include "slice_history.hpp"

#include "libsplit/balancer/balancer.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace libsplit {

class Queue;

// What a launch planned to split (split_launch.hpp) or to run in chunks (chunked_launch.hpp)
// carries to its execution and its report.
struct PlannedLaunch {
  Queue *Q = nullptr;
  Kernel *K = nullptr;
  const LaunchRequest *R = nullptr; // its local size set
  const CompiledKernel *Facts = nullptr;
  cl_uint Dim = 0;        // the split dimension
  std::size_t Groups = 0; // work-groups along Dim
  balancer::LaunchKey Key;
  bool SeparateHardware = true; // the devices share no cores
  bool Fail = false;            // LIBSPLIT_FAIL_LAUNCH: it ends with a device error after it ran
  LaunchRecord Base;            // the launch as the app made it
};

// A launch the split guard decided: what it cost goes back to the guard once measured.
struct GuardNote {
  std::shared_ptr<GuardSlot> Guard;
  planner::Ticket Launch;
  double Work = 0.0; // work-items of the whole NDRange
};

struct SplitReport {
  std::vector<Slice> Slices;
  std::vector<ExecDevice *> Devices; // the launch's devices, in the balancer's order
  balancer::Split Proposal;
  double GatherSeconds = 0.0; // bringing to the host what a device lacked, charged by bytes
  balancer::LaunchKey Key;
  cl_uint Dim = 0;
  bool Merged = false, Combined = false;
  std::optional<GuardNote> Note;
  bool SeparateHardware = false;
  const ExecDevice *Home = nullptr;    // the app's device
  size_t Groups = 0;                   // work-groups of the whole launch along Dim
  LaunchRecord Base;                   // the launch as the app made it
  std::shared_ptr<SliceHistory> Rates; // the kernel's, fed each slice's seconds per work-group
  LaunchServices *Services = nullptr;  // the kernel's context's

  // Reports the launch: Makespan seconds, and each slice's kernel seconds (Kernels, for a
  // pipelined launch; empty: already in Slices).
  void operator()(double Makespan, const std::vector<double> &Kernels);
};

} // namespace libsplit
