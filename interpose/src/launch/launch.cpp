#include "launch.hpp"

#include "chunked_launch.hpp"
#include "split_launch.hpp"

#include "cut_choice.hpp"
#include "launch_parts.hpp"
#include "launch_plan.hpp"
#include "launch_report.hpp"
#include "opening_chunks.hpp"
#include "owner_cut.hpp"
#include "probe_price.hpp"
#include "whole_launch.hpp"

#include "libsplit/support/text.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

namespace libsplit {

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

bool joinsProbe(Queue &Q, Kernel &K, const LaunchRequest &Request) {
  LaunchServices &S = Q.context().launchServices();
  if (!S.Planner.guarding() || Request.Args.empty())
    return false;
  const std::uint64_t Probes = S.Planner.spreadProbes();
  if (Probes == 0 || Q.context().splitDevices().size() < 2)
    return false;
  const std::shared_ptr<GuardSlot> Guard = K.splitGuard(Q.exec().Index);
  const std::optional<std::uint64_t> Seen = Guard->catchUpSpreadProbes(Probes);
  if (!Seen)
    return false;
  for (const KernelArg &A : Request.Args)
    if (A.What == KernelArg::Kind::Buffer && A.Mem && A.Mem->spreadProbe() > *Seen) {
      Guard->joinProbe();
      S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": joins spread probe ",
                  A.Mem->spreadProbe(), " (of its buffers)");
      return true;
    }
  S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": spread probes ", *Seen, " to ",
              Probes, " spread none of its buffers");
  return false;
}

void withdrawDecision(Queue &Q, Kernel &K, const LaunchRequest &Request) {
  if (Request.Decided && Q.context().launchServices().Planner.guarding())
    K.splitGuard(Q.exec().Index)->withdrawWhole(*Request.Decided, workItems(Request));
}

const char *guardedWholeReason(const planner::Decision &D) {
  if (D.PredictedSplit && D.PredictedWhole)
    return GuardedWholeReason;
  if (!D.PredictedSplit && !D.Launch.First && D.Why == std::string_view(planner::RunsWholeCheaper))
    return NoSplitPricedReason;
  return D.Why;
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

using Clock = std::chrono::steady_clock;

// A launch on its way through executeLaunch's stages: what they share.
struct LaunchScope {
  Queue &Q;
  Kernel &K;
  LaunchRequest &Request; // as the app made it
  LaunchServices &S;
  bool Fail = false;
  std::vector<ExecDevice *> Devices;     // the split devices (those that can run it, once known)
  std::shared_ptr<GuardSlot> Guard;      // the split guard, where the planner guards
  double Work = 0.0;                     // work-items of the whole NDRange
  std::optional<planner::Decision> Plan; // the guard's decision, once made

  cl_int unsplit(std::string_view Reason, bool Movable = false,
                 const std::optional<GuardNote> &Note = std::nullopt, bool Settled = true) {
    return runUnsplit(Q, K, Request, Devices, Fail, Reason, Movable, Note, Settled);
  }
  // Whole on the app's device, as the split guard decided D.
  cl_int guardedWhole(const planner::Decision &D) {
    if (S.Log.enabled(config::DebugCategory::Split))
      S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": whole on ", Q.exec().Name,
                  " (", D.Why, "; predicted split ",
                  D.PredictedSplit ? std::to_string(*D.PredictedSplit * 1e3) + " ms" : "?",
                  ", whole ",
                  D.PredictedWhole ? std::to_string(*D.PredictedWhole * 1e3) + " ms" : "?", ")");
    return unsplit(guardedWholeReason(D), false, GuardNote{Guard, D.Launch, Work}, D.Settled);
  }
};

// A launch too small to split (Why), after split launches: it runs where its data is, and moves
// only the bytes its regions need (a factorization's last steps, a one-work-group kernel between
// split ones). The app's own launch with no local size keeps its whole-buffer way: its regions
// would be those of a local size the implementation may not choose.
cl_int runTooSmall(LaunchScope &L, LaunchRequest &R, const CompiledKernel &Facts,
                   const std::string &Why, bool Movable) {
  ExecDevice *There =
      Movable ? nullptr : whereDataIs(Facts, R, L.Devices, L.Q.exec(), routesOf(L.S.Settings));
  if (There ||
      (!Movable && L.Request.LocalGiven && hasRegions(Facts, R) && !heldWhollyOn(R, L.Q.exec()))) {
    ExecDevice &Target = There ? *There : L.Q.exec();
    const std::vector<Slice> Whole{{&Target, 0, R.Global[0] / R.Local[0], 1.0}};
    const std::map<Buffer *, BufferPlan> Plans =
        planBuffers(Facts, R, Whole, true, ndrangeOf(R), scalarsOf(R), 0);
    Queue *Pipeline = L.Q.canFinishLater() ? &L.Q : nullptr;
    L.K.noteLaunchLeftRunning(Pipeline != nullptr);
    L.S.Log.debug(config::DebugCategory::Split, "kernel ", L.K.name(), ": whole on ", Target.Name,
                  " (", Why, "; the bytes its regions use)");
    return runWhole(L.K, R, Target, Why, Pipeline, L.Fail, There != nullptr, std::string(),
                    std::nullopt, &Plans);
  }
  return L.unsplit(Why, Movable);
}

// A probe that spreads its data (planner::Decision::Spreads): the buffers a device of it lacks
// are marked, so that the kernels sharing them probe with it (joinsProbe). They are marked
// before the count says so: a kernel that sees the count finds them marked.
void markSpreadProbe(LaunchScope &L, const std::map<Buffer *, BufferPlan> &Plans,
                     const std::vector<Slice> &Slices) {
  LaunchPlanner &Planner = L.S.Planner;
  const std::uint64_t Probe = Planner.spreadProbes() + 1;
  std::size_t Spread = 0;
  for (const auto &[Root, P] : Plans)
    for (size_t I = 0; I < Slices.size(); ++I)
      if (Slices[I].Device != &L.Q.exec() &&
          !Root->missingOn(Slices[I].Device->Index, P.Need[I]).empty()) {
        Root->setSpreadProbe(Probe);
        ++Spread;
        break;
      }
  Planner.noteSpreadProbe();
  L.S.Log.debug(config::DebugCategory::Split, "kernel ", L.K.name(), ": spread probe ", Probe,
                " over ", Spread, " of its ", Plans.size(), " buffers");
  if (L.Guard)
    L.Guard->catchUpSpreadProbes(Probe);
}

// The guard's decision for a launch that would run in chunks, where it has not decided yet,
// priced as an equal split would be.
void decideBeforeChunks(LaunchScope &L, const LaunchRequest &R, const CompiledKernel &Facts,
                        const SplitShape &Shape, bool SeparateHardware) {
  const std::vector<ExecDevice *> &Devices = L.Devices;
  if (!L.Guard || L.Plan)
    return;
  std::vector<Slice> Even;
  for (size_t I = 0; I < Devices.size(); ++I)
    Even.push_back(
        {Devices[I], Shape.Groups * I / Devices.size(), Shape.Groups * (I + 1) / Devices.size()});
  L.Plan = L.Guard->decide(
      L.Work,
      priceBytes(planBuffers(Facts, R, Even, Shape.Regions, ndrangeOf(R), scalarsOf(R), Shape.Dim),
                 Even, L.Q.exec(), SeparateHardware, routesOf(L.S.Settings)));
}

// A launch the balancer knows nothing of runs in chunks that the devices take while it runs
// (chunked_launch.hpp), rather than on a first guess of the split.
cl_int runFirstInChunks(LaunchScope &L, const LaunchRequest &R, const CompiledKernel &Facts,
                        const SplitShape &Shape, bool SeparateHardware) {
  const std::vector<ExecDevice *> &Devices = L.Devices;
  ExecDevice *Home = std::find(Devices.begin(), Devices.end(), &L.Q.exec()) != Devices.end()
                         ? &L.Q.exec()
                         : Devices.front();
  ChunkedLaunch C =
      chunkedLaunch(L.Q, L.K, R, Facts, Shape, *Home, L.Fail, recordOf(L.K, L.Request));
  const config::Config &Settings = L.S.Settings;
  C.Forced = Settings.Chunk == config::ChunkPolicy::Always;
  C.Joinable = [&Devices, Home, &Settings, Forced = C.Forced] {
    std::vector<ExecDevice *> Others;
    for (ExecDevice *D : Devices)
      if (D != Home && (Forced || takesChunks(*D, *Home, Settings)))
        Others.push_back(D);
    return Others;
  };
  C.OpenFor = [](double) { return true; };
  C.MayJoinLater = [] { return false; };
  C.BalancerDevices = [&Devices] { return Devices; };
  if (L.Plan)
    C.Note = GuardNote{L.Guard, L.Plan->Launch, L.Work};
  C.SeparateHardware = SeparateHardware;
  return runChunked(C);
}

// The balancer's split of a launch it has heard of (or of any launch where chunks are off),
// planned, priced by the guard where it has not decided yet, and run.
cl_int runBalancedSplit(LaunchScope &L, const LaunchRequest &R, const CompiledKernel &Facts,
                        const SplitShape &Shape, const balancer::LaunchKey &Key,
                        const std::vector<std::string> &Names,
                        const std::vector<unsigned long> &Types, bool SeparateHardware) {
  Queue &Q = L.Q;
  Kernel &K = L.K;
  LaunchServices &S = L.S;
  const std::vector<ExecDevice *> &Devices = L.Devices;
  const bool Regions = Shape.Regions;
  const cl_uint Dim = Shape.Dim;
  const size_t Groups = Shape.Groups;
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);
  // The balancer decides from what it heard: the launches left running before this one report
  // first, except the last one when it holds a split (its devices then have this launch queued
  // before that one ends). Deeper, a held split ran a thousand launches before the balancer
  // heard that one device alone did better.
  const auto Before = S.Balancer.status(Key);
  const bool Holding = Before && (Before->Next == balancer::KeyState::Converged ||
                                  Before->Next == balancer::KeyState::Single ||
                                  Before->Next == balancer::KeyState::Fixed);
  {
    const ScopedSpan Shown(S.Spans, "earlier launches end");
    Q.finishPending(Holding ? 1 : 0);
  }
  std::optional<ScopedSpan> Planning;
  Planning.emplace(S.Spans, "plan");
  auto propose = [&] {
    return S.Balancer.propose(
        Key, Groups, Names, balancer::weightsByKind(Types, Q.exec().Type & ~CL_DEVICE_TYPE_DEFAULT),
        SeparateHardware);
  };
  balancer::Split Proposal = propose();

  std::vector<Slice> Slices = slicesOf(Proposal, Devices);
  if (Slices.empty())
    return L.unsplit("the balancer gave no device any work-group");

  const auto PlanStart = Clock::now();
  std::map<Buffer *, BufferPlan> Plans =
      planBuffers(Facts, R, Slices, Regions, Range, Scalars, Dim);
  auto cutWhereCheaper = [&](std::vector<Slice> &Of, std::map<Buffer *, BufferPlan> &With,
                             const CutChoice &How) {
    return preferCheaperCut(K, R, Facts, Devices, Dim, Groups, Regions, Range, Scalars, Of, With,
                            std::chrono::duration<double>(Clock::now() - PlanStart).count(), How);
  };
  // A probe of one device alone that the owner's cut would replace (its data would move there)
  // is priced against that cut: the balancer postpones it until its probe credit pays for those
  // bytes, and the launch runs what it holds; where the credit covers them (and is charged),
  // the probe runs as proposed.
  bool ProbePriced = false;
  if (Proposal.Purpose == balancer::LaunchPurpose::ProbeSingle) {
    std::vector<Slice> Tried = Slices;
    std::map<Buffer *, BufferPlan> TriedPlans = Plans;
    const double Moves = cutWhereCheaper(Tried, TriedPlans, {SeparateHardware, false, true});
    ProbePriced = Moves > 0.0;
    if (ProbePriced && S.Balancer.postponeProbe(Key, Moves)) {
      Proposal = propose();
      Slices = slicesOf(Proposal, Devices);
      if (Slices.empty())
        return L.unsplit("the balancer gave no device any work-group");
      Plans = planBuffers(Facts, R, Slices, Regions, Range, Scalars, Dim);
    }
  }
  // Any other probe that would move more than the run has paid for so far waits; the held split
  // runs.
  if (!ProbePriced &&
      postponeCostlyProbe(K, S.Balancer, Key, Proposal, R, Facts, Devices, Dim, Groups, Regions,
                          Range, Scalars, routesOf(S.Settings), Slices, Plans))
    Proposal = propose();
  cutWhereCheaper(Slices, Plans,
                  {SeparateHardware, Proposal.Purpose == balancer::LaunchPurpose::ProbeSingle});
  bool AnyDiffMerge = false, AnyCombine = false;
  for (auto &[Root, P] : Plans) {
    AnyDiffMerge |= P.Merge && P.Combine.empty();
    AnyCombine |= !P.Combine.empty();
  }
  // A kernel's first launch, or one that never split: the guard weighs what the split would move
  // (and, once a whole launch was measured, take) against running whole on the app's device.
  if (L.Guard && !L.Plan) {
    L.Plan = L.Guard->decide(
        L.Work, priceBytes(Plans, Slices, Q.exec(), SeparateHardware, routesOf(S.Settings)));
    if (L.Plan->Launch.Run == planner::Mode::Whole)
      return L.guardedWhole(*L.Plan);
  }
  if (S.Log.enabled(config::DebugCategory::Split)) {
    std::string Text;
    for (const Slice &Part : Slices)
      Text += " " + Part.Device->Name + "=[" + std::to_string(Part.FirstGroup) + "," +
              std::to_string(Part.EndGroup) + ")";
    S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(), ": ", Groups,
                " work-groups of dimension ", Dim, (Regions ? "" : ", regions unknown"),
                (atomicsCombined(Facts, R) ? ", atomics combined" : ""), ":", Text,
                L.Plan ? " (" + std::string(L.Plan->Why) + ")" : std::string());
  }

  noteSplitEdges(Plans, Slices.size(), &K);
  if (L.Plan && L.Plan->Spreads)
    markSpreadProbe(L, Plans, Slices);
  Planning.reset();
  SplitLaunch Split;
  plannedLaunch(Split, Q, K, R, Facts, Dim, Groups, L.Fail, recordOf(K, L.Request));
  Split.SeparateHardware = SeparateHardware;
  Split.Plans = std::move(Plans);
  Split.Slices = std::move(Slices);
  Split.Devices = Devices;
  Split.Proposal = Proposal;
  Split.AnyDiffMerge = AnyDiffMerge;
  Split.AnyCombine = AnyCombine;
  Split.Plan = L.Plan;
  Split.Guard = L.Guard;
  Split.Work = L.Work;
  return runSplit(Split);
}

} // namespace

// The stages, in order: reasons to run unsplit (objects of the app's device, split devices not
// open, a kernel that cannot split), the guard's decision where it needs no plan, the devices
// able to run it, its shape (too small: where its data is), then in chunks (nothing known of
// it) or the balancer's split.
cl_int executeLaunch(Queue &Q, Kernel &K, LaunchRequest &Request, Event &Done) {
  if (Request.EventWanted && Done.profiled())
    Request.Reported = Done.shared_from_this();
  Context &C = Q.context();
  LaunchServices &S = C.launchServices();
  std::lock_guard<std::mutex> DataLock(C.dataLock());
  const bool Fail = S.Failures.failThisLaunch();
  // Where the app queues many launches at once, they run long after its calls.
  C.noteLaunch(true);
  LaunchScope L{Q, K, Request, S, Fail, C.splitDevices(), nullptr, 0.0, std::nullopt};

  std::string Why;
  const CompiledKernel *Facts = K.splitFacts(Why);
  // Images, samplers and SVM live on the app's device alone: the launch runs there, as natively.
  if (usesAppDeviceObjects(Request.Args) || K.hasExecInfo())
    return L.unsplit("it takes an image, a sampler, SVM or a buffer on the app's memory made "
                     "before the split devices opened, which stay on the app's device");
  if (L.Devices.size() < 2) {
    const bool NotOpenYet = C.plannedSplitDevices().size() >= 2 && !C.splitDevicesOpen();
    if (NotOpenYet && Facts) {
      if (std::optional<cl_int> Chunked = chunkWhileOpening(Q, K, Request, *Facts, L.Fail))
        return *Chunked;
    } else if (NotOpenYet) {
      K.noteChunkedSecondsPerItem(-1.0); // cannot split: its launches go the direct way
    }
    if (!NotOpenYet)
      return L.unsplit(FewerThanTwoReason);
    // What the summary says of it: how far the run was from opening them.
    return L.unsplit(
        S.Recorder.wanted()
            ? RunRecorder::notOpenYet(C.openAfterSeconds(), C.waitedSeconds(), C.queuedSeconds())
            : RunRecorder::notOpenYet());
  }
  if (!Facts)
    return L.unsplit(Why, true);

  // The split guard (planner/): whether this kernel's launches split at all, from what splitting
  // and running whole on the app's device cost it so far, at every NDRange size.
  startPlannerTuning(S, L.Devices);
  L.Guard = S.Planner.guarding() ? K.splitGuard(Q.exec().Index) : nullptr;
  L.Work = workItems(Request);
  // Its first launch ran in chunks on the app's device while the split devices opened: the
  // guard starts from that time (the launches' own come back only once the device ran all that
  // the app queued ahead of them).
  if (L.Guard)
    if (const double PerItem = K.takeWarmSecondsPerItemOn(Q.exec().Index); PerItem > 0.0)
      L.Guard->startFromWholeTime(L.Work, PerItem * L.Work);
  // Devices that share cores (PoCL's two CPU runtimes): the guard runs a first launch whole and
  // prices a split at the whole launch's time whatever its bytes, so a launch it is to price
  // needs no plan (the split devices' canRun, regions and proposal cost a short kernel more than
  // its run).
  const bool SharedCores = shareCores(L.Devices);
  // Decided whole at the app's call (settled, unmeasured), but run by the queue's executor after
  // another kernel's probe spread data this launch shares (joinsProbe), or after launches since
  // which its guard plans a split (a joined probe, its repeat, a split chosen): an app that
  // queues a second ahead had decided hundreds of launches before the probe ran. Decided again
  // now, the first decision taken back. Not on an app thread: a launch admitted there as a
  // whole one must stay whole (queue.cpp).
  if (Q.onExecutor() && !SharedCores && L.Guard && Request.Decided &&
      Request.Decided->Launch.Run == planner::Mode::Whole && Request.Decided->Settled &&
      !Request.Decided->Launch.Measured && (joinsProbe(Q, K, Request) || L.Guard->plansSplit())) {
    S.Log.debug(config::DebugCategory::Split, "kernel ", K.name(),
                ": decided whole at the call, decided again as it runs");
    L.Guard->withdrawWhole(*Request.Decided, L.Work);
    Request.Decided.reset();
  } else if (!SharedCores && L.Guard && !Request.Decided) {
    // Priced here, not at the call: a probe that spread this launch's buffers since the call
    // (queued before it) is joined now; at the call it had not been planned yet.
    joinsProbe(Q, K, Request);
  }
  if (L.Guard && (Request.Decided || SharedCores || !L.Guard->needsPrice())) {
    std::optional<planner::PricedBytes> Shared;
    if (SharedCores) {
      Shared = planner::PricedBytes();
      Shared->SharedHardware = true;
    }
    L.Plan = Request.Decided ? *Request.Decided : L.Guard->decide(L.Work, Shared);
    if (L.Plan->Launch.Run == planner::Mode::Whole)
      return L.guardedWhole(*L.Plan);
  }

  LaunchRequest R = Request;
  if (!R.LocalGiven) {
    R.Local = chooseLocalSize(K, R, L.Devices);
    R.LocalGiven = true;
  }
  // A device that cannot run these work-groups is left out of this launch (logged once).
  std::vector<ExecDevice *> Able;
  for (ExecDevice *D : L.Devices) {
    std::string Reason;
    if (canRun(K, *D, R, Reason))
      Able.push_back(D);
    else
      S.Log.once("unable:" + K.name() + ":" + D->Name + ":" + Reason, config::LogLevel::Info,
                 "device ", D->Name, " is left out of kernel ", K.name(), ": ", Reason);
  }
  L.Devices.swap(Able);
  if (L.Devices.size() < 2)
    return L.unsplit("fewer than two devices can run its work-groups", true);

  std::string Unsplittable;
  bool Movable = false;
  const std::optional<SplitShape> Shape = shapeOf(*Facts, R, S.Settings, Unsplittable, Movable);
  if (!Shape)
    return runTooSmall(L, R, *Facts, Unsplittable, Movable);

  const balancer::LaunchKey Key = launchKey(K, R, Shape->Dim);
  const bool SeparateHardware = !shareCores(L.Devices);
  std::vector<std::string> Names;
  std::vector<unsigned long> Types;
  for (ExecDevice *D : L.Devices) {
    Names.push_back(D->Name);
    Types.push_back(D->Type & ~CL_DEVICE_TYPE_DEFAULT);
  }
  // A new NDRange size of a kernel measured on these devices at other sizes starts from their
  // seconds per work-group there (a factorization's trailing block changes size every step).
  if (!S.Balancer.knows(Key, Names)) {
    std::vector<std::size_t> Indices;
    for (const ExecDevice *D : L.Devices)
      Indices.push_back(D->Index);
    if (std::optional<std::vector<double>> Shares = K.sliceHistory()->shares(Indices))
      S.Balancer.startFrom(Key, std::move(*Shares));
  }
  const config::ChunkPolicy Chunking = S.Settings.Chunk;
  if (Chunking == config::ChunkPolicy::Always ||
      (Chunking == config::ChunkPolicy::Auto && SeparateHardware && S.Planner.decidesFromCosts() &&
       !S.Balancer.knows(Key, Names) && chunkTakersBeside(Q.exec(), L.Devices, S.Settings))) {
    decideBeforeChunks(L, R, *Facts, *Shape, SeparateHardware);
    if (L.Plan && L.Plan->Launch.Run == planner::Mode::Whole)
      return L.guardedWhole(*L.Plan);
    // A probe that spreads the data, or joins one that did, is a split of its own
    // (planner::Decision::Spreads, Joined).
    if (!L.Plan || !(L.Plan->Spreads || L.Plan->Joined))
      return runFirstInChunks(L, R, *Facts, *Shape, SeparateHardware);
  }
  return runBalancedSplit(L, R, *Facts, *Shape, Key, Names, Types, SeparateHardware);
}

} // namespace libsplit
