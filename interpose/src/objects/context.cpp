#include "context.hpp"
#include "escaped_error.hpp"
#include "link_probe.hpp"
#include "loader_frames.hpp"
#include "thread_name.hpp"

#include "buffer.hpp"
#include "kernel.hpp"
#include "launch.hpp"
#include "launch_parts.hpp"
#include "queue.hpp"

#include "libsplit/balancer/split.hpp"
#include "libsplit/planner/device_choice.hpp"
#include "libsplit/planner/open_wait.hpp"
#include "libsplit/planner/warm_start.hpp"

#include "libsplit/support/text.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <system_error>
#include <utility>

namespace libsplit {

namespace {

std::string realDeviceName(const RealApi &Real, cl_device_id Device) {
  size_t Size = 0;
  if (Real.clGetDeviceInfo(Device, CL_DEVICE_NAME, 0, nullptr, &Size) != CL_SUCCESS)
    return "?";
  std::string Name(Size, '\0');
  Real.clGetDeviceInfo(Device, CL_DEVICE_NAME, Size, Name.data(), nullptr);
  while (!Name.empty() && Name.back() == '\0')
    Name.pop_back();
  return Name;
}

cl_platform_id realPlatformOf(const RealApi &Real, cl_device_id Device) {
  cl_platform_id Platform = nullptr;
  Real.clGetDeviceInfo(Device, CL_DEVICE_PLATFORM, sizeof(Platform), &Platform, nullptr);
  return Platform;
}

std::string realPlatformName(const RealApi &Real, cl_platform_id Platform) {
  char Name[256] = {};
  Real.clGetPlatformInfo(Platform, CL_PLATFORM_NAME, sizeof(Name) - 1, Name, nullptr);
  return Name;
}

// The app's properties with libsplit's platform handle replaced by the real one.
std::vector<cl_context_properties> realProperties(const cl_context_properties *Properties) {
  std::vector<cl_context_properties> Real;
  for (const cl_context_properties *P = Properties; P && *P; P += 2) {
    cl_context_properties Value = P[1];
    if (P[0] == CL_CONTEXT_PLATFORM)
      if (Platform *Ours = asPlatform(reinterpret_cast<cl_platform_id>(Value)))
        Value = reinterpret_cast<cl_context_properties>(Ours->real());
    Real.push_back(P[0]);
    Real.push_back(Value);
  }
  Real.push_back(0);
  return Real;
}

} // namespace

Context::Context(ContextServices &Services, std::vector<Device *> AppDevices,
                 std::vector<cl_context_properties> Properties)
    : AppDevices(std::move(AppDevices)), Properties(std::move(Properties)), Services(Services) {
  initHandle(*this, HandleMagic::Context);
}

cl_int Context::initialize(const cl_context_properties *AppProperties, Notify Callback,
                           void *UserData) {
  const RealApi &Real = Services.Real;

  // The app's devices get a real context now, with the app's own properties, so that invalid
  // properties fail exactly as they would natively; the split devices beyond them get theirs
  // when the context opens them (openSplitDevices).
  const cl_platform_id AppPlatform = AppDevices.front()->platform().real();
  const std::vector<cl_context_properties> Props = realProperties(AppProperties);
  std::vector<cl_device_id> AppIds;
  for (Device *D : AppDevices)
    AppIds.push_back(D->real());
  cl_int Error = CL_SUCCESS;
  const auto CreateStart = std::chrono::steady_clock::now();
  cl_context AppContext = Real.clCreateContext(Props.data(), static_cast<cl_uint>(AppIds.size()),
                                               AppIds.data(), Callback, UserData, &Error);
  if (!AppContext)
    return Error;
  const double CreateSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - CreateStart).count();
  RealContexts.emplace(AppPlatform, AppContext);

  // Execution devices: the app's own first (so [0] is the primary), then the split devices
  // (asked for once the app's real context is made: the other platforms' devices are found
  // meanwhile, DeviceDiscovery).
  struct Wanted {
    cl_device_id Real;
    Device *Visible;
    bool Splits;
  };
  std::vector<Wanted> Devices;
  // None where nothing splits (LIBSPLIT_DISABLE, no loader): the app's devices alone.
  const std::vector<cl_device_id> Split =
      Services.Devices.splitDevicesFor(AppDevices.front()->platform());
  for (Device *D : AppDevices) {
    const bool Splits = std::find(Split.begin(), Split.end(), D->real()) != Split.end();
    Devices.push_back({D->real(), D, Splits});
  }
  for (cl_device_id D : Split)
    if (std::none_of(Devices.begin(), Devices.end(),
                     [&](const Wanted &W) { return W.Real == D; })) {
      cl_device_id Root = D;
      cl_device_id Parent = nullptr;
      if (Real.clGetDeviceInfo(D, CL_DEVICE_PARENT_DEVICE, sizeof(Parent), &Parent, nullptr) ==
              CL_SUCCESS &&
          Parent)
        Root = Parent;
      Device *Visible = Services.Devices.findRootDevice(AppDevices.front()->platform(), Root);
      Devices.push_back({D, Visible ? Visible : Services.Devices.findRootDevice(Root), true});
    }

  // The devices' own kernel times feed the balancer, the trace, the timeline and the summary;
  // nothing else needs them, and a profiling queue costs NVIDIA's driver at every command: it
  // nearly doubled what each launch with an event costs, and a solver's short launches and
  // transfers, none of them timed, ran slower on it. An app's device keeps a plain queue, with a
  // profiling twin for the kernels timed (TimingQueue), unless a diagnostic times every launch.
  const config::Config &Settings = Services.Launch.Settings;
  const auto Splitting =
      std::count_if(Devices.begin(), Devices.end(), [](const Wanted &W) { return W.Splits; });
  const bool Diagnosing = Settings.Summary || !Settings.Trace.empty() || !Settings.Timeline.empty();
  RealQueueProperties = Splitting >= 2 || Diagnosing ? CL_QUEUE_PROFILING_ENABLE : 0;
  const cl_command_queue_properties AppQueueProperties = Diagnosing ? CL_QUEUE_PROFILING_ENABLE : 0;
  for (const Wanted &W : Devices) {
    auto Exec = std::make_unique<ExecDevice>();
    Exec->Index = this->Exec.size();
    Exec->Owner = this;
    Exec->Name = realDeviceName(Real, W.Real);
    Exec->Model = Exec->Name;
    Exec->Real = W.Real;
    Exec->Visible = W.Visible;
    Exec->Splits = W.Splits;
    Real.clGetDeviceInfo(W.Real, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t),
                         &Exec->MaxWorkGroupSize, nullptr);
    Exec->MaxWorkItemSizes.assign(3, 1);
    Real.clGetDeviceInfo(W.Real, CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * sizeof(size_t),
                         Exec->MaxWorkItemSizes.data(), nullptr);
    Real.clGetDeviceInfo(W.Real, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong), &Exec->LocalMemSize,
                         nullptr);
    Real.clGetDeviceInfo(W.Real, CL_DEVICE_TYPE, sizeof(cl_device_type), &Exec->Type, nullptr);
    Real.clGetDeviceInfo(W.Real, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint), &Exec->ComputeUnits,
                         nullptr);
    char Version[512] = {};
    unsigned Major = 1, Minor = 0;
    Real.clGetDeviceInfo(W.Real, CL_DEVICE_VERSION, sizeof(Version) - 1, Version, nullptr);
    std::sscanf(Version, "OpenCL %u.%u", &Major, &Minor);
    Exec->Version = 10 * Major + Minor;
    Exec->KernelEnqueueLock = &Services.EnqueueLocks.of(W.Real);
    if (std::find(AppIds.begin(), AppIds.end(), W.Real) != AppIds.end()) {
      Exec->RealContext = AppContext;
      // A twin queue needs OpenCL 1.2's markers and barriers to keep the order of the two.
      const bool Twin = RealQueueProperties != AppQueueProperties && Exec->Version >= 12;
      Exec->RealQueue = Real.clCreateCommandQueue(
          AppContext, W.Real, Twin ? AppQueueProperties : RealQueueProperties, &Error);
      if (!Exec->RealQueue)
        return Error;
      if (Twin) {
        Exec->TimingQueue =
            Real.clCreateCommandQueue(AppContext, W.Real, RealQueueProperties, &Error);
        // Without its twin, the device's own queue profiles, as where it needs none.
        if (!Exec->TimingQueue) {
          Real.clReleaseCommandQueue(Exec->RealQueue);
          Exec->RealQueue =
              Real.clCreateCommandQueue(AppContext, W.Real, RealQueueProperties, &Error);
          if (!Exec->RealQueue)
            return Error;
        }
      }
      Exec->Worker = std::make_unique<DeviceWorker>();
      Exec->Ready.store(true, std::memory_order_release);
    }
    this->Exec.push_back(std::move(Exec));
  }
  // Two H200s, or two sub-devices, have one name: the trace, the timeline's tracks and the
  // summary tell them apart by a number.
  std::map<std::string, unsigned> Seen;
  for (auto &E : Exec)
    ++Seen[E->Name];
  std::map<std::string, unsigned> Numbered;
  for (auto &E : Exec)
    if (Seen[E->Name] > 1)
      E->Name += " #" + std::to_string(++Numbered[E->Name]);
  // With every device selected (LIBSPLIT_DEVICES=all, the default) and the planner deciding, a
  // device of another kind than the app's beside a peer of the app's kind is left closed
  // (planner::openedByDefault); a selection that names it opens it. (Where the app's platform
  // has such a peer for each of its devices, the other platforms' were not even asked for:
  // DeviceDiscovery::splitDevicesFor.)
  LaunchPlanner &Planner = Services.Launch.Planner;
  if (DeviceDiscovery::choosesByDefault(Settings)) {
    std::vector<planner::DeviceKind> Kinds;
    for (const auto &E : Exec)
      Kinds.push_back(DeviceDiscovery::kindOf(E->Type, E.get() == &primary()));
    const std::vector<bool> Opened = planner::openedByDefault(Kinds);
    for (std::size_t I = 0; I < Exec.size(); ++I)
      if (Exec[I]->Splits && !Opened[I]) {
        Exec[I]->Splits = false;
        Services.Launch.Log.once(
            "not-opened:" + Exec[I]->Name, config::LogLevel::Info, "device ", Exec[I]->Name,
            " is not split across: another device of the app's device's kind is (name it in "
            "LIBSPLIT_DEVICES, as gpu,cpu, to use it too)");
      }
  }
  // A single splitting device is no split: everything then runs on the primary.
  for (auto &E : Exec)
    if (E->Splits)
      SplitExec.push_back(E.get());
  if (SplitExec.size() < 2) {
    for (auto &E : Exec)
      E->Splits = false;
    SplitExec.clear();
  }
  // Opening a device costs about what opening the app's did, at the start and again at the
  // end (its context's release): a run shorter than a few times that never pays for it. Modes
  // that split every launch (tests, fixed shares) need the devices from the first launch.
  const bool SplitsEveryLaunch = !Planner.decidesFromCosts();
  const bool AllOpen = std::all_of(SplitExec.begin(), SplitExec.end(), [](const ExecDevice *E) {
    return E->Ready.load(std::memory_order_relaxed);
  });
  // PoCL (5.0) deadlocks when a context of its platform is created while another thread runs a
  // command of the app's context on it (its basic device, every time: e2e.whole-placement).
  // NVIDIA's driver creates one beside launches without holding them up: a new context of the
  // app's platform is made on the thread of the launch that opens it, with nothing running,
  // unless the platform is NVIDIA's.
  OpenInBackground = std::none_of(SplitExec.begin(), SplitExec.end(), [&](const ExecDevice *E) {
    return !E->Ready.load(std::memory_order_relaxed) &&
           realPlatformOf(Real, E->Real) == AppPlatform &&
           realPlatformName(Real, AppPlatform).find("NVIDIA") == std::string::npos;
  });
  std::size_t ToOpen = 0;
  bool OwnPlatformOnly = true;
  for (const ExecDevice *E : SplitExec)
    if (!E->Ready.load(std::memory_order_relaxed)) {
      ++ToOpen;
      OwnPlatformOnly &= realPlatformOf(Real, E->Real) == AppPlatform;
    }
  OpenAfterSeconds =
      Settings.Open.What == config::OpenPolicy::When::After
          ? Settings.Open.Seconds
          : planner::openWaitFactor(OpenInBackground, OwnPlatformOnly, ToOpen) * CreateSeconds;
  const bool OpenNow = AllOpen || SplitsEveryLaunch ||
                       Settings.Chunk == config::ChunkPolicy::Always ||
                       Settings.Open.What == config::OpenPolicy::When::Now;
  config::Logger &Log = Services.Launch.Log;
  Log.debug(config::DebugCategory::Split, "the app's context took ",
            support::formatFixed(CreateSeconds * 1e3, 1), " ms: split devices open ",
            OpenNow ? std::string("now")
                    : "once the app has waited " + support::formatFixed(OpenAfterSeconds, 3) +
                          " s for its device");
  if (OpenNow) {
    OpeningStarted = true;
    openSplitDevicesGuarded();
    return CL_SUCCESS;
  }
  // An earlier run of the app settled on splitting a kernel, or waited for its device long
  // enough: they open now, in the background where the platform allows (its program builds and
  // launches wait for them: awaitOpening).
  startPlannerTuning(Services.Launch, SplitExec);
  const std::size_t AppIndex = primary().Index;
  const bool SavedSplit = Planner.savedSplitFrom(AppIndex);
  const planner::SavedWait Saved = Planner.savedWaitFrom(AppIndex);
  const double SavedWait = Saved.Seconds;
  QueuedOpens = planner::queuedWorkOpens(Saved, OpenAfterSeconds);
  if (!QueuedOpens)
    Log.debug(config::DebugCategory::Split, "an earlier run's launches queued ",
              support::formatFixed(Saved.Queued, 3),
              " s: the split devices open for the app's waits alone");
  FirstLaunchesInChunks = !planner::stayedShortOfOpening(Saved, OpenAfterSeconds, SavedSplit);
  if (!FirstLaunchesInChunks)
    Log.debug(config::DebugCategory::Split, "an earlier run waited ",
              support::formatFixed(SavedWait, 3), " s over ", std::to_string(Saved.Launches),
              " launches and opened no split device: first launches run as natively, not in "
              "chunks");
  const double SavedWaitPays = Settings.Open.What == config::OpenPolicy::When::After
                                   ? OpenAfterSeconds
                                   : planner::openAtCreationWaitFactor() * CreateSeconds;
  const bool WaitPays = planner::earlierWaitOpensAtCreation(Saved, CreateSeconds, SavedWaitPays,
                                                            shareCores(SplitExec));
  if (Settings.Open.automatic() && !SplitExec.empty() && (SavedSplit || WaitPays)) {
    Log.debug(config::DebugCategory::Split, "opening the split devices now: ",
              SavedSplit
                  ? std::string("an earlier run settled on splitting")
                  : "an earlier run waited " + support::formatFixed(SavedWait, 3) +
                        " s for its device over " + std::to_string(Saved.Launches) + " launches");
    if (!SavedSplit)
      Planner.noteOpenedForWait(AppIndex);
    OpeningStarted = true;
    // Under the dynamic loader (a context made in a library's constructor, during dlopen), a
    // thread of libsplit's whose vendor loads a library would wait for the lock the app's thread
    // holds, and the app's builds for that thread.
    if (!OpenInBackground || mayRunUnderLoader()) {
      openSplitDevicesGuarded();
      return CL_SUCCESS;
    }
    AwaitOpening = true;
    openInBackground();
  }
  return CL_SUCCESS;
}

double Context::waitedSeconds() const {
  std::int64_t Ns = WaitedNs.load(std::memory_order_relaxed);
  for (const auto &E : Exec)
    Ns += E->RanInEnqueueNs.load(std::memory_order_relaxed);
  return static_cast<double>(Ns) * 1e-9;
}

void Context::awaitOpening() {
  if (!AwaitOpening || Opened.load(std::memory_order_acquire))
    return;
  std::unique_lock<std::mutex> Lock(OpenMutex);
  OpenedChanged.wait(Lock, [this] { return Opened.load(std::memory_order_acquire); });
}

void Context::noteWaited(std::int64_t Ns) {
  WaitedNs.fetch_add(Ns, std::memory_order_relaxed);
  if (!SplitExec.empty())
    Services.Launch.Planner.noteWaited(primary().Index, waitedSeconds(),
                                       Launches.load(std::memory_order_relaxed));
}

void Context::considerOpening(bool HoldingDataLock) {
  const double Waited = waitedSeconds();
  if (Waited < OpenAfterSeconds || OpeningStarted.exchange(true))
    return;
  Services.Launch.Log.debug(config::DebugCategory::Split,
                            "opening the split devices: the app has waited ",
                            support::formatFixed(Waited, 3), " s for its device");
  if (!OpenInBackground) {
    // Nothing may run on the open devices meanwhile: no command that touches buffers (they
    // hold the data lock), no kernel (each enqueue holds its device's lock), nothing queued.
    std::unique_lock<std::mutex> DataLock(DataMutex, std::defer_lock);
    if (!HoldingDataLock)
      DataLock.lock();
    std::vector<std::unique_lock<std::mutex>> Enqueues;
    for (auto &E : Exec)
      if (E->Ready.load(std::memory_order_acquire)) {
        Enqueues.emplace_back(*E->KernelEnqueueLock);
        awaitRealQueue(*E);
      }
    openSplitDevicesGuarded();
    return;
  }
  openInBackground();
}

bool Context::chunksWhileOpening() const {
  const LaunchServices &Launch = Services.Launch;
  // And a device beside the app's that takes chunks: none, a CPU beside a GPU app, and no launch
  // runs in chunks (the app's clBuildProgram would build the partition-ready program for none).
  return Launch.Settings.Chunk == config::ChunkPolicy::Auto && Launch.Planner.decidesFromCosts() &&
         FirstLaunchesInChunks && SplitExec.size() >= 2 && !shareCores(SplitExec) &&
         OpenInBackground && chunkTakersBeside(*Exec.front(), SplitExec, Launch.Settings);
}

bool Context::openForLongLaunch(double PredictedSeconds) {
  if (OpeningStarted.load(std::memory_order_relaxed))
    return true;
  if (!OpenInBackground || SplitExec.empty() || PredictedSeconds < OpenAfterSeconds ||
      !Services.Launch.Settings.Open.automatic() || OpeningStarted.exchange(true))
    return OpeningStarted.load(std::memory_order_relaxed);
  Services.Launch.Log.debug(config::DebugCategory::Split,
                            "opening the split devices: a launch is predicted to take ",
                            support::formatFixed(PredictedSeconds, 3), " s");
  openInBackground();
  return true;
}

bool Context::queuedWorkOpens() const {
  return Services.Launch.Settings.Open.What == config::OpenPolicy::When::Auto && OpenInBackground &&
         !SplitExec.empty();
}

void Context::caughtUp(Queue &Waited) {
  if (!queuedWorkOpens() || LiveQueues.load(std::memory_order_relaxed) != 1 ||
      !Waited.canFinishLater() || !Waited.idle())
    return;
  const double Now =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::lock_guard<std::mutex> Lock(OpenMutex);
  Ahead.caughtUp(Now);
}

void Context::noteQueued(double PredictedSeconds, bool MayHold) {
  if (!queuedWorkOpens())
    return;
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point T) {
    return std::chrono::duration<double>(T.time_since_epoch()).count();
  };
  std::unique_lock<std::mutex> Lock(OpenMutex);
  const double Now = seconds(Clock::now());
  Ahead.queued(Now, PredictedSeconds);
  if (QueuedOpens)
    QueuedSeconds.store(Ahead.total(), std::memory_order_relaxed);
  // The work the app queued, every kernel's, is the run so far and run time to come, certain: a
  // spread may count it rather than its own kernel's launches alone (a first run of a stencil
  // that queues every launch and waits once at its end is otherwise over before the spread its
  // kernels share fits the budget of one of them). Saved at exit (the next run's QueuedOpens).
  if (OpeningStarted.load(std::memory_order_relaxed) || Ahead.total() >= OpenAfterSeconds)
    Services.Launch.Planner.creditQueuedWork(primary().Index, Ahead.total());
  if (Opened.load(std::memory_order_acquire))
    return;
  if (Ahead.total() >= OpenAfterSeconds && QueuedOpens && !OpeningStarted.exchange(true)) {
    Services.Launch.Log.debug(config::DebugCategory::Split,
                              "opening the split devices: the launches queued are predicted to "
                              "take ",
                              support::formatFixed(Ahead.total(), 3), " s");
    Lock.unlock();
    openInBackground();
    Lock.lock();
  }
  if (!MayHold || !OpeningStarted.load(std::memory_order_relaxed) ||
      Opened.load(std::memory_order_acquire))
    return;
  // Not counted as the app's waiting: libsplit's own hold would drive the next run's opening
  // (the warm start saves the waiting).
  const auto Until = Clock::time_point(std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(Ahead.holdUntil(seconds(Clock::now())))));
  OpenedChanged.wait_until(Lock, Until, [this] { return Opened.load(std::memory_order_acquire); });
}

void Context::openInBackground() {
  Services.Background.started();
  try {
    Opener = std::thread([this] {
      nameThisThread("libsplit-open");
      openSplitDevicesGuarded();
      Services.Background.done();
    });
  } catch (const std::system_error &) {
    // No thread to be had (threads or address space exhausted): opened here, and the
    // background work it counted ends, so that nothing waits for it at exit.
    openSplitDevicesGuarded();
    Services.Background.done();
  }
}

void Context::openSplitDevicesGuarded() {
  try {
    openSplitDevices();
  } catch (...) {
    // Host memory exhausted while opening: the devices opened so far stay out, nothing of this
    // context splits, and whoever waits for the opening hears that it ended.
    escapedError(&Services.Launch.Log, "opening the split devices");
    OpenSplit.clear();
    {
      std::lock_guard<std::mutex> Lock(OpenMutex);
      Opened.store(true, std::memory_order_release);
    }
    OpenedChanged.notify_all();
  }
}

void Context::openSplitDevices() {
  const RealApi &Real = Services.Real;
  config::Logger &Log = Services.Launch.Log;
  std::map<cl_platform_id, std::vector<ExecDevice *>> ByPlatform;
  for (ExecDevice *E : SplitExec)
    if (!E->Ready.load(std::memory_order_acquire))
      ByPlatform[realPlatformOf(Real, E->Real)].push_back(E);
  for (auto &[Platform, Closed] : ByPlatform) {
    std::vector<cl_device_id> Ids;
    for (const ExecDevice *E : Closed)
      Ids.push_back(E->Real);
    const cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(Platform), 0};
    cl_int Error = CL_SUCCESS;
    cl_context RealContext = Real.clCreateContext(Props, static_cast<cl_uint>(Ids.size()),
                                                  Ids.data(), nullptr, nullptr, &Error);
    if (!RealContext) {
      Log.warn("cannot create a context on platform of " + Closed.front()->Name + " (error " +
               std::to_string(Error) + "); its devices are not used");
      continue;
    }
    OpenedContexts.push_back(RealContext);
    for (ExecDevice *E : Closed) {
      E->RealContext = RealContext;
      E->RealQueue = Real.clCreateCommandQueue(RealContext, E->Real, RealQueueProperties, &Error);
      if (!E->RealQueue) {
        Log.warn("cannot create a queue on " + E->Name + " (error " + std::to_string(Error) +
                 "); it is not used");
        continue;
      }
      E->Worker = std::make_unique<DeviceWorker>();
      // Before any launch can use it: the probe's transfers have the queue to themselves.
      if (Services.Launch.Settings.Relay && (E->Type & CL_DEVICE_TYPE_GPU)) {
        probePageLockedLink(Services.Launch.Backend, *E);
        if (const double Rate = E->PageLockedBytesPerSecond.load(std::memory_order_relaxed))
          Log.info(E->Name, ": page-locked transfers at ", Rate / 1e9, " GB/s (relays priced so)");
      }
      E->Ready.store(true, std::memory_order_release);
    }
  }
  for (ExecDevice *E : SplitExec)
    if (E->Ready.load(std::memory_order_acquire))
      OpenSplit.push_back(E);
  if (OpenSplit.size() < 2)
    OpenSplit.clear();
  {
    std::lock_guard<std::mutex> Lock(OpenMutex);
    Opened.store(true, std::memory_order_release);
  }
  OpenedChanged.notify_all();
}

void Context::watchHostMemory(const std::shared_ptr<Buffer> &B) {
  {
    std::lock_guard<std::mutex> Lock(WatchedMutex);
    Watched.push_back(B);
    AnyWatched = true;
  }
  std::lock_guard<std::mutex> DataLock(DataMutex);
  B->snapshotHostMemory();
}

void Context::absorbHostChanges(const std::vector<KernelArg> &Args) {
  if (!AnyWatched.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> DataLock(DataMutex);
  for (const KernelArg &A : Args)
    if (A.What == KernelArg::Kind::Buffer && A.Mem)
      A.Mem->absorbHostChanges();
}

void Context::absorbHostChanges(Buffer &B) {
  if (!AnyWatched.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> DataLock(DataMutex);
  B.absorbHostChanges();
}

void Context::refreshHostMemory() {
  if (!AnyWatched.load(std::memory_order_relaxed))
    return;
  std::vector<std::shared_ptr<Buffer>> Live;
  {
    std::lock_guard<std::mutex> Lock(WatchedMutex);
    std::vector<std::weak_ptr<Buffer>> Kept;
    for (const std::weak_ptr<Buffer> &W : Watched)
      if (std::shared_ptr<Buffer> B = W.lock()) {
        Live.push_back(std::move(B));
        Kept.push_back(W);
      }
    Watched = std::move(Kept);
    AnyWatched = !Watched.empty();
  }
  std::lock_guard<std::mutex> DataLock(DataMutex);
  for (const std::shared_ptr<Buffer> &B : Live) {
    const RangeSet Whole(0, B->size());
    // Nothing to bring (its bytes are the app's own, as with inputs): the app's writes since the
    // last comparison wait for the next command that uses the buffer, which compares anyway;
    // the copy stays as it is, armed again.
    if (B->missingOnHost(Whole).empty()) {
      const RangeSet Nothing;
      B->snapshotHostMemory(&Nothing);
      continue;
    }
    // What the app wrote there since it last synchronized, and no command used, comes first.
    B->absorbHostChanges();
    const RangeSet Brought = B->missingOnHost(Whole);
    if (cl_int Error = B->fetchToHost(Whole); Error != CL_SUCCESS)
      Services.Launch.Log.warn("could not bring a CL_MEM_USE_HOST_PTR buffer's data to the app's "
                               "memory (error ",
                               Error, ")");
    else
      B->snapshotHostMemory(&Brought);
  }
}

HostUpload Context::uploadAtWrite(ExecDevice &AppDevice) {
  switch (Services.Launch.Settings.Upload) {
  case config::UploadMode::AtWrite:
    return {&AppDevice, false};
  case config::UploadMode::AtLaunch:
    return {};
  case config::UploadMode::Auto:
    break;
  }
  // The app's device expected to take most of the work (the only device: unsplit launches run
  // on it; or more than half of the first split) gets everything, as natively. Otherwise (two
  // GPUs of one kind) each device gets its expected part, all at once: sending one of them
  // everything would cost more than each fetching its half, and fetching at the first launch
  // would put the move inside the app's kernel time, where natively the data is already there.
  const std::vector<ExecDevice *> Split = splitDevices();
  if (Split.size() < 2)
    return {&AppDevice, false};
  const std::vector<double> Weights = firstSplitWeights(AppDevice);
  double Mine = 0.0, Sum = 0.0;
  for (std::size_t I = 0; I < Split.size() && I < Weights.size(); ++I) {
    Sum += Weights[I];
    if (Split[I] == &AppDevice)
      Mine = Weights[I];
  }
  if (Mine > 0.5 * Sum)
    return {&AppDevice, false};
  // The planner may run a kernel whole on the app's device (and does, on its first launch, when a
  // split would move more than that): it then needs everything there, as natively. A write
  // straight from the app's memory goes there alone (Buffer::write); bytes libsplit holds on the
  // host also go to the other devices' expected parts at the call.
  if (Services.Launch.Planner.guarding())
    return {&AppDevice, true};
  return {nullptr, true};
}

std::vector<double> Context::firstSplitWeights(const ExecDevice &AppDevice) {
  const std::vector<ExecDevice *> Split = splitDevices();
  if (Services.Launch.Settings.FirstSplit != config::FirstSplitMode::ByType)
    return std::vector<double>(Split.size(), 1.0);
  std::vector<unsigned long> Kinds;
  for (const ExecDevice *D : Split)
    Kinds.push_back(D->Type & ~CL_DEVICE_TYPE_DEFAULT);
  return balancer::weightsByKind(Kinds, AppDevice.Type & ~CL_DEVICE_TYPE_DEFAULT);
}

Context::~Context() {
  if (Opener.joinable())
    Opener.join();
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend(); ++It)
    It->first(this, It->second);
  const RealApi &Real = Services.Real;
  for (auto &E : Exec) {
    E->Worker.reset(); // finish and join before the queue goes away
    if (E->RealQueue) {
      Services.Memory.Backend.releaseStaging(E->RealQueue);
      Real.clReleaseCommandQueue(E->RealQueue);
    }
    if (E->TimingQueue)
      Real.clReleaseCommandQueue(E->TimingQueue);
  }
  for (auto &[Platform, RealContext] : RealContexts)
    Real.clReleaseContext(RealContext);
  for (cl_context RealContext : OpenedContexts)
    Real.clReleaseContext(RealContext);
}

ExecDevice *Context::execFor(const Device *AppDevice) {
  if (std::find(AppDevices.begin(), AppDevices.end(), AppDevice) == AppDevices.end())
    return nullptr;
  for (auto &E : Exec)
    if (E->Visible == AppDevice && E->Real == AppDevice->real())
      return E.get();
  return nullptr;
}

void Context::addDestructorCallback(void(CL_CALLBACK *Callback)(cl_context, void *),
                                    void *UserData) {
  DestructorCallbacks.emplace_back(Callback, UserData);
}

void Context::appQueueMade(ExecDevice &Device, bool Profiles) {
  // Before the app's first queue nothing was queued on either (every command needs a queue).
  // Under the data lock: another app thread making a queue meanwhile waits for the change before
  // it can use its queue.
  std::lock_guard<std::mutex> DataLock(dataLock());
  if (HadQueue.exchange(true) || !Profiles || !Device.TimingQueue)
    return;
  Services.Memory.Backend.releaseStaging(Device.RealQueue);
  Services.Real.clReleaseCommandQueue(Device.RealQueue);
  Device.RealQueue = std::exchange(Device.TimingQueue, nullptr);
}

bool shareCores(const std::vector<ExecDevice *> &Devices) {
  return std::count_if(Devices.begin(), Devices.end(),
                       [](const ExecDevice *D) { return (D->Type & CL_DEVICE_TYPE_CPU) != 0; }) > 1;
}

void onlyThreadOn(ExecDevice &Device, const std::function<void()> &Call) {
  // Learnt only from launches that ask for an event: a GPU not known yet is not held (its
  // worker held through the wait would hold the app's direct launches meanwhile).
  const int RunsInEnqueue = Device.KernelRunsInEnqueue.load(std::memory_order_relaxed);
  const bool MayRunHere =
      RunsInEnqueue == 1 || (RunsInEnqueue < 0 && (Device.Type & CL_DEVICE_TYPE_CPU) != 0);
  if (!MayRunHere || !Device.Worker) {
    Call();
    return;
  }
  Device.Worker->runHere(Call);
}

Context *asContext(cl_context Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Context))
    return nullptr;
  return static_cast<Context *>(Handle);
}

} // namespace libsplit
