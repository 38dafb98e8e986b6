#include "whole_launch.hpp"

#include "launch_parts.hpp"
#include "peer_copies.hpp"
#include "relays.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

namespace libsplit {

namespace {

using Clock = std::chrono::steady_clock;

// The partition-ready kernel's three arguments (after the app's AppArgs) for a slice that is
// the whole NDRange along dimension 0, on Device. R's local size must be set.
cl_int setWholeRange(const ExecDevice &Device, cl_kernel Real, cl_uint AppArgs,
                     const LaunchRequest &R) {
  return Kernel::setSliceArgs(Device, Real, AppArgs, 0, R.Global[0] / R.Local[0], R.Offset[0]);
}

} // namespace

std::string placementKey(const LaunchRequest &R) {
  std::string Key;
  for (cl_uint D = 0; D < R.WorkDim; ++D)
    Key +=
        std::to_string(R.Global[D]) + "/" + (R.LocalGiven ? std::to_string(R.Local[D]) : "-") + " ";
  return Key;
}

void markWrittenWhole(Kernel &K, const LaunchRequest &R, ExecDevice &Device) {
  const CompiledKernel *Facts = nullptr;
  bool FactsAsked = false;
  for (size_t I = 0; I < R.Args.size(); ++I) {
    const KernelArg &A = R.Args[I];
    if (A.What != KernelArg::Kind::Buffer)
      continue;
    const bool ReadOnly = readOnlyForKernels(*A.Mem);
    if (ReadOnly && !FactsAsked) {
      Facts = K.program().compiledKernel(K.name()); // a kernel that cannot split has them too
      FactsAsked = true;
    }
    if (ReadOnly && !mayWrite(*A.Mem, Facts, R, I))
      continue;
    A.Mem->wroteWholeOn(Device.Index);
    if (ReadOnly && analysisShowsWrite(Facts, R, I))
      servicesOf(K).Log.once(
          "read-only-written:" + K.name() + ":" + std::to_string(I), config::LogLevel::Warn,
          "kernel ", K.name(), " writes argument ", I,
          ", a buffer created CL_MEM_READ_ONLY: libsplit keeps what it writes, as "
          "the device does (the OpenCL specification leaves it undefined)");
  }
}

cl_int runWhole(Kernel &K, LaunchRequest &R, ExecDevice &Device, std::string_view Reason,
                Queue *Pipeline, bool Fail, bool Moved, const std::string &Key,
                const std::optional<GuardNote> &Note,
                const std::map<Buffer *, BufferPlan> *Regions) {
  const auto Start = Clock::now();
  std::vector<std::pair<Buffer *, RangeSet>> Missing;
  std::uint64_t BytesIn = 0;
  for (const KernelArg &A : R.Args) {
    if (A.What == KernelArg::Kind::Buffer)
      A.Mem->usedOn(Device);
    if (A.What == KernelArg::Kind::Buffer && !A.Mem->wholeValidOn(Device.Index)) {
      const auto Planned = Regions ? Regions->find(&A.Mem->root())
                                   : std::map<Buffer *, BufferPlan>::const_iterator();
      if (Regions && (Planned == Regions->end() ||
                      std::any_of(Missing.begin(), Missing.end(),
                                  [&](const auto &M) { return M.first == Planned->first; })))
        continue; // an argument that aliases another: its root's bytes are planned once
      RangeSet Lacking = Regions
                             ? Planned->first->missingOn(Device.Index, Planned->second.Need.front())
                             : A.Mem->missingOn(Device.Index, wholeOf(*A.Mem));
      // Undefined contents need not travel (an output buffer's first launch: conv2d sent its
      // whole result buffer before the kernel that overwrites it).
      if (A.Mem->neverWritten()) {
        A.Mem->markValidOn(Device.Index, Lacking);
        continue;
      }
      BytesIn += Lacking.totalBytes();
      Missing.emplace_back(Regions ? Planned->first : A.Mem.get(), std::move(Lacking));
    }
  }
  // What only another device of its real context holds comes from there (peer_copies.hpp): a
  // launch back on the app's device after splits takes the other slices' bytes without the
  // host waiting for them.
  LaunchServices &S = servicesOf(K);
  PeerMarkers Markers(S.Backend);
  // Large parts only another device holds come relayed from it (relays.hpp).
  std::vector<RangeSet> FromHost;
  std::vector<std::vector<Buffer::PeerPart>> FromPeers;
  std::vector<LaunchRelay> Relays;
  for (auto &[B, Ranges] : Missing) {
    FromHost.push_back(Ranges);
    FromPeers.push_back(takePeerParts(*B, Device, FromHost.back(), Markers, S.Settings.PeerCopy));
    if (std::vector<Buffer::RelayPart> Parts =
            takeRelayParts(*B, Device, FromHost.back(), S.Settings.Relay);
        !Parts.empty())
      Relays.push_back({B, &Device, std::move(Parts)});
  }
  if (cl_int Error = runRelays(Relays); Error != CL_SUCCESS)
    return Error;
  for (std::size_t I = 0; I < Missing.size(); ++I)
    if (cl_int Error = Missing[I].first->fetchToHost(FromHost[I]); Error != CL_SUCCESS)
      return Error;
  // A launch whose time nothing of libsplit's wants (the guard settled and not sampling it, or
  // no guard, no placement, no trace) is not waited for by itself: each wait for a real event, or
  // query of it, is another call into the driver beside the app's next launches (the queue then
  // knows it ended from a later command of the device's queue, or the queue's clFinish). Nor
  // has it a real event of its own, a profiled one costing NVIDIA's driver about as much host
  // time as the launch, unless the app's event profiles: it then keeps one, read only when the
  // app asks for its times (Event::keepDeviceEvent). An app's event completes with it, as the
  // launches around it end: an app thread that waits for it alone waits for the device's queue
  // up to the launches queued after it too, which an in-order queue runs before anything the app
  // queues next.
  const std::shared_ptr<Event> Reported = R.Reported.lock();
  // (The summary alone counts such a launch, untimed: a trace wants each launch timed.)
  const bool Untracked = Pipeline && (!Note || !Note->Launch.Measured) && Key.empty() && !Fail &&
                         !S.Recorder.tracing() && !S.Spans.enabled();
  cl_event Running = nullptr;
  auto KernelStart = Clock::now();
  std::uint64_t EnqueuedNs = 0;
  cl_int Result = CL_SUCCESS;
  std::size_t Received = 0; // of Missing, the buffers whose bytes were queued to the device
  auto Job = [&] {
    for (; Received < Missing.size(); ++Received)
      if ((Result = Missing[Received].first->pushOnWorker(Device, FromHost[Received])) !=
              CL_SUCCESS ||
          (Result = copyPeerParts(*Missing[Received].first, Device, FromPeers[Received])) !=
              CL_SUCCESS)
        return;
    cl_kernel Real = K.realWithArgs(Device, Moved, R.Args, Result);
    if (!Real || (Moved && (Result = setWholeRange(Device, Real, K.argCount(), R)) != CL_SUCCESS))
      return;
    KernelStart = Clock::now();
    EnqueuedNs = hostNanoseconds();
    Result = enqueueRealKernel(Device, Real, R.WorkDim, R.Offset.data(), R.Global.data(),
                               R.LocalGiven ? R.Local.data() : nullptr,
                               Untracked && !Reported ? nullptr : &Running);
  };
  // By reference: the job's captures would not fit std::function's inline storage.
  Device.Worker->runHere(std::ref(Job));
  // A buffer whose bytes could not be queued to the device does not count them valid there.
  for (std::size_t I = 0; I < Received; ++I)
    Missing[I].first->markValidOn(Device.Index, Missing[I].second);
  if (Result != CL_SUCCESS)
    return Result;
  // Later commands see the results where they will be: their transfers queue behind the kernel.
  if (Regions) {
    for (const auto &[Root, P] : *Regions)
      if (P.Writes && !P.Write.empty())
        Root->wroteOn(Device.Index, P.Write.front());
  } else {
    markWrittenWhole(K, R, Device);
  }

  if (Untracked) {
    S.Recorder.countUntimed(K.name(), Device.Name, Reason, BytesIn);
    if (Reported && Running)
      Reported->keepDeviceEvent(Running, EnqueuedNs);
    Pipeline->finishLater([Args = std::move(R.Args)] { return CL_SUCCESS; }, {}, &Device, true);
    return FinishesLater;
  }
  std::optional<LaunchRecord> Rec;
  if (S.Recorder.wanted()) {
    Rec = recordOf(K, R);
    Rec->Unsplit = std::string(Reason);
    DeviceRecord D;
    D.Name = Device.Name;
    D.Share = 1.0;
    D.Groups = R.LocalGiven ? R.Global[0] / R.Local[0] : 0;
    D.BytesIn = BytesIn;
    Rec->Devices.push_back(std::move(D));
  }
  const double HostSeconds = std::chrono::duration<double>(KernelStart - Start).count();
  auto Finish = [Running, Rec = std::move(Rec), Args = std::move(R.Args),
                 Kept = K.shared_from_this(), Device = &Device, KernelStart, HostSeconds, Fail, Key,
                 Note, Called = R.Called, Reported = R.Reported, EnqueuedNs,
                 Services = &S]() mutable -> cl_int {
    // Nothing of libsplit's measures this launch and no profiled event of the app's wants its
    // times (a launch finished at once, not left running): its end is all there is to wait for.
    // (Each profiling query is a call into the driver beside the app's next launches.)
    const bool Timed = Fail || (Note && Note->Launch.Measured) || !Key.empty() || Rec ||
                       Services->Spans.enabled() || !Reported.expired();
    if (!Timed)
      return awaitEnd(*Device, Running);
    double KernelSeconds = 0.0;
    RealTimes Times;
    if (cl_int Error = awaitPipelined(*Device, Running, KernelStart, Kept->name(), KernelSeconds,
                                      Called, &Times);
        Error != CL_SUCCESS)
      return Error;
    if (const std::shared_ptr<Event> AppEvent = Reported.lock(); AppEvent && Times.Queued)
      AppEvent->stampFromDevice(EnqueuedNs, Times.Queued, Times.Start, Times.End);
    if (Fail)
      return InjectedFailure;
    if (!Key.empty())
      Kept->wholePlacement()->observe(Key, Device->Index, KernelSeconds);
    // Host work before the kernel, then the kernel, less what overlapped the device's previous
    // launch: a pipelined launch waits behind it, which is not its own cost, and its host work
    // ran while the device was busy (measured so, a split's slices are: pipelined_cost.hpp).
    planner::PipelinedSlice Cost;
    Cost.HostBefore = HostSeconds;
    Cost.Kernels = KernelSeconds;
    if (Times.End != 0)
      timeOnDevice(Cost, Times, Times, Device->LastPipelinedEndNs);
    const double Makespan = planner::pipelinedSliceSeconds(Cost);
    if (Note)
      Note->Guard->observe(Note->Launch, Note->Work, Makespan);
    if (Rec) {
      Rec->MakespanSeconds = Makespan;
      Rec->Devices.front().TransferSeconds = HostSeconds;
      Rec->Devices.front().KernelSeconds = KernelSeconds;
      Services->Recorder.record(*Rec);
    }
    return CL_SUCCESS;
  };
  if (Pipeline) {
    // Nothing waits for it but what an app thread waits for itself (Queue::finishHere): its
    // time may come late, and so may the app's event (which has the kernel's own profiling
    // times: Event::stampFromDevice). Waiting for each launch's event as it ended cost a launch
    // with an event several times its host time with NVIDIA's driver, whose wait spins.
    const bool Patient = !Fail;
    Pipeline->finishLater(std::move(Finish), {Running}, &Device, false, Patient);
    return FinishesLater;
  }
  return Finish();
}

cl_int runUnsplit(Queue &Q, Kernel &K, LaunchRequest &Request,
                  const std::vector<ExecDevice *> &Devices, bool Fail, std::string_view Reason,
                  bool Movable, const std::optional<GuardNote> &Note, bool Settled) {
  LaunchServices &S = servicesOf(K);
  if (Devices.size() >= 2 && S.Log.enabled(config::LogLevel::Info))
    S.Log.once("unsplit:" + K.name() + ":" + std::string(Reason), config::LogLevel::Info, "kernel ",
               K.name(), " runs unsplit: ", Reason);
  Queue *Pipeline = Q.canFinishLater() && Settled ? &Q : nullptr;
  ExecDevice &Home = Q.exec();
  // Only a movable kernel's launches are recorded (a key per NDRange: no entries for the rest).
  const std::string Key = Movable ? placementKey(Request) : std::string();
  const std::optional<std::size_t> Final =
      Movable ? K.wholePlacement()->settled(Key) : std::nullopt;
  if (Movable && Final != Home.Index) {
    std::map<std::size_t, std::pair<ExecDevice *, LaunchRequest>> Ready;
    std::vector<std::size_t> Candidates;
    bool Building = false; // a candidate's partition-ready program is still being built
    for (ExecDevice *D : Devices) {
      // Never a CPU beside an app's GPU: see whole_placement.hpp. Once settled, only the
      // device chosen.
      if (D == &Home || ((Home.Type & CL_DEVICE_TYPE_GPU) && (D->Type & CL_DEVICE_TYPE_CPU)) ||
          (Final && D->Index != *Final))
        continue;
      if (K.program().splitBuildPending(*D)) {
        Building = true;
        continue;
      }
      LaunchRequest There = Request;
      if (!There.LocalGiven) {
        There.Local = chooseLocalSize(K, There, {D});
        There.LocalGiven = true;
      }
      std::string Unable;
      if (!canRun(K, *D, There, Unable))
        continue;
      Candidates.push_back(D->Index);
      Ready.emplace(D->Index, std::make_pair(D, std::move(There)));
    }
    bool PlacementSettled = true;
    const std::size_t Chosen =
        K.wholePlacement()->choose(Key, Home.Index, Candidates, Building, PlacementSettled);
    // Unsettled, or a device still to come: launches are not queued ahead of the choice (an
    // app on the H200 machine's CPU queued all its launches before the H200's build ended).
    if (!PlacementSettled || Building)
      Pipeline = nullptr;
    K.noteLaunchLeftRunning(Pipeline != nullptr);
    if (auto It = Ready.find(Chosen); It != Ready.end()) {
      ExecDevice &There = *It->second.first;
      S.Log.once("whole:" + K.name() + ":" + Key + ":" + There.Name, config::LogLevel::Info,
                 "kernel ", K.name(), " runs whole on ", There.Name,
                 " (measured once, or faster than the app's device)");
      const cl_int Result =
          runWhole(K, It->second.second, There, Reason, Pipeline, Fail, true, Key);
      if (Result == CL_SUCCESS || Result == FinishesLater || Fail)
        return Result;
      // That device cannot run it after all: never again, and this launch runs at home.
      K.wholePlacement()->observe(Key, Chosen, std::numeric_limits<double>::infinity());
    }
  }
  K.noteLaunchLeftRunning(Pipeline != nullptr);
  // Settled at home, its placement needs no more times: the launch goes untimed, as natively.
  const std::string &Timed = Final == Home.Index ? std::string() : Key;
  return runWhole(K, Request, Home, Reason, Pipeline, Fail, false, Timed, Note);
}

} // namespace libsplit
