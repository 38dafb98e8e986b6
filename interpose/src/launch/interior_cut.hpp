// The part of a split launch's slice that can start before the bytes its device lacks arrive:
// a stencil's slice needs its neighbours' halo only at its edges, so its interior is queued behind
// the kernel before it while the halo comes through the host, and the edges follow the halo.
// Pure planning over the slice's regions (libsplit_plan): no OpenCL call.
#pragma once

#include "launch_plan.hpp"

#include "config/config.hpp"
#include "libsplit/planner/overlap_trial.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

namespace libsplit {

// Work-groups [First, End) of the split dimension.
struct GroupSpan {
  std::size_t First = 0;
  std::size_t End = 0;
  bool empty() const { return End <= First; }
  std::size_t size() const { return empty() ? 0 : End - First; }
  bool operator==(const GroupSpan &O) const { return First == O.First && End == O.End; }
};

// The interior of slice [First, End): the slice less 1, 2, 4, ... groups at its low end, its
// high end, or both (the first that AvoidsMissing accepts, fewest groups left out first), as long
// as it holds at least half the slice; empty when none does.
GroupSpan interiorOf(std::size_t First, std::size_t End,
                     const std::function<bool(const GroupSpan &)> &AvoidsMissing);

// Whether work-groups Part of the launch (along Dim) need none of the bytes in Missing (per root
// buffer), by the kernel's regions.
bool avoidsMissing(const CompiledKernel &Facts, const LaunchRequest &R,
                   const analysis::NDRange &Range, const analysis::LaunchArgs &Scalars, cl_uint Dim,
                   const GroupSpan &Part, const std::map<Buffer *, RangeSet> &Missing);

// A kernel's interiors, kept per device and slice: an iterative kernel's held split asks the
// same ones every launch, and a slice whose search found none is not searched again until its
// bounds change.
class InteriorMemo {
public:
  // The interior of Slice on device Device: the one kept when it still avoids Missing (one
  // evaluation), else a new search.
  GroupSpan interior(std::size_t Device, const GroupSpan &Slice,
                     const std::function<bool(const GroupSpan &)> &AvoidsMissing);

private:
  static constexpr std::size_t MaxKept = 64;
  std::mutex Mutex;
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, GroupSpan> Kept;
};

// Whether a kernel's split launches queue their interiors early (LIBSPLIT_OVERLAP): always, or,
// for auto, what the kernel's trial says (planner::OverlapTrial), timed between the launches
// that ask while the balancer holds their split. A launch of a split still searched (its first
// launches, a probe) does not, and is not timed: its steps say nothing of the held split's.
// Launches of several queues may ask at once.
class OverlapChoice {
public:
  bool next(config::OverlapPolicy Policy, bool Held, std::chrono::steady_clock::time_point Now);

private:
  std::mutex Mutex;
  planner::OverlapTrial Trial;
  std::optional<std::chrono::steady_clock::time_point> Last;
};

} // namespace libsplit
