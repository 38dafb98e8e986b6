#include "libsplit/planner/open_wait.hpp"

#include <algorithm>

namespace libsplit::planner {

namespace {
constexpr double ForegroundFactor = 15.0;
constexpr double BackgroundPerDevice = 5.0;
} // namespace

double openWaitFactor(bool InBackground, bool AppPlatformOnly, std::size_t DevicesToOpen) {
  if (!InBackground || !AppPlatformOnly)
    return ForegroundFactor;
  return std::min(ForegroundFactor, BackgroundPerDevice * static_cast<double>(std::max<std::size_t>(
                                                              DevicesToOpen, 1)));
}

double openAtCreationWaitFactor() { return ForegroundFactor; }

} // namespace libsplit::planner
