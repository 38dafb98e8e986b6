#include "launch.hpp"

#include "peer_copies.hpp"

#include "chunked_launch.hpp"
#include "split_launch.hpp"

#include "cut_choice.hpp"
#include "launch_plan.hpp"
#include "launch_report.hpp"
#include "owner_cut.hpp"
#include "probe_price.hpp"

#include "merge.hpp"

#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/planner/chunking.hpp"
#include "libsplit/planner/group_size.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

namespace libsplit {

namespace {

using Clock = std::chrono::steady_clock;

LaunchRecord recordOf(const Kernel &K, const LaunchRequest &R) {
  LaunchRecord Rec;
  Rec.Kernel = K.name();
  Rec.WorkDim = R.WorkDim;
  for (cl_uint D = 0; D < R.WorkDim; ++D) {
    Rec.Global[D] = R.Global[D];
    Rec.Local[D] = R.LocalGiven ? R.Local[D] : 0;
    Rec.Offset[D] = R.Offset[D];
  }
  return Rec;
}

// WholePlacement's key for a launch: the app's NDRange.
std::string placementKey(const LaunchRequest &R) {
  std::string Key;
  for (cl_uint D = 0; D < R.WorkDim; ++D)
    Key +=
        std::to_string(R.Global[D]) + "/" + (R.LocalGiven ? std::to_string(R.Local[D]) : "-") + " ";
  return Key;
}

// The partition-ready kernel's three arguments (after the app's AppArgs) for a slice that is
// the whole NDRange along dimension 0, on Device. R's local size must be set.
cl_int setWholeRange(const ExecDevice &Device, cl_kernel Real, cl_uint AppArgs,
                     const LaunchRequest &R) {
  return Kernel::setSliceArgs(Device, Real, AppArgs, 0, R.Global[0] / R.Local[0], R.Offset[0]);
}

// After a launch run whole on Device: every buffer argument it may have changed (mayWrite) is
// valid there only. A buffer created read-only that the analysis shows written is warned about
// once per kernel and argument: it works natively, and is kept coherent here too.
void markWrittenWhole(Kernel &K, const LaunchRequest &R, ExecDevice &Device) {
  const CompiledKernel *Facts = nullptr;
  bool FactsAsked = false;
  for (size_t I = 0; I < R.Args.size(); ++I) {
    const KernelArg &A = R.Args[I];
    if (A.What != KernelArg::Kind::Buffer)
      continue;
    if (readOnlyForKernels(*A.Mem) && !FactsAsked) {
      Facts = K.program().compiledKernel(K.name()); // a kernel that cannot split has them too
      FactsAsked = true;
    }
    if (!mayWrite(*A.Mem, Facts, R, I))
      continue;
    A.Mem->wroteWholeOn(Device.Index);
    if (readOnlyForKernels(*A.Mem) && analysisShowsWrite(Facts, R, I))
      servicesOf(K).Log.once(
          "read-only-written:" + K.name() + ":" + std::to_string(I), config::LogLevel::Warn,
          "kernel ", K.name(), " writes argument ", I,
          ", a buffer created CL_MEM_READ_ONLY: libsplit keeps what it writes, as "
          "the device does (the OpenCL specification leaves it undefined)");
  }
}

// The whole launch on one device: the app's own kernel and NDRange (NULL local size included),
// or, with Moved, the partition-ready kernel (on a device other than the app's) over the same
// NDRange, R's local size set. Its kernel time goes to the kernel's WholePlacement under Key
// (none when empty).
// With Pipeline (an in-order queue), the kernel is left running and its wait handed to the queue
// (FinishesLater), so that the app's next launch is queued on the device before this one ends;
// R's arguments then go with it (they stay alive until it ran, whatever the app releases).
// Note, when given: the split guard hears what the launch cost, host preparation to kernel end.
// This is every launch of a kernel that does not split, so its host cost is kept low: nothing
// is built where no byte moves, and the record only where a summary or trace wants it.
// With Regions (the launch planned as one slice on Device, R's local size set), only the bytes
// its regions need move, and only those it may write change hands, as for a split launch's slice.
cl_int runWhole(Kernel &K, LaunchRequest &R, ExecDevice &Device, std::string_view Reason,
                Queue *Pipeline, bool Fail, bool Moved, const std::string &Key,
                const std::optional<GuardNote> &Note = std::nullopt,
                const std::map<Buffer *, BufferPlan> *Regions = nullptr) {
  const auto Start = Clock::now();
  std::vector<std::pair<Buffer *, RangeSet>> Missing;
  std::uint64_t BytesIn = 0;
  for (const KernelArg &A : R.Args)
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
  // What only another device of its real context holds comes from there (peer_copies.hpp): a
  // launch back on the app's device after splits takes the other slices' bytes without the
  // host waiting for them.
  LaunchServices &S = servicesOf(K);
  PeerMarkers Markers(S.Backend);
  std::vector<RangeSet> FromHost;
  std::vector<std::vector<Buffer::PeerPart>> FromPeers;
  for (auto &[B, Ranges] : Missing) {
    FromHost.push_back(Ranges);
    FromPeers.push_back(takePeerParts(*B, Device, FromHost.back(), Markers, S.Settings.PeerCopy));
    if (cl_int Error = B->fetchToHost(FromHost.back()); Error != CL_SUCCESS)
      return Error;
  }
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
  const bool Untracked = Pipeline && (!Note || !Note->Launch.Measured) && Key.empty() && !Fail &&
                         !S.Recorder.wanted() && !S.Spans.enabled();
  cl_event Running = nullptr;
  auto KernelStart = Clock::now();
  std::uint64_t EnqueuedNs = 0;
  cl_int Result = CL_SUCCESS;
  auto Job = [&] {
    for (std::size_t I = 0; I < Missing.size(); ++I)
      if ((Result = Missing[I].first->pushOnWorker(Device, FromHost[I])) != CL_SUCCESS ||
          (Result = copyPeerParts(*Missing[I].first, Device, FromPeers[I])) != CL_SUCCESS)
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
  for (auto &[B, Ranges] : Missing)
    B->markValidOn(Device.Index, Ranges);
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
    // Host work before the kernel, then the kernel: a pipelined launch waits behind the one
    // before it on the device, which is not its own cost.
    const double Makespan = HostSeconds + KernelSeconds;
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

// A local size that divides the global size and that every device and the kernel accept; used
// when the app left the choice to the implementation.
std::array<size_t, 3> chooseLocalSize(Kernel &K, const LaunchRequest &R,
                                      const std::vector<ExecDevice *> &Devices) {
  size_t Limit = SIZE_MAX;
  bool AllGpus = !Devices.empty();
  for (ExecDevice *D : Devices) {
    Limit = std::min({Limit, D->MaxWorkGroupSize, D->MaxWorkItemSizes[0]});
    if (const size_t KernelLimit = K.splitGroupLimit(*D))
      Limit = std::min(Limit, KernelLimit);
    AllGpus = AllGpus && (D->Type & CL_DEVICE_TYPE_GPU) != 0;
  }
  return {planner::implicitGroupSize(R.Global[0], AllGpus, Limit == SIZE_MAX ? 0 : Limit), 1, 1};
}

// Whether Device can run this launch's slices: the work-group size the kernel allows there
// (register pressure can lower it below the device's maximum) and its local memory.
bool canRun(Kernel &K, ExecDevice &Device, const LaunchRequest &R, std::string &Why) {
  if (K.program().splitBuildPending(Device)) {
    Why = "its partition-ready program is still being built";
    return false;
  }
  cl_int Error = CL_SUCCESS;
  cl_kernel Real = K.realFor(Device, true, Error);
  if (!Real) {
    Why = "its partition-ready kernel cannot be created (error " + std::to_string(Error) + ")";
    return false;
  }
  size_t GroupSize = 1;
  for (cl_uint D = 0; D < R.WorkDim; ++D) {
    GroupSize *= R.Local[D];
    if (D < Device.MaxWorkItemSizes.size() && R.Local[D] > Device.MaxWorkItemSizes[D]) {
      Why = "local size " + std::to_string(R.Local[D]) + " in dimension " + std::to_string(D) +
            " exceeds the device's " + std::to_string(Device.MaxWorkItemSizes[D]);
      return false;
    }
  }
  const size_t KernelLimit = K.splitGroupLimit(Device);
  if (KernelLimit && GroupSize > KernelLimit) {
    Why = "work-groups of " + std::to_string(GroupSize) + " exceed the kernel's limit of " +
          std::to_string(KernelLimit) + " there";
    return false;
  }
  const cl_ulong StaticLocal = K.splitLocalBytes(Device);
  cl_ulong DynamicLocal = 0;
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Local)
      DynamicLocal += A.LocalSize;
  // The query may or may not count __local arguments already set: take the larger reading.
  const cl_ulong Needed = std::max(StaticLocal, DynamicLocal);
  if (Device.LocalMemSize && Needed > Device.LocalMemSize) {
    Why = "it needs " + std::to_string(Needed) + " bytes of local memory, the device has " +
          std::to_string(Device.LocalMemSize);
    return false;
  }
  return true;
}

} // namespace

static double workItems(const LaunchRequest &R) {
  double Work = 1.0;
  for (cl_uint D = 0; D < R.WorkDim; ++D)
    Work *= static_cast<double>(R.Global[D]);
  return Work;
}

namespace {

// How a launch splits: along which dimension, in how many work-groups; R's local size set.
struct SplitShape {
  bool Regions = false;        // the compiler's region summary matches the launch
  bool DisjointWrites = false; // slices along Dim write disjoint bytes (no merge)
  cl_uint Dim = 0;
  size_t Groups = 0;
};

// The launch's shape, or why it cannot split (Movable: the kernel itself cannot, rather than this
// launch being too small to).
std::optional<SplitShape> shapeOf(const CompiledKernel &Facts, const LaunchRequest &R,
                                  const config::Config &Settings, std::string &Why, bool &Movable) {
  SplitShape Shape;
  Shape.Regions = hasRegions(Facts, R);
  if (std::string Obstacle = atomicsObstacle(Facts, R, Shape.Regions); !Obstacle.empty()) {
    Why = std::move(Obstacle);
    Movable = true;
    return std::nullopt;
  }
  // Split along a dimension whose slices write disjoint bytes when the regions say so (no
  // merge needed): among those, the one whose halves write the fewest ranges (the rows of a
  // row-major matrix rather than its columns), then the one with the most work-groups.
  std::vector<std::uint32_t> Candidates;
  std::vector<std::size_t> WriteRanges(3, 0);
  if (Shape.Regions) {
    const analysis::NDRange Range = ndrangeOf(R);
    const analysis::LaunchArgs Scalars = scalarsOf(R);
    auto regions = [&](const analysis::Slice &S) {
      return sliceRegions(Facts, R, Range, Scalars, S);
    };
    Candidates = analysis::disjointWriteDims(Range, regions);
    if (Candidates.size() > 1)
      for (std::uint32_t D : Candidates)
        for (const analysis::ArgRegions &Arg : *regions({D, 0, Range.numGroups(D) / 2}))
          WriteRanges[D] += Arg.Write.ranges().size();
  }
  Shape.DisjointWrites = !Candidates.empty();
  if (Candidates.empty())
    for (cl_uint D = 0; D < R.WorkDim; ++D)
      Candidates.push_back(D);
  Shape.Dim = Candidates.front();
  for (std::uint32_t D : Candidates)
    if (WriteRanges[D] < WriteRanges[Shape.Dim] ||
        (WriteRanges[D] == WriteRanges[Shape.Dim] &&
         R.Global[D] / R.Local[D] > R.Global[Shape.Dim] / R.Local[Shape.Dim]))
      Shape.Dim = D;
  Shape.Groups = R.Global[Shape.Dim] / R.Local[Shape.Dim];
  const size_t MinGroups = std::max<unsigned>(Settings.MinGroupsPerDevice, 1);
  if (Shape.Groups / MinGroups < 2) {
    Why = "too few work-groups (" + std::to_string(Shape.Groups) + ") to split";
    Movable = false;
    return std::nullopt;
  }
  return Shape;
}

balancer::LaunchKey launchKey(Kernel &K, const LaunchRequest &R, cl_uint Dim) {
  balancer::LaunchKey Key;
  Key.Kernel = K.name() + "@" + K.program().sourceKey();
  Key.WorkDim = R.WorkDim;
  for (cl_uint D = 0; D < 3; ++D) {
    Key.Global[D] = R.Global[D];
    Key.Local[D] = R.Local[D];
  }
  Key.SplitDim = Dim;
  return Key;
}

// Whether Device takes chunks of a launch whose app's device is Home: a device of Home's type,
// or any with LIBSPLIT_FIRST_SPLIT=uniform. (A CPU beside a GPU app, as at a first split: its
// first chunk includes PoCL's compilation of the kernel and can outlast the GPUs' whole launch;
// the balancer probes it later.)
bool takesChunks(const ExecDevice &Device, const ExecDevice &Home, const config::Config &Settings) {
  const cl_device_type Mask = ~static_cast<cl_device_type>(CL_DEVICE_TYPE_DEFAULT);
  return Settings.FirstSplit == config::FirstSplitMode::Uniform ||
         (Device.Type & Mask) == (Home.Type & Mask);
}

// Whether a device of Devices beside Home would take chunks of its launches: otherwise a launch
// run in chunks would only pay for their waits (one GPU beside a CPU: the GPU alone ran them).
bool chunkTakersBeside(const ExecDevice &Home, const std::vector<ExecDevice *> &Devices,
                       const config::Config &Settings) {
  return std::any_of(Devices.begin(), Devices.end(), [&](const ExecDevice *D) {
    return D != &Home && takesChunks(*D, Home, Settings);
  });
}

// What every planned launch carries (PlannedLaunch).
void plannedLaunch(PlannedLaunch &L, Queue &Q, Kernel &K, const LaunchRequest &R,
                   const CompiledKernel &Facts, cl_uint Dim, size_t Groups, bool Fail,
                   LaunchRecord Base) {
  L.Q = &Q;
  L.K = &K;
  L.R = &R;
  L.Facts = &Facts;
  L.Dim = Dim;
  L.Groups = Groups;
  L.Key = launchKey(K, R, Dim);
  L.Fail = Fail;
  L.Base = std::move(Base);
}

// A chunked launch's fixed parts; the caller says who joins.
ChunkedLaunch chunkedLaunch(Queue &Q, Kernel &K, const LaunchRequest &R,
                            const CompiledKernel &Facts, const SplitShape &Shape, ExecDevice &Home,
                            bool Fail, LaunchRecord Base) {
  ChunkedLaunch L;
  plannedLaunch(L, Q, K, R, Facts, Shape.Dim, Shape.Groups, Fail, std::move(Base));
  L.Regions = Shape.Regions;
  L.DisjointWrites = Shape.DisjointWrites;
  L.Home = &Home;
  L.ElementBytes = [&K, &R, &Home](Buffer &Root) { return writtenElementBytes(K, R, Root, Home); };
  return L;
}

// Whether a launch keeps the app's device busy (planner::fillsDevice): one that does not is not
// run in chunks to find out whether a second device would help. Before the local size is chosen,
// a GPU's share is counted in work-items.
bool fillsDevice(const ExecDevice &Device, const LaunchRequest &R) {
  std::size_t ItemsPerGroup = 1;
  for (cl_uint D = 0; R.LocalGiven && D < R.WorkDim; ++D)
    ItemsPerGroup *= R.Local[D];
  return planner::fillsDevice((Device.Type & CL_DEVICE_TYPE_GPU) != 0, Device.ComputeUnits,
                              ItemsPerGroup, workItems(R));
}

// While the split devices are not open: a kernel's first launch runs in chunks on the app's
// device (its time tells whether the launch pays for opening them: they open and join it), and
// so does a later one measured to last that long. Null where the launch runs whole as natively.
// Only launches with nothing to merge: a merge needs the host's copy of every written buffer
// before the first chunk, which a launch that stays on the app's device would pay for nothing.
std::optional<cl_int> chunkWhileOpening(Queue &Q, Kernel &K, const LaunchRequest &Request,
                                        const CompiledKernel &Facts, bool Fail) {
  Context &C = Q.context();
  ExecDevice &Home = Q.exec();
  if (!C.chunksWhileOpening() || !fillsDevice(Home, Request) ||
      !chunkTakersBeside(Home, C.plannedSplitDevices(), servicesOf(K).Settings))
    return std::nullopt;
  auto never = [&K] {
    K.noteChunkedSecondsPerItem(-1.0); // its launches go the direct way from now on
    return std::nullopt;
  };
  if (!Home.Splits || !K.program().splitProgramFor(Home) || atomicsCombined(Facts, Request))
    return never();
  // Measured before: only a launch long enough to open the devices for (as launchDirect
  // decides), which opens them now.
  const double PerItem = K.chunkedSecondsPerItem();
  if (PerItem > 0.0 && !(PerItem * workItems(Request) >= C.openAfterSeconds() &&
                         C.openForLongLaunch(PerItem * workItems(Request))))
    return std::nullopt;
  LaunchRequest R = Request;
  if (!R.LocalGiven) {
    R.Local = chooseLocalSize(K, R, C.plannedSplitDevices());
    R.LocalGiven = true;
  }
  std::string Why;
  bool Movable = false;
  if (!canRun(K, Home, R, Why))
    return never();
  const std::optional<SplitShape> Shape = shapeOf(Facts, R, servicesOf(K).Settings, Why, Movable);
  if (!Shape || !Shape->DisjointWrites)
    return never();
  ChunkedLaunch L = chunkedLaunch(Q, K, R, Facts, *Shape, Home, Fail, recordOf(K, Request));
  auto able = [&K, &R, &C] {
    std::vector<ExecDevice *> Able;
    std::string Unable;
    for (ExecDevice *D : C.splitDevices())
      if (canRun(K, *D, R, Unable))
        Able.push_back(D);
    return Able;
  };
  L.Joinable = [&Home, able, &Settings = servicesOf(K).Settings] {
    std::vector<ExecDevice *> Others;
    for (ExecDevice *D : able())
      if (D != &Home && takesChunks(*D, Home, Settings))
        Others.push_back(D);
    return Others;
  };
  L.OpenFor = [&C](double Seconds) { return C.openForLongLaunch(Seconds); };
  L.MayJoinLater = [&C, &K, &Home] {
    if (!C.splitDevicesOpen())
      return C.openingStarted();
    return std::any_of(C.splitDevices().begin(), C.splitDevices().end(), [&](ExecDevice *D) {
      return D != &Home && K.program().splitBuildPending(*D);
    });
  };
  L.BalancerDevices = able;
  return runChunked(L);
}

} // namespace

// The planner's warm start (LIBSPLIT_TUNING) loads when a context is made (whether to open its
// split devices at once: Context::initialize), or at the first launch that needs a guard.
void startPlannerTuning(LaunchServices &S, const std::vector<ExecDevice *> &Devices) {
  if (!S.Planner.guarding() || S.Planner.tuningStarted())
    return;
  std::string Signature;
  for (const ExecDevice *D : Devices)
    Signature += D->Name + ";";
  S.Planner.startTuning(tuningDirectory(S.Settings), Signature, S.Log);
}

std::optional<planner::Decision> decideAtCall(Queue &Q, Kernel &K, const LaunchRequest &Request) {
  LaunchServices &S = Q.context().launchServices();
  const std::vector<ExecDevice *> &Devices = Q.context().splitDevices();
  std::string Why;
  if (!S.Planner.guarding() || Devices.size() < 2 || !K.splitFacts(Why))
    return std::nullopt;
  startPlannerTuning(S, Devices);
  const std::shared_ptr<GuardSlot> Guard = K.splitGuard(Q.exec().Index);
  const double Work = workItems(Request);
  if (shareCores(Devices)) {
    planner::PricedBytes Shared;
    Shared.SharedHardware = true;
    // The deferred build of the partition-ready program runs on the cores the app's device uses
    // (PoCL's CPU compile): the first probe of a split waits until the run has made it
    // affordable. (It came within a few milliseconds of a run of short kernels, and took more
    // time from the app than the run's probes are allowed.)
    Shared.FirstSplitSeconds = K.program().deferredBuildSeconds();
    return Guard->decide(Work, Shared);
  }
  if (Guard->settledWhole(Work))
    return Guard->decideWhole(Work);
  return std::nullopt;
}

namespace {

// Whether launches of this size may run in chunks while the split devices open
// (chunkWhileOpening), as far as the context and the size tell.
bool chunksWhileOpening(Queue &Q, const LaunchRequest &R) {
  Context &C = Q.context();
  return C.splitDevices().size() < 2 && !C.splitDevicesOpen() && C.chunksWhileOpening() &&
         fillsDevice(Q.exec(), R) &&
         chunkTakersBeside(Q.exec(), C.plannedSplitDevices(), C.launchServices().Settings);
}

// Whether its kernel's launches so far make this one run in chunks: the first (nothing measured
// yet), or one measured long enough to open the split devices for.
bool chunksByItsKernel(Queue &Q, Kernel &K, const LaunchRequest &R) {
  const double PerItem = K.chunkedSecondsPerItem();
  return PerItem == 0.0 ||
         (PerItem > 0.0 && PerItem * workItems(R) >= Q.context().openAfterSeconds());
}

} // namespace

bool runsWholeOnAppDevice(Queue &Q, Kernel &K, const LaunchRequest &R) {
  return Q.context().splitDevices().size() < 2 &&
         !(chunksWhileOpening(Q, R) && chunksByItsKernel(Q, K, R));
}

bool launchDirect(Queue &Q, Kernel &K, LaunchRequest &R, cl_int &Result) {
  Context &C = Q.context();
  const LaunchServices &S = C.launchServices();
  const bool OneDevice = C.splitDevices().size() < 2;
  const bool SettledWhole = R.Decided && R.Decided->Launch.Run == planner::Mode::Whole &&
                            R.Decided->Settled && !R.Decided->Launch.Measured;
  // What would make runWhole keep a record, a real event or a log line for the launch.
  if (R.EventWanted || !(OneDevice || SettledWhole) || S.Settings.FailLaunch != 0 ||
      S.Recorder.wanted() || S.Spans.enabled() || S.Log.enabled(config::LogLevel::Info))
    return false;
  // A kernel's first launch, and one measured long enough, may run in chunks while the split
  // devices open (chunkWhileOpening): not here. A launch behind its kernel's first, still running
  // on the queue's executor, waits a little for it (beginDirect) rather than joining the queue:
  // queued, it and every launch after it would go through the executor while the app launches
  // faster than the executor runs them (a loop of short kernels, to its end). It is decided
  // again once the first one has been measured.
  const bool MayChunk = chunksWhileOpening(Q, R);
  auto chunks = [&] {
    const double PerItem = K.chunkedSecondsPerItem();
    return PerItem > 0.0 && PerItem * workItems(R) >= C.openAfterSeconds();
  };
  if (MayChunk && ((K.chunkedSecondsPerItem() == 0.0 && K.claimFirstLaunch()) || chunks()))
    return false;
  ExecDevice &Device = Q.exec();
  auto Start = [&](cl_int &Error, std::vector<KernelArg> &Kept) {
    if (MayChunk && chunks())
      return false;
    std::lock_guard<std::mutex> DataLock(C.dataLock());
    // Every byte already on the device (or never written): nothing moves.
    for (const KernelArg &A : R.Args)
      if (A.What == KernelArg::Kind::Buffer && !A.Mem->wholeValidOn(Device.Index) &&
          !A.Mem->neverWritten())
        return false;
    for (const KernelArg &A : R.Args)
      if (A.What == KernelArg::Kind::Buffer && !A.Mem->wholeValidOn(Device.Index))
        A.Mem->markValidOn(Device.Index, wholeOf(*A.Mem));
    auto Job = [&] {
      cl_kernel Real = K.realWithArgs(Device, false, R.Args, Error);
      if (Real)
        Error = enqueueRealKernel(Device, Real, R.WorkDim, R.Offset.data(), R.Global.data(),
                                  R.LocalGiven ? R.Local.data() : nullptr, nullptr);
    };
    Device.Worker->runHere(std::ref(Job));
    if (Error != CL_SUCCESS)
      return true; // the device's own answer, as natively at the call
    markWrittenWhole(K, R, Device);
    K.noteLaunchLeftRunning(true);
    // The arguments stay alive until the kernel ran, whatever the app releases meanwhile.
    Kept = std::move(R.Args);
    return true;
  };
  return Q.runDirect(Start, Device, Result);
}

cl_int executeLaunch(Queue &Q, Kernel &K, LaunchRequest &Request, Event &Done) {
  if (Request.EventWanted && Done.profiled())
    Request.Reported = Done.shared_from_this();
  Context &C = Q.context();
  LaunchServices &S = C.launchServices();
  std::lock_guard<std::mutex> DataLock(C.dataLock());
  const bool Fail = S.Failures.failThisLaunch();
  // Where the app queues many launches at once, they run long after its calls.
  C.noteLaunch(true);

  std::string Why;
  const CompiledKernel *Facts = K.splitFacts(Why);
  std::vector<ExecDevice *> Devices = C.splitDevices();
  // Unsplit. Movable: the kernel itself cannot split (not a launch too small to), so another
  // device may run it whole if measured faster (WholePlacement).
  // Note: the split guard decided it (Settled false: the guard needs its cost before the next
  // decision, so it is not left running).
  auto whole = [&](std::string_view Reason, bool Movable = false,
                   const std::optional<GuardNote> &Note = std::nullopt, bool Settled = true) {
    if (Devices.size() >= 2 && S.Log.enabled(config::LogLevel::Info))
      S.Log.once("unsplit:" + K.name() + ":" + std::string(Reason), config::LogLevel::Info,
                 "kernel ", K.name(), " runs unsplit: ", Reason);
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
      bool Settled = true;
      const std::size_t Chosen =
          K.wholePlacement()->choose(Key, Home.Index, Candidates, Building, Settled);
      // Unsettled, or a device still to come: launches are not queued ahead of the choice (an
      // app on the H200 machine's CPU queued all its launches before the H200's build ended).
      if (!Settled || Building)
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
    return runWhole(K, Request, Home, Reason, Pipeline, Fail, false, Key, Note);
  };
  // Images, samplers and SVM live on the app's device alone: the launch runs there, as natively.
  if (usesAppDeviceObjects(Request.Args) || K.hasExecInfo())
    return whole("it takes an image, a sampler, SVM or a buffer on the app's memory made before "
                 "the split devices opened, which stay on the app's device");
  if (Devices.size() < 2) {
    const bool NotOpenYet = C.plannedSplitDevices().size() >= 2 && !C.splitDevicesOpen();
    if (NotOpenYet && Facts) {
      if (std::optional<cl_int> Chunked = chunkWhileOpening(Q, K, Request, *Facts, Fail))
        return *Chunked;
    } else if (NotOpenYet) {
      K.noteChunkedSecondsPerItem(-1.0); // cannot split: its launches go the direct way
    }
    return whole(NotOpenYet ? std::string_view("the split devices are not open yet (LIBSPLIT_OPEN)")
                            : std::string_view("fewer than two devices"),
                 false, std::nullopt, true);
  }
  if (!Facts)
    return whole(Why, true);

  // The split guard (planner/): whether this kernel's launches split at all, from what splitting
  // and running whole on the app's device cost it so far, at every NDRange size.
  startPlannerTuning(S, Devices);
  const std::shared_ptr<GuardSlot> Guard =
      S.Planner.guarding() ? K.splitGuard(Q.exec().Index) : nullptr;
  const double Work = workItems(Request);
  std::optional<planner::Decision> Plan;
  auto guardedWhole = [&](const planner::Decision &D) {
    if (S.Log.enabled(config::DebugCategory::Split))
      S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": whole on ", Q.exec().Name,
                  " (", D.Why, "; predicted split ",
                  D.PredictedSplit ? std::to_string(*D.PredictedSplit * 1e3) + " ms" : "?",
                  ", whole ",
                  D.PredictedWhole ? std::to_string(*D.PredictedWhole * 1e3) + " ms" : "?", ")");
    return whole(
        "the planner found running it whole cheaper than splitting it (LIBSPLIT_SPLIT=auto)", false,
        GuardNote{Guard, D.Launch, Work}, D.Settled);
  };
  // Devices that share cores (PoCL's two CPU runtimes): the guard runs a first launch whole and
  // prices a split at the whole launch's time whatever its bytes, so a launch it is to price
  // needs no plan (the split devices' canRun, regions and proposal cost a short kernel more than
  // its run).
  const bool SharedCores = shareCores(Devices);
  if (Guard && (Request.Decided || SharedCores || !Guard->needsPrice())) {
    std::optional<planner::PricedBytes> Shared;
    if (SharedCores) {
      Shared = planner::PricedBytes();
      Shared->SharedHardware = true;
    }
    Plan = Request.Decided ? *Request.Decided : Guard->decide(Work, Shared);
    if (Plan->Launch.Run == planner::Mode::Whole)
      return guardedWhole(*Plan);
  }

  LaunchRequest R = Request;
  if (!R.LocalGiven) {
    R.Local = chooseLocalSize(K, R, Devices);
    R.LocalGiven = true;
  }
  // A device that cannot run these work-groups is left out of this launch (logged once).
  std::vector<ExecDevice *> Able;
  for (ExecDevice *D : Devices) {
    std::string Reason;
    if (canRun(K, *D, R, Reason))
      Able.push_back(D);
    else
      S.Log.once("unable:" + K.name() + ":" + D->Name + ":" + Reason, config::LogLevel::Info,
                 "device ", D->Name, " is left out of kernel ", K.name(), ": ", Reason);
  }
  Devices.swap(Able);
  if (Devices.size() < 2)
    return whole("fewer than two devices can run its work-groups", true);

  std::string Unsplittable;
  bool Movable = false;
  const std::optional<SplitShape> Shape = shapeOf(*Facts, R, S.Settings, Unsplittable, Movable);
  if (!Shape) {
    // Too small to split, after split launches: it runs where its data is, and moves only the
    // bytes its regions need (a factorization's last steps, a one-work-group kernel between split
    // ones). The app's own launch with no local size keeps its whole-buffer way: its regions
    // would be those of a local size the implementation may not choose.
    ExecDevice *There =
        Movable ? nullptr : whereDataIs(*Facts, R, Devices, Q.exec(), S.Settings.PeerCopy);
    if (There ||
        (!Movable && Request.LocalGiven && hasRegions(*Facts, R) && !heldWhollyOn(R, Q.exec()))) {
      ExecDevice &Target = There ? *There : Q.exec();
      const std::vector<Slice> Whole{{&Target, 0, R.Global[0] / R.Local[0], 1.0}};
      const std::map<Buffer *, BufferPlan> Plans =
          planBuffers(*Facts, R, Whole, true, ndrangeOf(R), scalarsOf(R), 0);
      Queue *Pipeline = Q.canFinishLater() ? &Q : nullptr;
      K.noteLaunchLeftRunning(Pipeline != nullptr);
      S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": whole on ", Target.Name,
                  " (", Unsplittable, "; the bytes its regions use)");
      return runWhole(K, R, Target, Unsplittable, Pipeline, Fail, There != nullptr, std::string(),
                      std::nullopt, &Plans);
    }
    return whole(Unsplittable, Movable);
  }
  const bool Regions = Shape->Regions;
  const cl_uint Dim = Shape->Dim;
  const size_t Groups = Shape->Groups;
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);

  const balancer::LaunchKey Key = launchKey(K, R, Dim);
  const bool SeparateHardware = !shareCores(Devices);
  std::vector<std::string> Names;
  std::vector<unsigned long> Types;
  for (ExecDevice *D : Devices) {
    Names.push_back(D->Name);
    Types.push_back(D->Type & ~CL_DEVICE_TYPE_DEFAULT);
  }
  // A new NDRange size of a kernel measured on these devices at other sizes starts from their
  // seconds per work-group there (a factorization's trailing block changes size every step).
  if (!S.Balancer.knows(Key, Names)) {
    std::vector<std::size_t> Indices;
    for (const ExecDevice *D : Devices)
      Indices.push_back(D->Index);
    if (std::optional<std::vector<double>> Shares = K.sliceHistory()->shares(Indices))
      S.Balancer.startFrom(Key, std::move(*Shares));
  }
  // A launch the balancer knows nothing of runs in chunks that the devices take while it runs
  // (chunked_launch.hpp), rather than on a first guess of the split.
  const config::ChunkPolicy Chunking = S.Settings.Chunk;
  if (Chunking == config::ChunkPolicy::Always ||
      (Chunking == config::ChunkPolicy::Auto && SeparateHardware && S.Planner.decidesFromCosts() &&
       !S.Balancer.knows(Key, Names) && chunkTakersBeside(Q.exec(), Devices, S.Settings))) {
    if (Guard && !Plan) {
      // Priced as an equal split would be.
      std::vector<Slice> Even;
      for (size_t I = 0; I < Devices.size(); ++I)
        Even.push_back(
            {Devices[I], Groups * I / Devices.size(), Groups * (I + 1) / Devices.size()});
      Plan =
          Guard->decide(Work, priceBytes(planBuffers(*Facts, R, Even, Regions, Range, Scalars, Dim),
                                         Even, Q.exec(), SeparateHardware, S.Settings.PeerCopy));
      if (Plan->Launch.Run == planner::Mode::Whole)
        return guardedWhole(*Plan);
    }
    ExecDevice *Home = std::find(Devices.begin(), Devices.end(), &Q.exec()) != Devices.end()
                           ? &Q.exec()
                           : Devices.front();
    ChunkedLaunch L = chunkedLaunch(Q, K, R, *Facts, *Shape, *Home, Fail, recordOf(K, Request));
    L.Joinable = [&] {
      std::vector<ExecDevice *> Others;
      for (ExecDevice *D : Devices)
        if (D != Home && (L.Forced || takesChunks(*D, *Home, S.Settings)))
          Others.push_back(D);
      return Others;
    };
    L.OpenFor = [](double) { return true; };
    L.MayJoinLater = [] { return false; };
    L.BalancerDevices = [&] { return Devices; };
    if (Plan)
      L.Note = GuardNote{Guard, Plan->Launch, Work};
    L.SeparateHardware = SeparateHardware;
    L.Forced = Chunking == config::ChunkPolicy::Always;
    return runChunked(L);
  }
  // The balancer decides from what it heard: the launches left running before this one report
  // first, except the last one when it holds a split (its devices then have this launch queued
  // before that one ends). Deeper, a held split ran a thousand launches before the balancer
  // heard that one device alone did better.
  const auto Before = S.Balancer.trace(Key);
  const bool Holding = Before && (Before->Next == balancer::KeyState::Converged ||
                                  Before->Next == balancer::KeyState::Single ||
                                  Before->Next == balancer::KeyState::Fixed);
  {
    const ScopedSpan Shown(S.Spans, "earlier launches end");
    Q.finishPending(Holding ? 1 : 0);
  }
  std::optional<ScopedSpan> Planning;
  Planning.emplace(S.Spans, "plan");
  balancer::Split Proposal = S.Balancer.propose(
      Key, Groups, Names, balancer::weightsByKind(Types, Q.exec().Type & ~CL_DEVICE_TYPE_DEFAULT),
      SeparateHardware);

  std::vector<Slice> Slices = slicesOf(Proposal, Devices);
  if (Slices.empty())
    return whole("the balancer gave no device any work-group");

  const auto PlanStart = Clock::now();
  std::map<Buffer *, BufferPlan> Plans =
      planBuffers(*Facts, R, Slices, Regions, Range, Scalars, Dim);
  // A probe that would move more than the run has paid for so far waits; the held split runs.
  if (postponeCostlyProbe(K, S.Balancer, Key, Proposal, R, *Facts, Devices, Dim, Groups, Regions,
                          Range, Scalars, S.Settings.PeerCopy, Slices, Plans))
    Proposal = S.Balancer.propose(
        Key, Groups, Names, balancer::weightsByKind(Types, Q.exec().Type & ~CL_DEVICE_TYPE_DEFAULT),
        SeparateHardware);
  preferCheaperCut(K, R, *Facts, Devices, Dim, Groups, Regions, Range, Scalars, Slices, Plans,
                   std::chrono::duration<double>(Clock::now() - PlanStart).count(),
                   SeparateHardware);
  bool AnyDiffMerge = false, AnyCombine = false;
  for (auto &[Root, P] : Plans) {
    AnyDiffMerge |= P.Merge && P.Combine.empty();
    AnyCombine |= !P.Combine.empty();
  }
  // A kernel's first launch, or one that never split: the guard weighs what the split would move
  // (and, once a whole launch was measured, take) against running whole on the app's device.
  if (Guard && !Plan) {
    Plan = Guard->decide(
        Work, priceBytes(Plans, Slices, Q.exec(), SeparateHardware, S.Settings.PeerCopy));
    if (Plan->Launch.Run == planner::Mode::Whole)
      return guardedWhole(*Plan);
  }
  if (S.Log.enabled(config::DebugCategory::Split)) {
    std::string Text;
    for (const Slice &S : Slices)
      Text += " " + S.Device->Name + "=[" + std::to_string(S.FirstGroup) + "," +
              std::to_string(S.EndGroup) + ")";
    S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": ", Groups,
                " work-groups of dimension ", Dim, (Regions ? "" : ", regions unknown"),
                (atomicsCombined(*Facts, R) ? ", atomics combined" : ""), ":", Text,
                Plan ? " (" + std::string(Plan->Why) + ")" : std::string());
  }

  noteSplitEdges(Plans, Slices.size());
  Planning.reset();
  SplitLaunch L;
  plannedLaunch(L, Q, K, R, *Facts, Dim, Groups, Fail, recordOf(K, Request));
  L.SeparateHardware = SeparateHardware;
  L.Plans = std::move(Plans);
  L.Slices = std::move(Slices);
  L.Devices = Devices;
  L.Proposal = Proposal;
  L.AnyDiffMerge = AnyDiffMerge;
  L.AnyCombine = AnyCombine;
  L.Plan = Plan;
  L.Guard = Guard;
  L.Work = Work;
  return runSplit(L);
}

} // namespace libsplit
