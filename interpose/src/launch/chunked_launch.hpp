// A launch balanced while it runs (planner/chunking.hpp): its work-groups along the split
// dimension are cut into chunks; the app's device takes them from the low end at once, every
// other device from the high end once it can run them and while its data arrives in time. Used
// for a launch with nothing measured for it: a kernel's first launch at its size where the
// devices are open, and, while they are not open yet, a kernel's first launch on the app's
// device, which opens them when it is predicted to run long enough to pay for them (they join
// it once open). Data: each chunk's device gets the bytes the chunk needs (its regions) before
// it; writes stay where they were made, or are merged as a split launch's are (a snapshot before
// the first chunk; atomics combined).
#pragma once

#include "launch_plan.hpp"
#include "launch_report.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace libsplit {

struct ChunkedLaunch : PlannedLaunch {
  bool Regions = false;
  bool DisjointWrites = false; // the regions show slices along Dim writing disjoint bytes
  ExecDevice *Home = nullptr;
  // Devices other than Home that can take chunks now (open, built, able to run its
  // work-groups); asked again while the launch runs.
  std::function<std::vector<ExecDevice *>()> Joinable;
  // Asked once the app's device has run its first chunk, with the seconds the rest would take
  // there: whether other devices will join (where they are not open, they open for it when that
  // pays).
  std::function<bool(double)> OpenFor;
  // Whether more devices may become joinable during the launch (opening, or building).
  std::function<bool()> MayJoinLater;
  // The size of the elements the launch writes in a root buffer (merges compare by element).
  std::function<std::size_t(Buffer &)> ElementBytes;
  // The devices the balancer splits this key across next time, in its order: the shares the
  // chunks measured start it there when every one of them took part.
  std::function<std::vector<ExecDevice *>()> BalancerDevices;
  std::optional<GuardNote> Note;
  // LIBSPLIT_CHUNK=always (tests): every device takes chunks from the start, whatever they cost,
  // and chunks have no floor.
  bool Forced = false;
};

// Runs the launch in chunks; the caller holds the context's data lock. Returns CL_SUCCESS or
// the first device error (the launch's chunks have all ended by then).
cl_int runChunked(const ChunkedLaunch &L);

} // namespace libsplit
