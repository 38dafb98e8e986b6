#include "libsplit/planner/affinity.hpp"

#include <algorithm>

namespace libsplit::planner {

double predictedSeconds(const CutCandidate &C, const std::vector<double> &SecondsPerGroup,
                        double LinkBytesPerSecond) {
  double Slowest = 0.0;
  for (std::size_t I = 0; I < C.Groups.size(); ++I) {
    const double Kernel =
        static_cast<double>(C.Groups[I]) * (I < SecondsPerGroup.size() ? SecondsPerGroup[I] : 0.0);
    const double Moved =
        I < C.Bytes.size() && LinkBytesPerSecond > 0.0 ? C.Bytes[I] / LinkBytesPerSecond : 0.0;
    Slowest = std::max(Slowest, Kernel + Moved);
  }
  return Slowest;
}

bool worthOtherCuts(const CutCandidate &Proposed, const std::vector<double> &SecondsPerGroup,
                    double LinkBytesPerSecond, double PricingSeconds,
                    const AffinitySettings &Settings) {
  if (!(LinkBytesPerSecond > 0.0))
    return false;
  double Kernel = 0.0, Moved = 0.0;
  for (std::size_t I = 0; I < Proposed.Groups.size(); ++I) {
    if (!Proposed.Groups[I])
      continue;
    if (I >= SecondsPerGroup.size() || !(SecondsPerGroup[I] > 0.0))
      return false;
    Kernel = std::max(Kernel, static_cast<double>(Proposed.Groups[I]) * SecondsPerGroup[I]);
    if (I < Proposed.Bytes.size())
      Moved = std::max(Moved, Proposed.Bytes[I] / LinkBytesPerSecond);
  }
  return Moved > 0.0 && Moved >= Settings.MovedShare * Kernel && Moved >= PricingSeconds;
}

std::vector<std::size_t> cutsToTry(std::size_t Groups, std::size_t Proposed,
                                   const AffinitySettings &Settings) {
  std::vector<std::size_t> Cuts;
  auto add = [&](std::size_t Cut) {
    if (Cut > 0 && Cut < Groups && std::find(Cuts.begin(), Cuts.end(), Cut) == Cuts.end())
      Cuts.push_back(Cut);
  };
  add(Proposed);
  const std::size_t Grid = std::max<std::size_t>(Settings.Grid, 1);
  for (std::size_t J = 1; J < Grid; ++J)
    add(Groups * J / Grid);
  return Cuts;
}

std::size_t cheapestCut(const std::vector<CutCandidate> &Candidates,
                        const std::vector<double> &SecondsPerGroup, double LinkBytesPerSecond,
                        const AffinitySettings &Settings) {
  if (Candidates.empty())
    return 0;
  const double First = predictedSeconds(Candidates.front(), SecondsPerGroup, LinkBytesPerSecond);
  std::size_t Best = 0;
  double BestSeconds = First;
  for (std::size_t I = 1; I < Candidates.size(); ++I) {
    const double Seconds = predictedSeconds(Candidates[I], SecondsPerGroup, LinkBytesPerSecond);
    if (Seconds < BestSeconds) {
      Best = I;
      BestSeconds = Seconds;
    }
  }
  return BestSeconds < (1.0 - Settings.Margin) * First ? Best : 0;
}

} // namespace libsplit::planner
