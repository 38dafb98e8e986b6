#include "libsplit/planner/chunking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

double residentItems(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup) {
  const double Units = static_cast<double>(std::max(ComputeUnits, 1u));
  return Gpu ? Units * 2048.0
             : Units * static_cast<double>(std::max<std::size_t>(ItemsPerGroup, 1));
}

std::size_t residentGroups(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup) {
  const double PerGroup = static_cast<double>(std::max<std::size_t>(ItemsPerGroup, 1));
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(
                                      residentItems(Gpu, ComputeUnits, ItemsPerGroup) / PerGroup)));
}

bool fillsDevice(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup, double WorkItems) {
  // Any launch fills a CPU's cores well enough: a work-group per core.
  return !Gpu || WorkItems * 4.0 >= residentItems(Gpu, ComputeUnits, ItemsPerGroup);
}

std::size_t chunkFor(const ChunkTaker &Taker, const ChunkRound &Round,
                     const ChunkSettings &Settings) {
  if (Round.Remaining == 0)
    return 0;
  if (Round.Forced)
    return Round.Active == 1 && !Round.MoreComing
               ? Round.Remaining
               : nextChunkGroups(Round.Remaining, Taker.Rate, Round.TotalRate, Settings);
  const bool Measuring = Taker.ChunksDone == 0 && (!Taker.AppDevice || !(Taker.Rate > 0.0));
  if (Measuring) {
    if (!Taker.SameTypeAsApp)
      return nextChunkGroups(Round.Remaining, Taker.Rate, std::numeric_limits<double>::max(),
                             Settings);
    const std::size_t First =
        std::max(firstChunkGroups(Round.Groups, Settings),
                 Taker.AppDevice ? std::size_t(1) : std::max<std::size_t>(Taker.Resident, 1));
    return std::min(First, Round.Remaining);
  }
  if (Round.Active == 1 && !Round.MoreComing)
    return Round.Remaining;
  return nextChunkGroups(Round.Remaining, Taker.Rate, Round.TotalRate, Settings,
                         std::max<std::size_t>(Taker.Resident, 1));
}

bool chunkPays(double ArriveSeconds, double ChunkSeconds, double OthersFinishSeconds) {
  return ArriveSeconds + ChunkSeconds < OthersFinishSeconds;
}

} // namespace libsplit::planner
