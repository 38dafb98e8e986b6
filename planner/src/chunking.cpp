#include "libsplit/planner/chunking.hpp"

#include <algorithm>
#include <cmath>

namespace libsplit::planner {

std::size_t nextChunkGroups(std::size_t Remaining, double Rate, double TotalRate,
                            const ChunkSettings &Settings, std::size_t MinGroups) {
  if (Remaining == 0)
    return 0;
  if (!(Rate > 0.0) || !(TotalRate > 0.0) || !std::isfinite(Rate) || !std::isfinite(TotalRate))
    return Remaining;
  const double Part = std::min(1.0, Rate / TotalRate);
  const double Guided =
      std::ceil(static_cast<double>(Remaining) * Part / std::max(1.0, Settings.Divisor));
  const double Floor = std::ceil(Settings.FloorSeconds * Rate);
  const double Groups = std::max({Guided, Floor, static_cast<double>(MinGroups), 1.0});
  return Groups >= static_cast<double>(Remaining) ? Remaining : static_cast<std::size_t>(Groups);
}

std::size_t firstChunkGroups(std::size_t Groups, const ChunkSettings &Settings) {
  return std::clamp<std::size_t>(Groups / std::max<std::size_t>(Settings.FirstChunkDivisor, 1), 1,
                                 std::max<std::size_t>(Groups, 1));
}

bool chunkPays(double ArriveSeconds, double ChunkSeconds, double OthersFinishSeconds) {
  return ArriveSeconds + ChunkSeconds < OthersFinishSeconds;
}

} // namespace libsplit::planner
