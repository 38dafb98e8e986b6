#include "launch_plan.hpp"

#include <algorithm>

namespace libsplit {

RangeSet wholeOf(Buffer &B) {
  const size_t Base = B.rootOffset();
  return RangeSet(Base, Base + B.size());
}

RangeSet toRoot(const analysis::IntervalSet &Ranges, Buffer &B) {
  RangeSet Out;
  const std::int64_t Base = static_cast<std::int64_t>(B.rootOffset());
  const std::int64_t Size = static_cast<std::int64_t>(B.size());
  for (const analysis::ByteRange &R : Ranges.ranges()) {
    const std::int64_t Begin = std::max<std::int64_t>(R.Begin, 0);
    const std::int64_t End = std::min<std::int64_t>(R.End, Size);
    if (Begin < End)
      Out.add(static_cast<size_t>(Base + Begin), static_cast<size_t>(Base + End));
  }
  return Out;
}

bool readOnlyForKernels(const Buffer &B) {
  const Buffer *Top = &B;
  // A sub-buffer inherits its parent's access unless it says otherwise.
  while (Top && !(Top->flags() & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE)))
    Top = Top->parent();
  return Top && (Top->flags() & CL_MEM_READ_ONLY);
}

bool hasRegions(const CompiledKernel &Facts, const LaunchRequest &R) {
  return Facts.Regions.Args.size() == R.Args.size();
}

bool analysisShowsWrite(const CompiledKernel *Facts, const LaunchRequest &R, size_t ArgIndex) {
  if (!Facts || !hasRegions(*Facts, R))
    return false;
  const std::vector<analysis::Access> &Accesses = Facts->Regions.Args[ArgIndex].Accesses;
  return std::any_of(Accesses.begin(), Accesses.end(), [](const analysis::Access &A) {
    return A.Kind != analysis::AccessKind::Read;
  });
}

bool mayWrite(const Buffer &B, const CompiledKernel *Facts, const LaunchRequest &R,
              size_t ArgIndex) {
  if (!readOnlyForKernels(B))
    return true;
  const bool Known = Facts && hasRegions(*Facts, R);
  return !Known || analysisShowsWrite(Facts, R, ArgIndex);
}

const analysis::AtomicMerge *atomicMergeOf(const CompiledKernel &Facts, const LaunchRequest &R,
                                           size_t ArgIndex) {
  if (ArgIndex >= Facts.AtomicMerges.size() || Facts.AtomicMerges[ArgIndex].empty() ||
      ArgIndex >= R.Args.size() || R.Args[ArgIndex].What != KernelArg::Kind::Buffer)
    return nullptr;
  return &Facts.AtomicMerges[ArgIndex];
}

// Why the launch's atomically updated buffers cannot be combined, or "" when they can: each
// needs its regions, and memory no other argument shares (the combination owns those bytes).
std::string atomicsObstacle(const CompiledKernel &Facts, const LaunchRequest &R, bool Regions) {
  for (size_t I = 0; I < R.Args.size(); ++I) {
    if (!atomicMergeOf(Facts, R, I))
      continue;
    const std::string &Name = Facts.Regions.Args[I].Name;
    const std::string Which = Name.empty() ? "argument " + std::to_string(I) : Name;
    if (!Regions)
      return "the region summary does not match the arguments, and " + Which +
             " is updated atomically";
    for (size_t J = 0; J < R.Args.size(); ++J)
      if (J != I && R.Args[J].What == KernelArg::Kind::Buffer &&
          &R.Args[J].Mem->root() == &R.Args[I].Mem->root())
        return Which + " is updated atomically and shares its buffer with argument " +
               std::to_string(J);
  }
  return "";
}

bool atomicsCombined(const CompiledKernel &Facts, const LaunchRequest &R) {
  for (size_t I = 0; I < R.Args.size(); ++I)
    if (atomicMergeOf(Facts, R, I))
      return true;
  return false;
}

std::vector<CombineSpan> combineSpans(const analysis::AtomicMerge &Plan, Buffer &Arg) {
  std::vector<CombineSpan> Spans;
  const std::int64_t Size = static_cast<std::int64_t>(Arg.size());
  for (const analysis::CombineRange &Range : Plan.Ranges) {
    const std::int64_t Begin = Range.Whole ? 0 : std::max<std::int64_t>(Range.First, 0);
    const std::int64_t End = Range.Whole ? Size : std::min<std::int64_t>(Range.Last + 1, Size);
    if (Begin < End)
      Spans.push_back({Span{Arg.rootOffset() + static_cast<size_t>(Begin),
                            Arg.rootOffset() + static_cast<size_t>(End)},
                       Range.How});
  }
  return Spans;
}

analysis::NDRange ndrangeOf(const LaunchRequest &R) {
  analysis::NDRange N;
  N.WorkDim = R.WorkDim;
  for (cl_uint D = 0; D < 3; ++D) {
    N.Global[D] = R.Global[D];
    N.Local[D] = R.Local[D];
    N.Offset[D] = R.Offset[D];
  }
  return N;
}

analysis::SharedRegions sliceRegions(const CompiledKernel &Facts, const LaunchRequest &R,
                                     const analysis::NDRange &Range,
                                     const analysis::LaunchArgs &Scalars,
                                     const analysis::Slice &S) {
  if (R.RegionMemo)
    return R.RegionMemo->regions(Facts.Regions, Range, Scalars, S);
  return std::make_shared<const std::vector<analysis::ArgRegions>>(
      analysis::evaluateSlice(Facts.Regions, Range, Scalars, S));
}

analysis::LaunchArgs scalarsOf(const LaunchRequest &R) {
  analysis::LaunchArgs A;
  for (const KernelArg &Arg : R.Args)
    A.ScalarBytes.push_back(Arg.What == KernelArg::Kind::Bytes ? Arg.Value.toVector()
                                                               : std::vector<std::uint8_t>{});
  return A;
}

std::map<Buffer *, BufferPlan> planBuffers(const CompiledKernel &Facts, const LaunchRequest &R,
                                           const std::vector<Slice> &Slices, bool Regions,
                                           const analysis::NDRange &Range,
                                           const analysis::LaunchArgs &Scalars, cl_uint Dim) {
  // Regions per root buffer and slice: from the summary where the compiler gave one, else the
  // whole buffer, written buffers then merged by diff against a snapshot.
  std::vector<analysis::SharedRegions> Evaluated;
  if (Regions)
    for (const Slice &S : Slices)
      Evaluated.push_back(sliceRegions(Facts, R, Range, Scalars, {Dim, S.FirstGroup, S.EndGroup}));
  std::map<Buffer *, BufferPlan> Plans;
  for (size_t ArgIndex = 0; ArgIndex < R.Args.size(); ++ArgIndex) {
    const KernelArg &A = R.Args[ArgIndex];
    if (A.What != KernelArg::Kind::Buffer)
      continue;
    Buffer &Arg = *A.Mem;
    BufferPlan &P = Plans[&Arg.root()];
    P.Need.resize(Slices.size());
    P.Write.resize(Slices.size());
    const bool MayWrite = mayWrite(Arg, &Facts, R, ArgIndex);
    if (const analysis::AtomicMerge *Atomic = atomicMergeOf(Facts, R, ArgIndex)) {
      // Every device starts from the same snapshot of the atomically updated bytes, the whole
      // argument for one kind of update; the copies are combined afterwards.
      const std::vector<CombineSpan> Spans = combineSpans(*Atomic, Arg);
      RangeSet Bytes;
      for (const CombineSpan &C : Spans)
        Bytes.add(C.Bytes.Begin, C.Bytes.End);
      for (size_t I = 0; I < Slices.size(); ++I) {
        P.Need[I].add(Bytes);
        P.Write[I].add(Bytes);
      }
      P.Combine.insert(P.Combine.end(), Spans.begin(), Spans.end());
      P.Writes = P.Merge = true;
      continue;
    }
    for (size_t I = 0; I < Slices.size(); ++I) {
      if (!Regions) {
        P.Need[I].add(wholeOf(Arg));
        if (MayWrite) {
          P.Write[I].add(wholeOf(Arg));
          P.Writes = P.Merge = true;
        }
        continue;
      }
      const analysis::ArgRegions &Used = (*Evaluated[I])[ArgIndex];
      if (Used.ReadWhole || Used.WriteWhole || Used.AtomicWhole)
        P.Need[I].add(wholeOf(Arg));
      P.Need[I].add(toRoot(Used.Read, Arg));
      P.Need[I].add(toRoot(Used.Write, Arg));
      P.Need[I].add(toRoot(Used.Atomic, Arg));
      if (Used.WriteWhole || Used.AtomicWhole || !Used.Atomic.empty()) {
        P.Write[I].add(wholeOf(Arg));
        P.Writes = P.Merge = true;
      } else if (!Used.Write.empty()) {
        P.Write[I].add(toRoot(Used.Write, Arg));
        P.Writes = true;
      }
    }
  }
  // Slices whose writes overlap cannot each keep theirs: merge.
  for (auto &[Root, P] : Plans)
    for (size_t I = 0; I < Slices.size() && !P.Merge; ++I)
      for (size_t J = I + 1; J < Slices.size() && !P.Merge; ++J)
        if (!P.Write[I].intersection(P.Write[J]).empty())
          P.Merge = true;
  // One slice (a device alone: the balancer's probe of it, or a split held on one device) writes
  // in place what it writes, as a whole launch does: nothing to merge or combine.
  if (Slices.size() == 1)
    for (auto &[Root, P] : Plans) {
      P.Merge = false;
      P.Combine.clear();
    }
  return Plans;
}

namespace {
// What a relayed byte costs against one sent from the host copy over the assumed link: that
// link's rate over the slower end's measured page-locked rate (link_probe.hpp); 1 where neither
// end was measured.
double relayCost(const ExecDevice &From, const ExecDevice &To) {
  double Rate = 0.0;
  for (const ExecDevice *End : {&From, &To}) {
    const double Measured = End->PageLockedBytesPerSecond.load(std::memory_order_relaxed);
    if (Measured > 0.0)
      Rate = Rate > 0.0 ? std::min(Rate, Measured) : Measured;
  }
  return Rate > 0.0 ? planner::GuardSettings{}.LinkBytesPerSecond / Rate : 1.0;
}

// What the bytes To lacks cost, in bytes over the assumed link: each once, and again those that
// come through the host (only another device holds them), unless Routes take them in one move
// (not for a merged buffer): a relayed byte at its relay's cost.
double lackingCost(Buffer &Root, const RangeSet &Lacking, const ExecDevice &To, ByteRoutes Routes) {
  RangeSet ThroughHost = Root.missingOnHost(Lacking);
  if (Routes.PeerCopy && !ThroughHost.empty())
    for (const Buffer::PeerPart &Part : Root.peerParts(To, ThroughHost))
      ThroughHost.subtract(Part.Ranges);
  double Cost = static_cast<double>(Lacking.totalBytes());
  if (Routes.Relay && ThroughHost.totalBytes() >= Buffer::MinRelayBytes)
    for (const Buffer::RelayPart &Part : Root.relayParts(To, ThroughHost, false)) {
      ThroughHost.subtract(Part.Ranges);
      Cost -= static_cast<double>(Part.Ranges.totalBytes()) * (1.0 - relayCost(*Part.From, To));
    }
  return Cost + static_cast<double>(ThroughHost.totalBytes());
}
} // namespace

std::vector<double> bytesPerSlice(const std::map<Buffer *, BufferPlan> &Plans,
                                  const std::vector<Slice> &Slices, ByteRoutes Routes) {
  std::vector<double> PerSlice(Slices.size(), 0.0);
  for (const auto &[Root, P] : Plans) {
    if (Root->neverWritten() && !P.Merge)
      continue; // undefined contents travel nowhere
    for (size_t I = 0; I < Slices.size(); ++I) {
      const ExecDevice &To = *Slices[I].Device;
      PerSlice[I] += lackingCost(*Root, Root->missingOn(To.Index, P.Need[I]), To,
                                 P.Merge ? ByteRoutes{} : Routes);
      if (P.Merge)
        PerSlice[I] += static_cast<double>(P.Write[I].totalBytes());
    }
  }
  return PerSlice;
}

planner::PricedBytes priceBytes(const std::map<Buffer *, BufferPlan> &Plans,
                                const std::vector<Slice> &Slices, ExecDevice &Home,
                                bool SeparateHardware, ByteRoutes Routes) {
  const std::vector<double> PerSlice = bytesPerSlice(Plans, Slices, Routes);
  planner::PricedBytes Bytes;
  Bytes.SharedHardware = !SeparateHardware;
  for (const auto &[Root, P] : Plans) {
    if (Root->neverWritten() && !P.Merge)
      continue;
    RangeSet All;
    for (size_t I = 0; I < Slices.size(); ++I)
      All.add(P.Need[I]);
    Bytes.Whole += lackingCost(*Root, Root->missingOn(Home.Index, All), Home, Routes);
  }
  for (double B : PerSlice)
    Bytes.Split = std::max(Bytes.Split, B);
  size_t Groups = 0, Largest = 0;
  for (const Slice &S : Slices) {
    Groups += S.EndGroup - S.FirstGroup;
    Largest = std::max(Largest, S.EndGroup - S.FirstGroup);
  }
  if (Groups)
    Bytes.LargestShare = static_cast<double>(Largest) / static_cast<double>(Groups);
  return Bytes;
}

} // namespace libsplit
