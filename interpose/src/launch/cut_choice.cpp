#include "cut_choice.hpp"

#include "launch.hpp"

#include "libsplit/planner/affinity.hpp"

#include <algorithm>

namespace libsplit {

// Data affinity: where the balancer's cut of a two-device split moves much data for its kernel
// time, other cuts are priced with the bytes each device lacks for its part and the kernel's
// seconds per work-group on each device, and the cheapest runs (planner/affinity.hpp). Data
// lock held.
void preferCheaperCut(Kernel &K, const LaunchRequest &R, const CompiledKernel &Facts,
                      const std::vector<ExecDevice *> &Devices, cl_uint Dim, size_t Groups,
                      bool Regions, const analysis::NDRange &Range,
                      const analysis::LaunchArgs &Scalars, std::vector<Slice> &Slices,
                      std::map<Buffer *, BufferPlan> &Plans, double PlanSeconds) {
  if (Devices.size() != 2 || Slices.size() != 2 || Slices[0].Device != Devices[0])
    return;
  const bool PeerCopy = servicesOf(K).Settings.PeerCopy;
  auto candidate = [PeerCopy](const std::vector<Slice> &Of,
                              const std::map<Buffer *, BufferPlan> &With) {
    planner::CutCandidate C;
    for (const Slice &S : Of)
      C.Groups.push_back(S.EndGroup - S.FirstGroup);
    C.Bytes = bytesPerSlice(With, Of, PeerCopy);
    return C;
  };
  SliceHistory &History = *K.sliceHistory();
  const std::vector<double> Rates = History.of({Devices[0]->Index, Devices[1]->Index});
  const double Link = planner::GuardSettings().LinkBytesPerSecond;
  std::vector<planner::CutCandidate> Candidates{candidate(Slices, Plans)};
  struct NoteCut {
    SliceHistory &History;
    const std::vector<Slice> &Slices;
    ~NoteCut() { History.noteCut(Slices.size() == 2 ? Slices[0].EndGroup : 0); }
  } Noted{History, Slices};
  std::vector<size_t> Cuts = planner::cutsToTry(Groups, Slices[0].EndGroup);
  // The kernel's last cut: where its data mostly is, if the launch kept its shape.
  if (const size_t Last = History.lastCut();
      Last > 0 && Last < Groups && std::find(Cuts.begin(), Cuts.end(), Last) == Cuts.end())
    Cuts.push_back(Last);
  // Each other cut costs a plan as long as the balancer's took.
  if (!planner::worthOtherCuts(Candidates.front(), Rates, Link,
                               PlanSeconds * static_cast<double>(Cuts.size())))
    return;
  std::vector<std::vector<Slice>> CutSlices{Slices};
  std::vector<std::map<Buffer *, BufferPlan>> CutPlans;
  for (size_t Cut : Cuts) {
    if (Cut == Slices[0].EndGroup)
      continue;
    const double Share = static_cast<double>(Cut) / static_cast<double>(Groups);
    std::vector<Slice> Other{{Devices[0], 0, Cut, Share}, {Devices[1], Cut, Groups, 1.0 - Share}};
    CutPlans.push_back(planBuffers(Facts, R, Other, Regions, Range, Scalars, Dim));
    Candidates.push_back(candidate(Other, CutPlans.back()));
    CutSlices.push_back(std::move(Other));
  }
  const size_t Best = planner::cheapestCut(Candidates, Rates, Link);
  if (Best == 0)
    return;
  servicesOf(K).Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": cut at work-group ",
                          CutSlices[Best][0].EndGroup, " instead of ", Slices[0].EndGroup,
                          " (the balancer's would move more than it balances)");
  Slices = std::move(CutSlices[Best]);
  Plans = std::move(CutPlans[Best - 1]);
}

} // namespace libsplit
