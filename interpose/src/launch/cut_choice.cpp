#include "cut_choice.hpp"

#include "launch.hpp"
#include "owner_cut.hpp"

#include "libsplit/planner/affinity.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

namespace libsplit {

namespace {

double total(const std::vector<double> &Bytes) {
  return std::accumulate(Bytes.begin(), Bytes.end(), 0.0);
}

// What ownerCut and readEdgeCuts read, flattened: the NDRange, the scalar arguments, the split
// dimension and cut, and each buffer of the plan with its split edge.
std::vector<std::uint64_t> edgeCutKey(const analysis::NDRange &Range,
                                      const analysis::LaunchArgs &Scalars, cl_uint Dim,
                                      size_t Groups, size_t Proposed,
                                      const std::map<Buffer *, BufferPlan> &Plans) {
  std::vector<std::uint64_t> Key{Range.WorkDim, Dim, Groups, Proposed};
  for (cl_uint D = 0; D < 3; ++D)
    Key.insert(Key.end(), {Range.Global[D], Range.Local[D], Range.Offset[D]});
  for (const std::vector<std::uint8_t> &Bytes : Scalars.ScalarBytes) {
    Key.push_back(Bytes.size());
    Key.insert(Key.end(), Bytes.begin(), Bytes.end());
  }
  for (const auto &[Root, P] : Plans) {
    const std::optional<size_t> Edge = Root->splitEdge();
    Key.insert(Key.end(),
               {reinterpret_cast<std::uintptr_t>(Root), P.Writes, P.Merge, Edge ? *Edge + 1 : 0,
                reinterpret_cast<std::uintptr_t>(Root->splitEdgeBy())});
  }
  return Key;
}

} // namespace

// Data affinity: where the balancer's cut of a two-device split moves much data for its kernel
// time, other cuts are priced with the bytes each device lacks for its part, at the rate the
// devices' fetches ran at (planner/link_rate.hpp), and the kernel's seconds per work-group on each
// device, and the cheapest runs (planner/affinity.hpp). The cuts priced: the one that keeps the
// division of the buffer the launch writes most (owner computes, owner_cut.hpp: a factorization's
// trailing matrix stays where it is, whichever kernel cuts it), and on devices that share no
// hardware also the kernel's last cut and a grid through the launch. Data lock held.
double preferCheaperCut(Kernel &K, const LaunchRequest &R, const CompiledKernel &Facts,
                        const std::vector<ExecDevice *> &Devices, cl_uint Dim, size_t Groups,
                        bool Regions, const analysis::NDRange &Range,
                        const analysis::LaunchArgs &Scalars, std::vector<Slice> &Slices,
                        std::map<Buffer *, BufferPlan> &Plans, double PlanSeconds,
                        const CutChoice &How) {
  // Two parts, whatever other devices the launch could use (a CPU that joins once its program
  // is built, dropped by the balancer): the cut between the two devices that have work. Or one
  // device alone, where the balancer found it faster than a split, of a launch two devices can
  // run: priced as the cut that gives the other device nothing (a factorization's column kernel
  // run alone fetched its column's rows from the other device, and the trailing update cut at
  // the rows' split took them back, every step).
  const bool Alone = Slices.size() == 1 && Devices.size() == 2 && !How.ProbesAlone;
  if ((Slices.size() != 2 && !Alone) || !Regions || Groups < 3 ||
      (!Alone && std::find(Devices.begin(), Devices.end(), Slices[0].Device) >
                     std::find(Devices.begin(), Devices.end(), Slices[1].Device)))
    return 0.0;
  const std::vector<ExecDevice *> Two =
      Alone ? Devices : std::vector<ExecDevice *>{Slices[0].Device, Slices[1].Device};
  const ByteRoutes Routes = routesOf(servicesOf(K).Settings);
  // Each of the two devices' work-groups and bytes, none for one that has no slice.
  auto candidate = [Routes, &Two](const std::vector<Slice> &Of,
                                  const std::map<Buffer *, BufferPlan> &With) {
    planner::CutCandidate C;
    C.Groups.assign(Two.size(), 0);
    C.Bytes.assign(Two.size(), 0.0);
    const std::vector<double> Bytes = bytesPerSlice(With, Of, Routes);
    for (size_t S = 0; S < Of.size(); ++S)
      for (size_t D = 0; D < Two.size(); ++D)
        if (Of[S].Device == Two[D]) {
          C.Groups[D] = Of[S].EndGroup - Of[S].FirstGroup;
          C.Bytes[D] = S < Bytes.size() ? Bytes[S] : 0.0;
        }
    return C;
  };
  SliceHistory &History = *K.sliceHistory();
  const std::vector<double> Rates = History.of({Two[0]->Index, Two[1]->Index});
  // A device's part is priced at its rate on this kernel: one never measured here is not
  // handed a part by this choice.
  if (Alone && !(Rates.size() == 2 && Rates[0] > 0.0 && Rates[1] > 0.0))
    return 0.0;
  const double Link = History.linkBytesPerSecond({Two[0]->Index, Two[1]->Index},
                                                 planner::GuardSettings().LinkBytesPerSecond);
  std::vector<planner::CutCandidate> Candidates{candidate(Slices, Plans)};
  // The cut that runs is the kernel's last (a trial's, which may not run, is not; one device
  // alone that stays alone leaves it as it was).
  struct NoteCut {
    SliceHistory &History;
    const std::vector<Slice> &Slices;
    bool Noted;
    ~NoteCut() {
      if (Noted && Slices.size() == 2)
        History.noteCut(Slices[0].EndGroup);
    }
  } Noted{History, Slices, !How.Quiet};
  const size_t Proposed = !Alone ? Slices[0].EndGroup : Slices[0].Device == Two[0] ? Groups : 0;
  // The bytes the balancer's cut moves may cost twice against the owner's cut
  // (chargeReturnTrips): nothing to price where even that would not pay.
  planner::CutCandidate Twice = Candidates.front();
  for (double &Bytes : Twice.Bytes)
    Bytes *= 2;
  if (How.SeparateHardware && !planner::worthOtherCuts(Twice, Rates, Link, 0.0))
    return 0.0;
  // Owner computes: the cut that keeps the split of the buffer the launch writes most. Where the
  // balancer's keeps it, the buffers the launch only reads may still be divided elsewhere
  // (kernels that share them, each held at its own cut): the cuts that keep those are priced,
  // with no preference (moving to one is for good: the balancer holds the cut the launch ran).
  // Where the balancer's cut keeps every split, what it moves (a stencil's halo) no other cut
  // saves: nothing is priced.
  std::vector<std::uint64_t> Key = edgeCutKey(Range, Scalars, Dim, Groups, Proposed, Plans);
  std::optional<SliceHistory::EdgeCuts> Edges = History.edgeCuts(Key);
  if (!Edges) {
    Edges.emplace();
    // One device alone keeps its data where it is, unless another kernel divides the buffer
    // (a split of its own, before the balancer found it faster alone, brings nothing back).
    Edges->Owner =
        ownerCut(Facts, R, Plans, Range, Scalars, Dim, Groups, Proposed, Alone ? &K : nullptr);
    if (Edges->Owner == Proposed)
      Edges->ReadCuts = readEdgeCuts(Facts, R, Plans, Range, Scalars, Dim, Groups, Proposed);
    History.keepEdgeCuts(std::move(Key), *Edges);
  }
  const std::optional<size_t> Owner = Edges->Owner;
  // One device alone is priced against the owner's cut only (the balancer measured it faster
  // than its splits; what a grid of cuts would gain is the balancer's to find).
  if (Alone && (!Owner || *Owner == Proposed))
    return 0.0;
  const std::vector<size_t> &ReadCuts = Edges->ReadCuts;
  if (Owner == Proposed && ReadCuts.empty())
    return 0.0;
  std::vector<size_t> Cuts;
  auto add = [&Cuts, Proposed](size_t Cut) {
    if (Cut != Proposed && std::find(Cuts.begin(), Cuts.end(), Cut) == Cuts.end())
      Cuts.push_back(Cut);
  };
  // Devices that share cores slow each other down, which a cut's price by each one's rate alone
  // does not see (on PoCL's pair, grid cuts that moved less ran LU slower): there, only the
  // owner's cut.
  if (How.SeparateHardware && !Alone) {
    Cuts = planner::cutsToTry(Groups, Proposed);
    // The kernel's last cut: where its data mostly is, if the launch kept its shape.
    if (const size_t Last = History.lastCut(); Last > 0 && Last < Groups)
      add(Last);
    // Each other cut costs a plan as long as the balancer's took: the grid only where the bytes
    // at stake are worth that.
    if (!planner::worthOtherCuts(Owner ? Twice : Candidates.front(), Rates, Link,
                                 PlanSeconds * static_cast<double>(Cuts.size() + 1)))
      Cuts.clear();
  }
  // The owner's cut is priced whenever the bytes are worth it (above), whatever planning the
  // balancer's cut took: a plan slowed once by the host must not let a cut through that moves a
  // stencil's grid (every launch after it then chases the data).
  if (Owner)
    add(*Owner);
  for (size_t Cut : ReadCuts)
    add(Cut);
  if (Cuts.empty())
    return 0.0;
  std::vector<std::vector<Slice>> CutSlices{Slices};
  std::vector<std::map<Buffer *, BufferPlan>> CutPlans;
  for (size_t Cut : Cuts) {
    if (Cut == Proposed)
      continue;
    const double Share = static_cast<double>(Cut) / static_cast<double>(Groups);
    std::vector<Slice> Other{{Two[0], 0, Cut, Share}, {Two[1], Cut, Groups, 1.0 - Share}};
    CutPlans.push_back(planBuffers(Facts, R, Other, Regions, Range, Scalars, Dim));
    Candidates.push_back(candidate(Other, CutPlans.back()));
    // Against one device alone, a split pays for its second device: the guard's fixed cost of
    // a split launch, on the high side (the balancer measured one device alone faster).
    if (Alone)
      Candidates.back().FixedSeconds = planner::GuardSettings().SplitFixedSeconds;
    CutSlices.push_back(std::move(Other));
  }
  // What each candidate moves for this launch alone, before the owner's return trips.
  std::vector<std::vector<double>> Moves;
  for (const planner::CutCandidate &C : Candidates)
    Moves.push_back(C.Bytes);
  std::optional<size_t> OwnerIndex;
  if (Owner && *Owner != Proposed)
    for (size_t C = 0; C < CutSlices.size(); ++C)
      if (CutSlices[C][0].EndGroup == *Owner) {
        planner::chargeReturnTrips(Candidates, C);
        OwnerIndex = C;
      }
  const size_t Best = planner::cheapestCut(Candidates, Rates, Link, {}, OwnerIndex);
  if (Best == 0)
    return 0.0;
  if (!How.Quiet)
    servicesOf(K).Log.debug(config::DebugCategory::Split, "kernel ", K.name(),
                            ": cut at work-group ", CutSlices[Best][0].EndGroup, " instead of ",
                            Proposed, " (the balancer's would move more than it balances)");
  const double Moved = planner::probeSeconds(total(Moves.front()), total(Moves[Best]), Link);
  Slices = std::move(CutSlices[Best]);
  Plans = std::move(CutPlans[Best - 1]);
  return Moved;
}

} // namespace libsplit
