#include "device_discovery.hpp"
#include "planning.hpp"
#include "thread_name.hpp"

#include <pthread.h>

#include <system_error>

namespace libsplit {

namespace {

// The instance whose background thread a fork() must not leave half done (one per process: the
// runtime's; the last started, in unit tests).
std::atomic<DeviceDiscovery *> Forking{nullptr};

config::DeviceType deviceTypeOf(cl_device_type Type) {
  if (Type & CL_DEVICE_TYPE_GPU)
    return config::DeviceType::Gpu;
  if (Type & CL_DEVICE_TYPE_CPU)
    return config::DeviceType::Cpu;
  return config::DeviceType::Other;
}

} // namespace

DeviceDiscovery::DeviceDiscovery(const RealApi &Real, const config::Config &Settings,
                                 config::Logger &Log, std::function<void()> AfterFinding,
                                 DiscoveryWaits Waits)
    : Real(Real), Settings(Settings), Log(Log), AfterFinding(std::move(AfterFinding)),
      Waits(std::move(Waits)) {}

DeviceDiscovery::~DeviceDiscovery() {
  awaitAll();
  DeviceDiscovery *Self = this;
  Forking.compare_exchange_strong(Self, nullptr);
}

planner::DeviceKind DeviceDiscovery::kindOf(cl_device_type Type, bool App) {
  const cl_device_type KindMask =
      CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  return {static_cast<unsigned long>(Type & KindMask), App, (Type & CL_DEVICE_TYPE_CPU) != 0};
}

bool DeviceDiscovery::choosesByDefault(const config::Config &Settings) {
  const std::vector<config::DeviceSelector> &Items = Settings.Devices.Items;
  return Items.size() == 1 && Items.front().What == config::DeviceSelector::Kind::All &&
         LaunchPlanner::decidesFromCosts(Settings) && Settings.Open.automatic() &&
         Settings.Chunk != config::ChunkPolicy::Always;
}

void DeviceDiscovery::start(bool Background) {
  InBackground = Background;
  cl_uint Count = 0;
  if (Real.clGetPlatformIDs(0, nullptr, &Count) == CL_SUCCESS && Count) {
    std::vector<cl_platform_id> Ids(Count);
    Real.clGetPlatformIDs(Count, Ids.data(), nullptr);
    for (cl_platform_id Id : Ids) {
      Platforms.push_back(std::make_unique<Platform>(Id));
      PerPlatform.push_back(std::make_unique<Found>());
    }
  }
  Forking.store(this);
  static std::once_flag AtFork;
  std::call_once(AtFork, [] {
    pthread_atfork(
        [] {
          if (DeviceDiscovery *D = Forking.load())
            D->beforeFork();
        },
        nullptr,
        [] {
          if (DeviceDiscovery *D = Forking.load())
            D->afterForkInChild();
        });
  });
}

void DeviceDiscovery::beforeFork() {
  // A child would inherit the thread's state half done, without the thread: it ends first.
  bool Started = false;
  {
    std::lock_guard<std::mutex> Lock(AllMutex);
    Started = OthersStarted && Finder.get_id() != std::this_thread::get_id();
  }
  if (Started)
    awaitFound();
}

void DeviceDiscovery::afterForkInChild() { ChildOfFork = true; }

void DeviceDiscovery::findOthers() {
  {
    std::lock_guard<std::mutex> Lock(AllMutex);
    if (OthersStarted)
      return;
  }
  // Under the loader (a library's constructor, maybe during dlopen) the vendors are asked here:
  // a thread of libsplit's asking them would wait for the loader's lock that this one may hold,
  // and this one for it. (Told before the lock: the walk of the stack takes the loader's own.)
  const bool Here = !InBackground || Waits.UnderLoader();
  {
    std::lock_guard<std::mutex> Lock(AllMutex);
    if (OthersStarted)
      return;
    OthersStarted = true;
    if (!Here && !Closing) {
      try {
        Finder = std::thread([this] {
          nameThisThread("libsplit-devices");
          findAll();
        });
        return;
      } catch (const std::system_error &) {
        // No thread to be had: found here instead.
      }
    }
  }
  findAll();
}

void DeviceDiscovery::awaitAll() {
  std::thread Running;
  {
    std::lock_guard<std::mutex> Lock(AllMutex);
    Closing = true; // from now on, found on the calling thread
    // A forked child has the object of the parent's thread, not the thread: never joined.
    if (ChildOfFork || Finder.get_id() == std::this_thread::get_id())
      return;
    Running = std::move(Finder);
  }
  if (Running.joinable())
    Running.join();
}

void DeviceDiscovery::findAll() {
  for (std::size_t I = 0; I < Platforms.size(); ++I)
    findDevices(I);
  selectSplitDevices();
  {
    std::lock_guard<std::mutex> Lock(AllMutex);
    AllDone = true;
  }
  AllFound.notify_all();
}

void DeviceDiscovery::findDevices(std::size_t Index) {
  Found &State = *PerPlatform[Index];
  if (State.Done.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> Lock(State.Mutex);
  if (State.Done.load(std::memory_order_relaxed))
    return;
  Platform &P = *Platforms[Index];
  cl_uint NumDevices = 0;
  if (Real.clGetDeviceIDs(P.real(), CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices) == CL_SUCCESS &&
      NumDevices) {
    std::vector<cl_device_id> Devices(NumDevices);
    Real.clGetDeviceIDs(P.real(), CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(), nullptr);
    for (cl_device_id D : Devices) {
      auto Ours = Device::create(Real, P, D, nullptr);
      P.Devices.push_back(Ours.get());
      State.Owned.push_back(std::move(Ours));
    }
  }
  State.Done.store(true, std::memory_order_release);
  if (AfterFinding)
    AfterFinding();
}

void DeviceDiscovery::awaitFound() {
  findOthers();
  std::unique_lock<std::mutex> Lock(AllMutex);
  AllFound.wait(Lock, [this] { return AllDone; });
}

bool DeviceDiscovery::awaitFoundBounded() {
  findOthers();
  {
    std::lock_guard<std::mutex> Lock(AllMutex);
    if (AllDone)
      return true;
  }
  // Under the loader, a thread started earlier may be waiting for the lock this one holds.
  const std::chrono::milliseconds Bound =
      Waits.UnderLoader() ? Waits.UnderLoaderBound : Waits.Bound;
  std::unique_lock<std::mutex> Lock(AllMutex);
  if (AllFound.wait_for(Lock, Bound, [this] { return AllDone; }))
    return true;
  Lock.unlock();
  for (std::size_t I = 0; I < Platforms.size(); ++I)
    if (!platformFound(I))
      Log.once("platform-late:" + std::to_string(I), config::LogLevel::Warn, "platform ", I,
               "'s devices were not found within ", Bound.count(),
               " ms: a context made meanwhile splits without them",
               Bound == Waits.UnderLoaderBound
                   ? " (made in a library's constructor: the vendor may wait for the loader's "
                     "lock it holds)"
                   : "");
  return false;
}

bool DeviceDiscovery::platformFound(std::size_t Index) const {
  return PerPlatform[Index]->Done.load(std::memory_order_acquire);
}

std::size_t DeviceDiscovery::indexOf(const Platform &Which) const {
  for (std::size_t I = 0; I < Platforms.size(); ++I)
    if (Platforms[I].get() == &Which)
      return I;
  return Platforms.size();
}

bool DeviceDiscovery::suffices(std::size_t Index) {
  if (!choosesByDefault(Settings) || Settings.Subdevices > 1)
    return false;
  findDevices(Index);
  std::vector<planner::DeviceKind> Kinds;
  for (const Device *D : Platforms[Index]->Devices)
    Kinds.push_back(kindOf(D->Type, false));
  return planner::platformSuffices(Kinds);
}

const std::vector<Device *> &DeviceDiscovery::devicesOf(Platform &Which) {
  // LIBSPLIT_SUBDEVICES partitions a device in the background: before the app has any device,
  // so that no call of the app's meets it.
  if (Settings.Subdevices > 1) {
    awaitFound();
    return Which.Devices;
  }
  const std::size_t Index = indexOf(Which);
  if (Index < Platforms.size()) {
    findDevices(Index);
    // The app may use this platform: the others' devices, where they may join it, start now,
    // while it makes its context.
    if (!suffices(Index))
      findOthers();
  }
  return Which.Devices;
}

Device *DeviceDiscovery::findRootDevice(Platform &Which, cl_device_id RealId) {
  for (Device *D : devicesOf(Which))
    if (D->real() == RealId)
      return D;
  return nullptr;
}

Device *DeviceDiscovery::findRootDevice(cl_device_id RealId) {
  // A platform still being found is not read meanwhile (its list grows on the finder's thread).
  for (std::size_t I = 0; I < Platforms.size(); ++I)
    if (platformFound(I))
      for (Device *D : Platforms[I]->Devices)
        if (D->real() == RealId)
          return D;
  if (!awaitFoundBounded())
    return nullptr;
  return libsplit::findRootDevice(Platforms, RealId);
}

std::vector<cl_device_id> DeviceDiscovery::splitDevicesFor(Platform &AppPlatform) {
  const std::size_t Index = indexOf(AppPlatform);
  if (Index < Platforms.size() && suffices(Index)) {
    Log.once("platform-suffices:" + std::to_string(Index), config::LogLevel::Info,
             "the other platforms' devices are not asked for: platform ", Index,
             " has a peer for each of its devices (name them in LIBSPLIT_DEVICES to use them)");
    std::vector<cl_device_id> Own;
    for (const Device *D : AppPlatform.Devices)
      Own.push_back(D->real());
    return Own;
  }
  // Sub-devices are partitioned once, with every platform found (devicesOf waited for them).
  if (Settings.Subdevices > 1) {
    awaitFound();
    return SplitDevices;
  }
  if (awaitFoundBounded())
    return SplitDevices;
  return selectedAmongFound();
}

bool DeviceDiscovery::selected(unsigned PI, unsigned DI) const {
  const Device &D = *Platforms[PI]->Devices[DI];
  return Settings.Devices.matches(PI, DI, deviceTypeOf(D.Type), D.Name);
}

std::vector<cl_device_id> DeviceDiscovery::selectedAmongFound() const {
  std::vector<cl_device_id> Among;
  for (unsigned PI = 0; PI < Platforms.size(); ++PI)
    if (platformFound(PI))
      for (unsigned DI = 0; DI < Platforms[PI]->Devices.size(); ++DI)
        if (selected(PI, DI))
          Among.push_back(Platforms[PI]->Devices[DI]->real());
  return Among;
}

void DeviceDiscovery::selectSplitDevices() {
  for (unsigned PI = 0; PI < Platforms.size(); ++PI)
    for (unsigned DI = 0; DI < Platforms[PI]->Devices.size(); ++DI) {
      Device &D = *Platforms[PI]->Devices[DI];
      if (!selected(PI, DI))
        continue;
      const unsigned Parts = Settings.Subdevices;
      if (Parts > 1 && (D.Type & CL_DEVICE_TYPE_CPU)) {
        if (D.ComputeUnits >= Parts) {
          const cl_device_partition_property Props[] = {
              CL_DEVICE_PARTITION_EQUALLY,
              static_cast<cl_device_partition_property>(D.ComputeUnits / Parts), 0};
          std::vector<cl_device_id> Subs(Parts);
          cl_uint Made = 0;
          if (Real.clCreateSubDevices(D.real(), Props, Parts, Subs.data(), &Made) == CL_SUCCESS &&
              Made >= 2) {
            Subs.resize(Made);
            SplitDevices.insert(SplitDevices.end(), Subs.begin(), Subs.end());
            Log.info("device ", PI, ":", DI, " (", D.Name, ") partitioned into ", Made,
                     " sub-devices");
            continue;
          }
        }
        Log.warn("LIBSPLIT_SUBDEVICES=", Parts, ": device ", PI, ":", DI, " (", D.Name, ", ",
                 D.ComputeUnits, " compute units) cannot be partitioned; used whole");
      }
      SplitDevices.push_back(D.real());
    }
  if (SplitDevices.empty())
    Log.warn("LIBSPLIT_DEVICES selects no device; kernels run unsplit on the app's device");
}

} // namespace libsplit
