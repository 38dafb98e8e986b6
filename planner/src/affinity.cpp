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
  return Slowest + C.FixedSeconds;
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

std::optional<std::size_t> cutAtEdge(std::size_t Lowest, std::size_t Highest, std::size_t Edge,
                                     const std::function<std::size_t(std::size_t)> &RightStart) {
  if (Highest < Lowest || RightStart(Highest) < Edge)
    return std::nullopt;
  // RightStart(Found) >= Edge; every cut below Below's next is known to start before it.
  std::size_t Found = Highest, Below = Lowest;
  if (RightStart(Lowest) >= Edge)
    return Lowest;
  while (Found - Below > 1) {
    const std::size_t Mid = Below + (Found - Below) / 2;
    (RightStart(Mid) >= Edge ? Found : Below) = Mid;
  }
  return Found;
}

void chargeReturnTrips(std::vector<CutCandidate> &Candidates, std::size_t Owner) {
  if (Owner >= Candidates.size())
    return;
  const std::vector<double> Kept = Candidates[Owner].Bytes;
  for (std::size_t C = 0; C < Candidates.size(); ++C)
    for (std::size_t I = 0; I < Candidates[C].Bytes.size() && C != Owner; ++I)
      Candidates[C].Bytes[I] +=
          std::max(0.0, Candidates[C].Bytes[I] - (I < Kept.size() ? Kept[I] : 0.0));
}

double probeSeconds(double ProbeBytes, double HeldBytes, double LinkBytesPerSecond) {
  if (!(LinkBytesPerSecond > 0.0) || !(ProbeBytes > HeldBytes))
    return 0.0;
  return 2.0 * (ProbeBytes - HeldBytes) / LinkBytesPerSecond;
}

std::size_t cheapestCut(const std::vector<CutCandidate> &Candidates,
                        const std::vector<double> &SecondsPerGroup, double LinkBytesPerSecond,
                        const AffinitySettings &Settings, std::optional<std::size_t> Owner) {
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
  if (Owner && *Owner < Candidates.size() && *Owner != Best &&
      !(BestSeconds <
        (1.0 - Settings.OwnerMargin) *
            predictedSeconds(Candidates[*Owner], SecondsPerGroup, LinkBytesPerSecond)))
    return *Owner;
  return BestSeconds < (1.0 - Settings.Margin) * First ? Best : 0;
}

} // namespace libsplit::planner
