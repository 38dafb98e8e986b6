// A kernel launch as the app asked for it: its NDRange and a snapshot of the arguments.
#pragma once

#include "event.hpp"
#include "kernel_arg.hpp"
#include "slice_regions.hpp"
#include "timeline.hpp"

#include "libsplit/planner/split_guard.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace libsplit {

struct LaunchRequest {
  cl_uint WorkDim = 1;
  std::array<size_t, 3> Global = {1, 1, 1};
  std::array<size_t, 3> Local = {1, 1, 1};
  bool LocalGiven = false;
  std::array<size_t, 3> Offset = {0, 0, 0};
  std::vector<KernelArg> Args;
  // The app asked for the launch's event: the launch goes through its queue's command, which
  // completes that event (not launchDirect).
  bool EventWanted = false;
  // That event, where its queue profiles: a launch run whole gives it the kernel's own start and
  // end (Event::stampFromDevice), not the times libsplit saw it start and end.
  std::weak_ptr<Event> Reported;
  // The split guard's decision, where it was made at the app's call (decideAtCall).
  std::optional<planner::Decision> Decided;
  // With LIBSPLIT_TIMELINE: the app's call, which each of the launch's kernels points back to.
  std::optional<Timeline::Call> Called;
  // The kernel's slices' regions, kept across its launches (null: evaluated each time); the
  // kernel's, which the launch keeps alive.
  SliceRegionMemo *RegionMemo = nullptr;
  // The kernel's argument generations when Args was taken (Kernel::LaunchView::ArgsGeneration).
  std::pair<std::uint64_t, std::uint64_t> ArgsGeneration{0, 0};
};

} // namespace libsplit
