// A split launch's execution, once planned (launch.cpp decides and plans it): each slice's
// missing bytes come in, the slices run on their devices at once, writes stay where they were
// made or are merged on the host, and the measurement goes to the balancer, the guard and the
// trace (launch_report.hpp). A held split with nothing to merge is left running.
#pragma once

#include "launch_plan.hpp"
#include "launch_report.hpp"
#include "relays.hpp"

#include "libsplit/balancer/split.hpp"

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace libsplit {

struct SplitLaunch : PlannedLaunch {
  std::map<Buffer *, BufferPlan> Plans;
  std::vector<Slice> Slices;
  std::vector<ExecDevice *> Devices; // the launch's devices, in the balancer's order
  balancer::Split Proposal;
  bool AnyDiffMerge = false, AnyCombine = false;
  std::optional<planner::Decision> Plan; // the guard's, when it decided
  std::shared_ptr<GuardSlot> Guard;
  double Work = 0.0;
  // What the slices' devices get relayed from others (not in their plans' FromHost).
  std::vector<LaunchRelay> Relays;
};

// Runs it; the caller holds the data lock. Returns CL_SUCCESS, FinishesLater (left running), or
// a device's error.
cl_int runSplit(SplitLaunch &L);

// Enqueues work-groups [FirstGroup, EndGroup) along Dim of a launch of Groups work-groups, with
// the partition-ready kernel Real (its app arguments set): its three trailing arguments, the
// slice's offset and size. Done as for enqueueRealKernel.
cl_int enqueueSlice(ExecDevice &Device, cl_kernel Real, const CompiledKernel &Facts,
                    const LaunchRequest &R, cl_uint Dim, std::size_t Groups, std::size_t FirstGroup,
                    std::size_t EndGroup, cl_event *Done);

// The same with the app's own kernel Real (its arguments set): the slice's global offset and
// size alone, exact for a kernel the kernel compiler lists offset-exact
// (CompiledKernel::OffsetExact).
cl_int enqueueOwnSlice(ExecDevice &Device, cl_kernel Real, const LaunchRequest &R, cl_uint Dim,
                       std::size_t FirstGroup, std::size_t EndGroup, cl_event *Done);

// The size of the elements a launch writes in Root: the smallest over the kernel's arguments in
// Root (two views of one buffer may differ), 1 where one of them is not known. Device: one whose
// partition-ready kernel answers for the argument types.
std::size_t writtenElementBytes(Kernel &K, const LaunchRequest &R, Buffer &Root,
                                ExecDevice &Device);

} // namespace libsplit
