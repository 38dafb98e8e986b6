#include "owner_cut.hpp"

#include "libsplit/planner/affinity.hpp"

#include <algorithm>
#include <cstdint>

namespace libsplit {

namespace {

// The lowest root byte of Root that a slice writes (Used: its evaluated regions), SIZE_MAX where
// it writes none of it; 0 where it may write all of it.
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

// Where a two-part launch's reads of a buffer meet: the middle between the end of what the first
// part reads and the lowest byte the second reads (a stencil's halos overlap by as much on each
// side of its split); SIZE_MAX where either reads none of it.
size_t readsMeet(const RangeSet &First, const RangeSet &Second) {
  if (First.empty() || Second.empty())
    return SIZE_MAX;
  return (First.spans().back().End + Second.spans().front().Begin) / 2;
}

// The root bytes of Root that a slice reads (Used: its evaluated regions).
RangeSet readsOf(const std::vector<analysis::ArgRegions> &Used, const LaunchRequest &R,
                 const Buffer *Root) {
  RangeSet Read;
  for (size_t ArgIndex = 0; ArgIndex < R.Args.size() && ArgIndex < Used.size(); ++ArgIndex) {
    const KernelArg &A = R.Args[ArgIndex];
    if (A.What != KernelArg::Kind::Buffer || &A.Mem->root() != Root)
      continue;
    if (Used[ArgIndex].ReadWhole)
      return wholeOf(*A.Mem);
    Read.add(toRoot(Used[ArgIndex].Read, *A.Mem));
  }
  return Read;
}

} // namespace

bool heldWhollyOn(const LaunchRequest &R, const ExecDevice &Device) {
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Buffer && !A.Mem->wholeValidOn(Device.Index))
      return false;
  return true;
}

ExecDevice *whereDataIs(const CompiledKernel &Facts, const LaunchRequest &R,
                        const std::vector<ExecDevice *> &Devices, ExecDevice &Home,
                        ByteRoutes Routes) {
  if (!hasRegions(Facts, R) || R.WorkDim == 0 || !R.Local[0] || heldWhollyOn(R, Home))
    return nullptr;
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);
  const size_t Groups = R.Global[0] / R.Local[0];
  auto lacks = [&](ExecDevice *D) {
    const std::vector<Slice> Whole{{D, 0, Groups, 1.0}};
    return bytesPerSlice(planBuffers(Facts, R, Whole, true, Range, Scalars, 0), Whole, Routes)
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

std::optional<size_t> ownerCut(const CompiledKernel &Facts, const LaunchRequest &R,
                               const std::map<Buffer *, BufferPlan> &Plans,
                               const analysis::NDRange &Range, const analysis::LaunchArgs &Scalars,
                               cl_uint Dim, size_t Groups, size_t Proposed, const void *NotBy) {
  // The buffer the launch writes most, by its last slice's writes (the second's; one device
  // alone: all of them).
  Buffer *Most = nullptr;
  const BufferPlan *MostPlan = nullptr;
  for (const auto &[Root, P] : Plans)
    if (P.Writes && !P.Merge && Root->splitEdge() && (!NotBy || Root->splitEdgeBy() != NotBy) &&
        (P.Write.size() == 2 || P.Write.size() == 1) &&
        (!MostPlan || P.Write.back().totalBytes() >= MostPlan->Write.back().totalBytes())) {
      Most = Root;
      MostPlan = &P;
    }
  if (!Most)
    return std::nullopt;
  const size_t Edge = *Most->splitEdge();
  auto startAt = [&](size_t Cut) {
    return lowestWrite(*sliceRegions(Facts, R, Range, Scalars, {Dim, Cut, Groups}), R, Most);
  };
  // Where the part after the balancer's cut starts writing: the second slice's writes; one
  // device alone, its own where the second device has it all (Proposed 0), none where the first
  // has it all.
  const RangeSet *After =
      MostPlan->Write.size() == 2 || Proposed == 0 ? &MostPlan->Write.back() : nullptr;
  const size_t ProposedStart = !After || After->empty() ? SIZE_MAX : After->spans().front().Begin;
  if (ProposedStart >= Edge && (Proposed <= 1 || startAt(Proposed - 1) < Edge))
    return Proposed;
  return planner::cutAtEdge(1, Groups - 1, Edge, startAt);
}

std::vector<size_t> readEdgeCuts(const CompiledKernel &Facts, const LaunchRequest &R,
                                 const std::map<Buffer *, BufferPlan> &Plans,
                                 const analysis::NDRange &Range,
                                 const analysis::LaunchArgs &Scalars, cl_uint Dim, size_t Groups,
                                 size_t Proposed) {
  std::vector<size_t> Cuts;
  for (const auto &[Root, P] : Plans) {
    if (P.Writes || !Root->splitEdge() || P.Need.size() != 2)
      continue;
    Buffer *Read = Root;
    const size_t Edge = *Root->splitEdge();
    auto meetAt = [&](size_t Cut) {
      return readsMeet(
          readsOf(*sliceRegions(Facts, R, Range, Scalars, {Dim, 0, Cut}), R, Read),
          readsOf(*sliceRegions(Facts, R, Range, Scalars, {Dim, Cut, Groups}), R, Read));
    };
    // The balancer's cut, from its plan: its parts' reads meet at or past the edge, and one
    // work-group lower they would not.
    const size_t AtProposed = readsMeet(P.Need[0], P.Need[1]);
    if (AtProposed == SIZE_MAX ||
        (AtProposed >= Edge && (Proposed <= 1 || meetAt(Proposed - 1) < Edge)))
      continue;
    const std::optional<size_t> Cut = planner::cutAtEdge(1, Groups - 1, Edge, meetAt);
    if (Cut && *Cut != Proposed && std::find(Cuts.begin(), Cuts.end(), *Cut) == Cuts.end())
      Cuts.push_back(*Cut);
  }
  return Cuts;
}

void noteSplitEdges(const std::map<Buffer *, BufferPlan> &Plans, size_t SliceCount,
                    const void *By) {
  for (const auto &[Root, P] : Plans) {
    if (!P.Writes)
      continue;
    if (SliceCount == 2 && !P.Merge && P.Write.size() == 2 && !P.Write[1].empty()) {
      // A launch that keeps another kernel's division leaves it that kernel's.
      const size_t Edge = P.Write[1].spans().front().Begin;
      Root->setSplitEdge(Edge, Root->splitEdge() == Edge ? Root->splitEdgeBy() : By);
    } else
      Root->setSplitEdge(std::nullopt);
  }
}

} // namespace libsplit
