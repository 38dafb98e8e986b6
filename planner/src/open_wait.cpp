#include "libsplit/planner/open_wait.hpp"

#include <algorithm>

namespace libsplit::planner {

namespace {
constexpr double ForegroundFactor = 15.0;
constexpr double BackgroundPerDevice = 5.0;
// Opened with the context, the split devices cost about what the app's own context did, once and
// beside the app's set-up, and no launch runs whole before they are there, as when they open
// during a run: an earlier run that waited a few times that long is worth one try.
constexpr double OpenAtStartFactor = 2.0;
// Where its launches were long: a split launch costs NVIDIA's driver a few tenths of a
// millisecond of host work, and a kernel whose data must first spread over the devices pays it
// back over many launches only. (Shorter launches' waits, opened for at creation, measured no
// split: their kernels' first launches ran whole rather than spread the data, and the probes
// after priced the spread above what the rest of the run could save.)
constexpr double LongLaunchSeconds = 2e-3;
constexpr double QueuedPaysFactor = 2.0;
} // namespace

double openWaitFactor(bool InBackground, bool AppPlatformOnly, std::size_t DevicesToOpen) {
  if (!InBackground || !AppPlatformOnly)
    return ForegroundFactor;
  return std::min(ForegroundFactor, BackgroundPerDevice * static_cast<double>(std::max<std::size_t>(
                                                              DevicesToOpen, 1)));
}

double openAtCreationWaitFactor() { return ForegroundFactor; }

bool queuedWorkOpens(const SavedWait &Earlier, double OpenAfterSeconds) {
  return !(Earlier.Queued >= 0.0 && Earlier.Queued < QueuedPaysFactor * OpenAfterSeconds);
}

bool earlierWaitOpensAtCreation(const SavedWait &Earlier, double CreateSeconds, double WaitThatPays,
                                bool DevicesShareCores) {
  if (Earlier.Seconds >= WaitThatPays)
    return true;
  return Earlier.Seconds >= OpenAtStartFactor * CreateSeconds && Earlier.Launches > 0 &&
         Earlier.Seconds >= LongLaunchSeconds * static_cast<double>(Earlier.Launches) &&
         !DevicesShareCores && !Earlier.SplitNothing;
}

} // namespace libsplit::planner
