#include "cut_choice.hpp"

#include "launch.hpp"

#include "libsplit/planner/affinity.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace libsplit {

namespace {

// The lowest root byte of Root that work-groups [First, End) write, SIZE_MAX where they write
// none of it; 0 where they may write all of it.
size_t lowestWrite(const std::vector<analysis::ArgRegions> &Used, const LaunchRequest &R,
                   const Buffer *Root) {
  size_t Lowest = SIZE_MAX;
  for (size_t ArgIndex = 0; ArgIndex < R.Args.size() && ArgIndex < Used.size(); ++ArgIndex) {
    const KernelArg &A = R.Args[ArgIndex];
    if (A.What != KernelArg::Kind::Buffer || &A.Mem->root() != Root)
      continue;
    const analysis::ArgRegions &U = Used[ArgIndex];
    if (U.WriteWhole || U.AtomicWhole)
      return 0;
    const RangeSet Written = toRoot(U.Write, *A.Mem);
    if (!Written.empty())
      Lowest = std::min(Lowest, Written.spans().front().Begin);
  }
  return Lowest;
}

// Owner computes: the cut at which the second device's part of the launch starts writing where
// the last split of the buffer it writes most began (Buffer::splitEdge), none without such a
// buffer or cut. The balancer's cut (Proposed, planned in Plans) is checked first: where it
// keeps the split already, one evaluation of the regions says so.
std::optional<size_t> cutAtEdges(const CompiledKernel &Facts, const LaunchRequest &R,
                                 const std::map<Buffer *, BufferPlan> &Plans,
                                 const analysis::NDRange &Range,
                                 const analysis::LaunchArgs &Scalars, cl_uint Dim, size_t Groups,
                                 size_t Proposed) {
  Buffer *Most = nullptr;
  const BufferPlan *MostPlan = nullptr;
  for (const auto &[Root, P] : Plans)
    if (P.Writes && !P.Merge && Root->splitEdge() && P.Write.size() == 2 &&
        (!MostPlan || P.Write[1].totalBytes() >= MostPlan->Write[1].totalBytes())) {
      Most = Root;
      MostPlan = &P;
    }
  if (!Most)
    return std::nullopt;
  const size_t Edge = *Most->splitEdge();
  auto startAt = [&](size_t Cut) {
    return lowestWrite(analysis::evaluateSlice(Facts.Regions, Range, Scalars, {Dim, Cut, Groups}),
                       R, Most);
  };
  const size_t ProposedStart =
      MostPlan->Write[1].empty() ? SIZE_MAX : MostPlan->Write[1].spans().front().Begin;
  if (ProposedStart >= Edge && (Proposed <= 1 || startAt(Proposed - 1) < Edge))
    return Proposed;
  return planner::cutAtEdge(1, Groups - 1, Edge, startAt);
}

} // namespace

// Data affinity: where the balancer's cut of a two-device split moves much data for its kernel
// time, other cuts are priced with the bytes each device lacks for its part, what a fetch costs
// each device beyond its bytes and the kernel's seconds per work-group on each device, and the
// cheapest runs (planner/affinity.hpp). The cuts priced: where each device's data ends (owner
// computes: a factorization's trailing matrix stays where it is, whichever kernel cuts it), and
// on devices that share no hardware also the kernel's last cut and a grid through the launch.
// Data lock held.
void preferCheaperCut(Kernel &K, const LaunchRequest &R, const CompiledKernel &Facts,
                      const std::vector<ExecDevice *> &Devices, cl_uint Dim, size_t Groups,
                      bool Regions, const analysis::NDRange &Range,
                      const analysis::LaunchArgs &Scalars, std::vector<Slice> &Slices,
                      std::map<Buffer *, BufferPlan> &Plans, double PlanSeconds,
                      bool SeparateHardware) {
  if (Devices.size() != 2 || Slices.size() != 2 || Slices[0].Device != Devices[0] || !Regions ||
      Groups < 3)
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
  const double Link = History.linkBytesPerSecond({Devices[0]->Index, Devices[1]->Index},
                                                 planner::GuardSettings().LinkBytesPerSecond);
  std::vector<planner::CutCandidate> Candidates{candidate(Slices, Plans)};
  struct NoteCut {
    SliceHistory &History;
    const std::vector<Slice> &Slices;
    ~NoteCut() { History.noteCut(Slices.size() == 2 ? Slices[0].EndGroup : 0); }
  } Noted{History, Slices};
  const size_t Proposed = Slices[0].EndGroup;
  // The bytes the balancer's cut moves may cost twice against the owner's cut
  // (chargeReturnTrips): nothing to price where even that would not pay.
  planner::CutCandidate Twice = Candidates.front();
  for (double &Bytes : Twice.Bytes)
    Bytes *= 2;
  if (!planner::worthOtherCuts(Twice, Rates, Link, 0.0))
    return;
  // Owner computes: the cut that keeps the split of the buffer the launch writes most. Where the
  // balancer's keeps it, what it moves (a stencil's halo) no other cut saves: nothing is priced.
  const std::optional<size_t> Owner =
      cutAtEdges(Facts, R, Plans, Range, Scalars, Dim, Groups, Proposed);
  if (Owner == Proposed)
    return;
  std::vector<size_t> Cuts;
  // Devices that share cores slow each other down, which a cut's price by each one's rate alone
  // does not see (on PoCL's pair, grid cuts that moved less ran LU slower): there, only the
  // owner's cut.
  if (SeparateHardware) {
    Cuts = planner::cutsToTry(Groups, Proposed);
    // The kernel's last cut: where its data mostly is, if the launch kept its shape.
    if (const size_t Last = History.lastCut();
        Last > 0 && Last < Groups && std::find(Cuts.begin(), Cuts.end(), Last) == Cuts.end())
      Cuts.push_back(Last);
  }
  if (Owner && std::find(Cuts.begin(), Cuts.end(), *Owner) == Cuts.end())
    Cuts.push_back(*Owner);
  // Each other cut costs a plan as long as the balancer's took.
  if (Cuts.empty() || !planner::worthOtherCuts(Owner ? Twice : Candidates.front(), Rates, Link,
                                               PlanSeconds * static_cast<double>(Cuts.size())))
    return;
  std::vector<std::vector<Slice>> CutSlices{Slices};
  std::vector<std::map<Buffer *, BufferPlan>> CutPlans;
  for (size_t Cut : Cuts) {
    if (Cut == Proposed)
      continue;
    const double Share = static_cast<double>(Cut) / static_cast<double>(Groups);
    std::vector<Slice> Other{{Devices[0], 0, Cut, Share}, {Devices[1], Cut, Groups, 1.0 - Share}};
    CutPlans.push_back(planBuffers(Facts, R, Other, Regions, Range, Scalars, Dim));
    Candidates.push_back(candidate(Other, CutPlans.back()));
    CutSlices.push_back(std::move(Other));
  }
  if (Owner)
    for (size_t C = 0; C < CutSlices.size(); ++C)
      if (CutSlices[C][0].EndGroup == *Owner)
        planner::chargeReturnTrips(Candidates, C);
  const size_t Best = planner::cheapestCut(Candidates, Rates, Link);
  if (Best == 0)
    return;
  servicesOf(K).Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": cut at work-group ",
                          CutSlices[Best][0].EndGroup, " instead of ", Proposed,
                          " (the balancer's would move more than it balances)");
  Slices = std::move(CutSlices[Best]);
  Plans = std::move(CutPlans[Best - 1]);
}

bool heldWhollyOn(const LaunchRequest &R, const ExecDevice &Device) {
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Buffer && !A.Mem->wholeValidOn(Device.Index))
      return false;
  return true;
}

ExecDevice *whereDataIs(const CompiledKernel &Facts, const LaunchRequest &R,
                        const std::vector<ExecDevice *> &Devices, ExecDevice &Home, bool PeerCopy) {
  if (!hasRegions(Facts, R) || R.WorkDim == 0 || !R.Local[0] || heldWhollyOn(R, Home))
    return nullptr;
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);
  const size_t Groups = R.Global[0] / R.Local[0];
  auto lacks = [&](ExecDevice *D) {
    const std::vector<Slice> Whole{{D, 0, Groups, 1.0}};
    return bytesPerSlice(planBuffers(Facts, R, Whole, true, Range, Scalars, 0), Whole, PeerCopy)
        .front();
  };
  ExecDevice *Best = &Home;
  double Fewest = lacks(&Home);
  for (ExecDevice *D : Devices) {
    if (D == &Home || ((Home.Type & CL_DEVICE_TYPE_GPU) && (D->Type & CL_DEVICE_TYPE_CPU)) ||
        !(Fewest > 0.0))
      continue;
    if (const double Bytes = lacks(D); Bytes < Fewest) {
      Best = D;
      Fewest = Bytes;
    }
  }
  return Best == &Home ? nullptr : Best;
}

void noteSplitEdges(const std::map<Buffer *, BufferPlan> &Plans, size_t SliceCount) {
  for (const auto &[Root, P] : Plans) {
    if (!P.Writes)
      continue;
    if (SliceCount == 2 && !P.Merge && P.Write.size() == 2 && !P.Write[1].empty())
      Root->setSplitEdge(P.Write[1].spans().front().Begin);
    else
      Root->setSplitEdge(std::nullopt);
  }
}

} // namespace libsplit
