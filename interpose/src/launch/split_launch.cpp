#include "split_launch.hpp"

#include "launch_parts.hpp"
#include "peer_copies.hpp"

#include "merge.hpp"
#include "queue.hpp"

#include "libsplit/planner/pipelined_cost.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <set>

namespace libsplit {

namespace {

using Clock = std::chrono::steady_clock;

// One kernel enqueued for a slice: a slice runs as one, or as its early interior and the rest.
struct SlicePart {
  cl_event Done = nullptr;
  Clock::time_point Enqueued;
};

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

// What of a slice runs once its missing bytes are in: all of it, or the groups either side of
// its early interior.
std::vector<GroupSpan> restOf(const Slice &S, const GroupSpan &Early) {
  if (Early.empty())
    return {{S.FirstGroup, S.EndGroup}};
  std::vector<GroupSpan> Rest;
  if (S.FirstGroup < Early.First)
    Rest.push_back({S.FirstGroup, Early.First});
  if (Early.End < S.EndGroup)
    Rest.push_back({Early.End, S.EndGroup});
  return Rest;
}

// Waits for a slice's parts: their kernel time added up; the first error.
cl_int awaitParts(const ExecDevice &Device, std::vector<SlicePart> &Mine, double &Seconds) {
  cl_int Result = CL_SUCCESS;
  Seconds = 0.0;
  for (SlicePart &Part : Mine) {
    double PartSeconds = 0.0;
    const cl_int Error = awaitKernel(Device, Part.Done, PartSeconds);
    Seconds += PartSeconds;
    if (Result == CL_SUCCESS)
      Result = Error;
    Part.Done = nullptr;
  }
  Mine.clear();
  return Result;
}

void awaitAllParts(const std::vector<Slice> &Slices, std::vector<std::vector<SlicePart>> &Parts) {
  for (size_t I = 0; I < Parts.size(); ++I) {
    double Ignored = 0.0;
    awaitParts(*Slices[I].Device, Parts[I], Ignored);
  }
}

// Per slice, the work-groups queued before the bytes its device lacks arrive (the whole slice
// where it lacks nothing), or none at all: the launch's slices then wait for their bytes as
// before. Only where nothing merges and nothing goes device to device, where some slice lacks
// bytes and has an interior without them, and where LIBSPLIT_OVERLAP says so (for auto, the
// kernel's trial, over the launches of a split the balancer holds).
std::vector<GroupSpan> earlyParts(SplitLaunch &L, bool Held) {
  const LaunchRequest &R = *L.R;
  const config::OverlapPolicy Policy = L.Q->context().launchServices().Settings.Overlap;
  if (Policy == config::OverlapPolicy::Off || L.AnyDiffMerge || L.AnyCombine ||
      L.Slices.size() < 2 || !hasRegions(*L.Facts, R))
    return {};
  std::vector<std::map<Buffer *, RangeSet>> Lacking(L.Slices.size());
  bool AnyLacking = false;
  for (const auto &[Root, P] : L.Plans) {
    if (P.Merge)
      return {};
    for (size_t I = 0; I < L.Slices.size(); ++I) {
      if (!P.FromPeers[I].empty())
        return {};
    }
  }
  if (!L.Relays.empty())
    return {};
  for (const auto &[Root, P] : L.Plans) {
    for (size_t I = 0; I < L.Slices.size(); ++I) {
      if (!P.Missing[I].empty()) {
        Lacking[I][Root] = P.Missing[I];
        AnyLacking = true;
      }
    }
  }
  if (!AnyLacking)
    return {};
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);
  std::vector<GroupSpan> Early(L.Slices.size());
  bool AnyInterior = false;
  for (size_t I = 0; I < L.Slices.size(); ++I) {
    const Slice &S = L.Slices[I];
    if (Lacking[I].empty()) {
      Early[I] = {S.FirstGroup, S.EndGroup};
      continue;
    }
    Early[I] = L.K->interiors().interior(
        S.Device->Index, {S.FirstGroup, S.EndGroup}, [&](const GroupSpan &Part) {
          return avoidsMissing(*L.Facts, R, Range, Scalars, L.Dim, Part, Lacking[I]);
        });
    AnyInterior = AnyInterior || !Early[I].empty();
  }
  if (!AnyInterior || !L.K->overlapChoice().next(Policy, Held, Clock::now()))
    return {};
  for (size_t I = 0; I < L.Slices.size(); ++I)
    L.Slices[I].EarlyGroups = Early[I].size();
  return Early;
}

// The reads of what the slices lack are queued on the devices that hold it, each device's early
// interior behind them (every device at once, on its worker: a read into pageable memory may
// return only once done), then the host waits for the reads alone.
cl_int fetchBehindInteriors(SplitLaunch &L, const std::vector<GroupSpan> &Early,
                            std::map<Buffer *, RangeSet> &ToHostOf,
                            std::vector<std::vector<SlicePart>> &Parts) {
  DeviceBackend &Backend = L.Q->context().services().Backend;
  std::map<Buffer *, std::vector<Buffer::HostFetch>> FetchesOf;
  std::map<ExecDevice *, std::vector<Buffer::HostFetch *>> Reads;
  for (auto &[Root, ToHost] : ToHostOf)
    if (cl_int Error = Root->planFetchToHost(ToHost, FetchesOf[Root]); Error != CL_SUCCESS)
      return Error;
  for (auto &[Root, Fetches] : FetchesOf)
    for (Buffer::HostFetch &F : Fetches)
      Reads[F.Device].push_back(&F);
  std::map<ExecDevice *, std::size_t> SliceOf;
  for (size_t I = 0; I < L.Slices.size(); ++I)
    SliceOf[L.Slices[I].Device] = I;
  std::set<ExecDevice *> Busy;
  for (const auto &[Device, Mine] : Reads)
    Busy.insert(Device);
  for (const Slice &S : L.Slices)
    Busy.insert(S.Device);
  std::map<ExecDevice *, cl_event> ReadsDone;
  for (ExecDevice *Device : Busy)
    ReadsDone[Device] = nullptr;
  std::vector<DeviceJob> Jobs;
  for (ExecDevice *Device : Busy)
    Jobs.push_back({Device, [&, Device]() -> cl_int {
                      if (const auto Mine = Reads.find(Device); Mine != Reads.end()) {
                        if (cl_int E = Buffer::enqueueFetches(Mine->second); E != CL_SUCCESS)
                          return E;
                        if (cl_int E = Backend.marker(Device->RealQueue, ReadsDone.at(Device));
                            E != CL_SUCCESS)
                          return E;
                      }
                      const auto Slot = SliceOf.find(Device);
                      if (Slot == SliceOf.end() || Early[Slot->second].empty())
                        return CL_SUCCESS;
                      const GroupSpan &Interior = Early[Slot->second];
                      cl_int Error = CL_SUCCESS;
                      cl_kernel Real = L.K->realWithArgs(*Device, true, L.R->Args, Error);
                      if (!Real)
                        return Error;
                      SlicePart Part{nullptr, Clock::now()};
                      if ((Error = enqueueSlice(*Device, Real, *L.Facts, *L.R, L.Dim, L.Groups,
                                                Interior.First, Interior.End, &Part.Done)) !=
                          CL_SUCCESS)
                        return Error;
                      Parts[Slot->second].push_back(Part);
                      return CL_SUCCESS;
                    }});
  cl_int Result = runOnDevices(std::move(Jobs));
  for (auto &[Device, Done] : ReadsDone)
    if (Done) {
      if (const cl_int Error = Backend.wait(Done); Result == CL_SUCCESS)
        Result = Error;
      Backend.releaseEvent(Done);
    }
  if (Result != CL_SUCCESS)
    return Result;
  for (auto &[Root, ToHost] : ToHostOf)
    Root->fetchedToHost(ToHost, FetchesOf[Root]);
  return CL_SUCCESS;
}

} // namespace

cl_int enqueueSlice(ExecDevice &Device, cl_kernel Real, const CompiledKernel &Facts,
                    const LaunchRequest &R, cl_uint Dim, std::size_t Groups, std::size_t FirstGroup,
                    std::size_t EndGroup, cl_event *Done) {
  if (cl_int Error =
          Kernel::setSliceArgs(Device, Real, Facts.AppArgCount, Dim, Groups, R.Offset[Dim]);
      Error != CL_SUCCESS)
    return Error;
  return enqueueOwnSlice(Device, Real, R, Dim, FirstGroup, EndGroup, Done);
}

cl_int enqueueOwnSlice(ExecDevice &Device, cl_kernel Real, const LaunchRequest &R, cl_uint Dim,
                       std::size_t FirstGroup, std::size_t EndGroup, cl_event *Done) {
  std::array<size_t, 3> Offset = R.Offset, Global = R.Global;
  Offset[Dim] += FirstGroup * R.Local[Dim];
  Global[Dim] = (EndGroup - FirstGroup) * R.Local[Dim];
  return enqueueRealKernel(Device, Real, R.WorkDim, Offset.data(), Global.data(), R.Local.data(),
                           Done);
}

std::size_t writtenElementBytes(Kernel &K, const LaunchRequest &R, Buffer &Root,
                                ExecDevice &Device) {
  cl_int Error = CL_SUCCESS;
  const cl_kernel Split = K.realFor(Device, true, Error);
  std::size_t Smallest = 0;
  for (size_t I = 0; I < R.Args.size(); ++I) {
    const KernelArg &A = R.Args[I];
    if (A.What != KernelArg::Kind::Buffer || &A.Mem->root() != &Root)
      continue;
    const std::size_t Bytes = K.argElementBytes(static_cast<cl_uint>(I), Split);
    if (Bytes == 0)
      return 1;
    Smallest = Smallest ? std::min(Smallest, Bytes) : Bytes;
  }
  return Smallest ? Smallest : 1;
}

cl_int runSplit(SplitLaunch &L) {
  Queue &Q = *L.Q;
  Kernel &K = *L.K;
  Context &C = Q.context();
  LaunchServices &Services = C.launchServices();
  const LaunchRequest &R = *L.R;
  const CompiledKernel &Facts = *L.Facts;
  std::map<Buffer *, BufferPlan> &Plans = L.Plans;
  std::vector<Slice> &Slices = L.Slices;
  const balancer::Split &Proposal = L.Proposal;
  const cl_uint Dim = L.Dim;
  const std::size_t Groups = L.Groups;
  const bool AnyDiffMerge = L.AnyDiffMerge, AnyCombine = L.AnyCombine, Fail = L.Fail;
  const std::optional<planner::Decision> &Plan = L.Plan;
  // Nothing to merge, and one slice or a split the balancer holds: the kernels are left running
  // and their wait handed to the queue, as for an unsplit launch, so that each device has the
  // next launch queued before this one ends. The balancer then hears of the launch after the
  // next one was proposed, which is why a split still being searched waits for its slices (each
  // step would otherwise come a launch late).
  const std::optional<balancer::KeyStatus> BalancerState = Services.Balancer.status(L.Key);
  const bool Held = Proposal.Purpose == balancer::LaunchPurpose::Balance && BalancerState &&
                    BalancerState->Converged;
  const bool Pipelined = (Slices.size() == 1 || Held) && !AnyDiffMerge && !AnyCombine &&
                         Q.canFinishLater() && (!Plan || Plan->Settled);
  if (!Pipelined) {
    const ScopedSpan Shown(Services.Spans, "earlier launches end");
    Q.finishPending(); // earlier launches are measured, and traced, before this one
  }
  // Per slice, its kernel's parts in the order queued: the interior queued early, then the rest.
  std::vector<std::vector<SlicePart>> Parts(Slices.size());
  const auto LaunchStart = Clock::now();
  // 1. Bring to the host whatever some device lacks and only another device holds, unless that
  //    device shares the lacking one's real context: then it goes device to device in step 2,
  //    behind a marker of the holder's queue (the host waits for nothing).
  PeerMarkers Markers(C.services().Backend);
  std::optional<ScopedSpan> Gathering;
  Gathering.emplace(Services.Spans, "gather");
  std::map<Buffer *, RangeSet> ToHostOf;
  std::vector<LaunchRelay> &Relays = L.Relays;
  Relays.clear();
  for (auto &[Root, P] : Plans) {
    RangeSet &ToHost = ToHostOf[Root];
    P.Missing.resize(Slices.size());
    P.FromPeers.assign(Slices.size(), {});
    P.FromHost.resize(Slices.size());
    for (size_t I = 0; I < Slices.size(); ++I) {
      P.Missing[I] = Root->missingOn(Slices[I].Device->Index, P.Need[I]);
      // Undefined contents need not travel (a merge, though, compares against the host's copy,
      // so every device must then start from it).
      if (Root->neverWritten() && !P.Merge) {
        Root->markValidOn(Slices[I].Device->Index, P.Missing[I]);
        P.Missing[I].clear();
      }
      P.FromHost[I] = P.Missing[I];
      P.FromPeers[I] = takePeerParts(*Root, *Slices[I].Device, P.FromHost[I], Markers,
                                     Services.Settings.PeerCopy && !P.Merge);
      if (std::vector<Buffer::RelayPart> Parts = takeRelayParts(
              *Root, *Slices[I].Device, P.FromHost[I], Services.Settings.Relay && !P.Merge);
          !Parts.empty())
        Relays.push_back({Root, Slices[I].Device, std::move(Parts)});
      ToHost.add(P.FromHost[I]);
    }
    // A merge compares against a snapshot of the host copy itself: deferred bytes come in.
    if (P.Merge)
      ToHost.add(wholeOf(*Root));
  }
  // Slices whose interiors go first (LIBSPLIT_OVERLAP): those reads, then those interiors, are
  // queued on each device at once, and the host waits for the reads alone.
  const std::vector<GroupSpan> Early = earlyParts(L, Held);
  if (cl_int Error = runRelays(Relays); Error != CL_SUCCESS)
    return Error;
  for (Slice &S : Slices)
    S.TransferSeconds += relaySecondsOf(Relays, *S.Device);
  if (Early.empty()) {
    for (auto &[Root, P] : Plans)
      if (cl_int Error =
              P.Merge ? Root->holdOnHost(ToHostOf[Root]) : Root->fetchToHost(ToHostOf[Root]);
          Error != CL_SUCCESS)
        return Error;
  } else if (cl_int Error = fetchBehindInteriors(L, Early, ToHostOf, Parts); Error != CL_SUCCESS) {
    awaitAllParts(Slices, Parts);
    return Error;
  }
  for (auto &[Root, P] : Plans) {
    std::vector<RangeSet> NeedByDevice(C.devices().size());
    for (size_t I = 0; I < Slices.size(); ++I)
      NeedByDevice[Slices[I].Device->Index] = std::move(P.Need[I]);
    Root->expectUse(std::move(NeedByDevice)); // where the app's next write of it goes
  }
  Gathering.reset();
  const double GatherSeconds = secondsSince(LaunchStart);
  std::map<Buffer *, std::vector<std::uint8_t>> Snapshots;
  for (auto &[Root, P] : Plans)
    if (P.Merge) {
      const std::uint8_t *Host = Root->hostData();
      Snapshots[Root].assign(Host, Host + Root->size());
    }

  // 2. Each device: its missing data in, its slice (what of it was not queued early), all
  //    devices at once. Bytes sent behind an early interior are not waited for (the interior
  //    would be): they go from staging copies kept until the slice has run.
  auto Staging =
      std::make_shared<std::vector<std::deque<std::vector<std::uint8_t>>>>(Slices.size());
  std::vector<DeviceJob> Jobs;
  for (size_t I = 0; I < Slices.size(); ++I) {
    Slice &S = Slices[I];
    for (auto &[Root, P] : Plans)
      S.BytesIn += P.Missing[I].totalBytes();
    ExecDevice &Device = *S.Device;
    Jobs.push_back(
        {&Device, [&, I]() -> cl_int {
           Slice &Mine = Slices[I];
           const bool Overlapped = !Early.empty();
           const auto PushStart = Clock::now();
           for (auto &[Root, P] : Plans) {
             if (cl_int E = Overlapped
                                ? Root->sendStagedOnWorker(Device, P.FromHost[I], (*Staging)[I])
                                : Root->pushOnWorker(Device, P.FromHost[I]);
                 E != CL_SUCCESS)
               return E;
             if (cl_int E = copyPeerParts(*Root, Device, P.FromPeers[I]); E != CL_SUCCESS)
               return E;
           }
           Mine.TransferSeconds += secondsSince(PushStart);
           if (Mine.BytesIn)
             Services.Spans.span(Device.Name, "transfer in", PushStart, Clock::now());
           cl_int Error = CL_SUCCESS;
           cl_kernel Real = K.realWithArgs(Device, true, R.Args, Error);
           if (!Real)
             return Error;
           const auto KernelStart = Parts[I].empty() ? Clock::now() : Parts[I].front().Enqueued;
           for (const GroupSpan &Rest : restOf(Mine, Overlapped ? Early[I] : GroupSpan{})) {
             SlicePart Part{nullptr, Clock::now()};
             if ((Error = enqueueSlice(Device, Real, Facts, R, Dim, Groups, Rest.First, Rest.End,
                                       &Part.Done)) != CL_SUCCESS)
               return Error;
             Parts[I].push_back(Part);
           }
           if (Pipelined)
             return CL_SUCCESS;
           Error = awaitParts(Device, Parts[I], Mine.KernelSeconds);
           Services.Spans.span(Device.Name, K.name(), KernelStart, Clock::now(), R.Called);
           if (Error == CL_SUCCESS && Fail && I + 1 == Slices.size())
             return InjectedFailure;
           return Error;
         }});
  }
  // A held split with every slice's data in place only queues kernels: no worker need wake.
  bool NothingToMove = true;
  for (auto &[Root, P] : Plans)
    for (const RangeSet &Missing : P.Missing)
      NothingToMove = NothingToMove && Missing.totalBytes() == 0;
  const cl_int Result = runOnDevices(std::move(Jobs), Pipelined && NothingToMove);
  // The next launch of this kernel may start on the app's thread: this one neither waited for
  // its kernels nor moved data (a stencil's halos would hold the app up).
  K.noteLaunchLeftRunning(Pipelined && NothingToMove);
  if (Result != CL_SUCCESS) {
    // Slices that did start still run on their devices: they end before the launch does, and so
    // do the writes from staging copies that this launch frees. What a failed slice was to
    // receive may not be there: nothing it lacked counts as valid (moved again at its next use).
    awaitAllParts(Slices, Parts);
    for (size_t I = 0; I < Slices.size(); ++I)
      if (!(*Staging)[I].empty())
        C.services().Backend.finish(Slices[I].Device->RealQueue);
    return Result;
  }
  for (auto &[Root, P] : Plans)
    for (size_t I = 0; I < Slices.size(); ++I)
      Root->markValidOn(Slices[I].Device->Index, P.Missing[I]);

  // 3. Who holds what: disjoint writes stay on their device; merged buffers come back to the
  //    host (merge.hpp): by diff against the snapshot, or, for atomics, by combination.
  for (auto &[Root, P] : Plans) {
    if (!P.Writes)
      continue;
    if (!P.Merge) {
      for (size_t I = 0; I < Slices.size(); ++I)
        Root->wroteOn(Slices[I].Device->Index, P.Write[I]);
      continue;
    }
    std::vector<MergeSlice> Parts(Slices.size());
    for (size_t I = 0; I < Slices.size(); ++I) {
      Parts[I].Device = Slices[I].Device;
      Parts[I].Written = P.Write[I];
    }
    if (cl_int Error = mergeIntoHost(*Root, Snapshots[Root], Parts, P.Combine,
                                     writtenElementBytes(K, R, *Root, *Slices.front().Device));
        Error != CL_SUCCESS)
      return Error;
    for (size_t I = 0; I < Slices.size(); ++I) {
      Slices[I].TransferSeconds += Parts[I].TransferSeconds;
      Slices[I].BytesOut += Parts[I].BytesOut;
    }
  }
  // 4. Tell the balancer, and the trace (later for a pipelined launch, once its kernels ran).
  //    The gather before the launch is charged to the devices in proportion to the bytes they
  //    received. Kernels: the kernel time of each slice of a pipelined launch.
  std::optional<GuardNote> Note;
  if (Plan)
    Note = GuardNote{L.Guard, Plan->Launch, L.Work};
  SplitReport report{
      Slices,       L.Devices,        Proposal, GatherSeconds,      L.Key,     Dim,
      AnyDiffMerge, AnyCombine,       Note,     L.SeparateHardware, &Q.exec(), Groups,
      L.Base,       K.sliceHistory(), &Services};
  if (!Pipelined) {
    report(secondsSince(LaunchStart), {});
    return CL_SUCCESS;
  }
  std::vector<ExecDevice *> Devices;
  for (const Slice &S : Slices)
    Devices.push_back(S.Device);
  // The arguments stay alive until the kernels have run, whatever the app releases meanwhile.
  // (And the staging copies of what was sent behind early interiors, until the slices ran.)
  std::vector<cl_event> Watched;
  for (const std::vector<SlicePart> &Mine : Parts)
    if (!Mine.empty())
      Watched.push_back(Mine.back().Done);
  Q.finishLater(
      [Parts, LaunchStart, report = std::move(report), Args = R.Args, Staging,
       Devices = std::move(Devices), Name = K.name(), Fail, Called = R.Called]() mutable -> cl_int {
        cl_int Result = CL_SUCCESS;
        double Makespan = 0.0;
        std::vector<double> Kernels(Parts.size(), 0.0);
        for (size_t I = 0; I < Parts.size(); ++I) {
          if (Parts[I].empty())
            continue;
          RealTimes First, Last;
          bool AllTimed = true;
          for (const SlicePart &Part : Parts[I]) {
            double Seconds = 0.0;
            RealTimes Times;
            const cl_int Error = awaitPipelined(*Devices[I], Part.Done, Part.Enqueued, Name,
                                                Seconds, Called, &Times);
            AllTimed = AllTimed && Times.End != 0;
            if (&Part == &Parts[I].front())
              First = Times;
            Last = Times;
            Kernels[I] += Seconds;
            if (Result == CL_SUCCESS)
              Result = Error;
          }
          // A pipelined launch waits behind the one before it, on its devices and for its halos'
          // sources: not its own cost (pipelined_cost.hpp).
          planner::PipelinedSlice Cost;
          Cost.HostBefore =
              std::chrono::duration<double>(Parts[I].front().Enqueued - LaunchStart).count();
          Cost.Kernels = Kernels[I];
          if (AllTimed)
            timeOnDevice(Cost, First, Last, Devices[I]->LastPipelinedEndNs);
          Makespan = std::max(Makespan, planner::pipelinedSliceSeconds(Cost));
        }
        if (Result != CL_SUCCESS)
          return Result;
        if (Fail)
          return InjectedFailure;
        report(Makespan, Kernels);
        return CL_SUCCESS;
      },
      std::move(Watched));
  return FinishesLater;
}

} // namespace libsplit
