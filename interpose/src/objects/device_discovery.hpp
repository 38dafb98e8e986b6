// Every platform's root devices, as the app sees them, and the devices a split launch may use
// (LIBSPLIT_DEVICES, LIBSPLIT_SUBDEVICES). Asked for its devices, PoCL starts its CPU device,
// which costs a process about 20 ms that an app on NVIDIA's platform paid natively only where it
// asked PoCL too. So the platforms are listed at once, and a platform's devices are found when
// the app first asks about them; then the other platforms' devices are found in a background
// thread, unless the app's platform holds every split device it opens by default
// (planner::platformSuffices: two GPUs), where they are never asked for. A caller that needs one
// platform's devices finds them itself where the background thread has not yet; one that needs
// a device of any platform, or the split devices of every platform, waits for all of them (a
// context: for a while, then it splits across those found).
#pragma once

#include "loader_frames.hpp"
#include "platform.hpp"
#include "real_api.hpp"

#include "config/config.hpp"
#include "config/log.hpp"
#include "libsplit/planner/device_choice.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace libsplit {

// How long a context waits for the other platforms' devices, and how it tells that it runs under
// the dynamic loader. A vendor asked for its devices on another thread may wait for the loader's
// lock (PoCL loads its device drivers then), which an app's thread holds while it runs a
// library's constructor during dlopen. Under the loader the vendors are asked on the calling
// thread, and a context waits at most UnderLoaderBound for a thread started before; anywhere else
// at most Bound, far beyond a vendor's usual start: a hang unforeseen here costs a context that
// long, and the devices not found by then, not the app. What remains: a thread started before
// the loader's section, waiting for that lock inside a vendor, holds the vendor's own locks, and
// an app's thread that calls that vendor under the loader then waits for it as well (natively,
// with no such thread, it would not); so does a constructor that hands its OpenCL work to a
// thread of its own and joins it, which no stack tells.
struct DiscoveryWaits {
  std::chrono::milliseconds Bound{10000};
  std::chrono::milliseconds UnderLoaderBound{100};
  std::function<bool()> UnderLoader = mayRunUnderLoader;
};

class DeviceDiscovery {
public:
  // AfterFinding runs once a platform's devices are found (on the thread that found them): the
  // vendor may have registered its own exit work meanwhile, which the runtime's must come before.
  DeviceDiscovery(const RealApi &Real, const config::Config &Settings, config::Logger &Log,
                  std::function<void()> AfterFinding = {}, DiscoveryWaits Waits = {});
  DeviceDiscovery(const DeviceDiscovery &) = delete;
  DeviceDiscovery &operator=(const DeviceDiscovery &) = delete;
  ~DeviceDiscovery();

  // Whether the split devices are chosen by default (LIBSPLIT_DEVICES=all, the planner deciding
  // from costs, the devices opening when it pays): planner::openedByDefault decides which open.
  static bool choosesByDefault(const config::Config &Settings);
  // A device's kind as planner::openedByDefault compares them.
  static planner::DeviceKind kindOf(cl_device_type Type, bool App);

  // Lists the platforms. Their devices are found later, where InBackground in a thread of their
  // own (here where it cannot start).
  void start(bool InBackground);
  // Waits for the background thread (at exit: before the vendors' libraries tear down); devices
  // asked for later are found on the calling thread.
  void awaitAll();

  // The platforms, in the real order; their devices may not be found yet.
  const std::vector<std::unique_ptr<Platform>> &platforms() const { return Platforms; }
  // Platform's root devices, in the real order (found here where not yet; with
  // LIBSPLIT_SUBDEVICES, once every platform's are found and partitioned).
  const std::vector<Device *> &devicesOf(Platform &Which);
  // The root device whose real device is Real: of Platform (found here where not yet), or of
  // any platform (waits for every platform, as splitDevicesFor does, only where no platform
  // found so far has it). Null where none.
  Device *findRootDevice(Platform &Which, cl_device_id Real);
  Device *findRootDevice(cl_device_id Real);
  // The devices a split launch of an app on AppPlatform may use, as real ids: its platform's
  // where that suffices (no other platform asked), else every platform's selected ones (waits
  // for all, as DiscoveryWaits says: then the selected ones of the platforms found). None where
  // nothing splits.
  std::vector<cl_device_id> splitDevicesFor(Platform &AppPlatform);

private:
  struct Found {
    std::mutex Mutex;
    std::atomic<bool> Done{false};
    std::vector<std::shared_ptr<Device>> Owned; // the platform's Devices, kept alive
  };
  std::size_t indexOf(const Platform &Which) const;
  void findDevices(std::size_t Index);
  // Whether Platform (found) holds every split device of an app on it (platformSuffices).
  bool suffices(std::size_t Index);
  // Finds every platform's devices (once), in the background where it can.
  void findOthers();
  void findAll();
  void awaitFound(); // every platform's devices
  // Waits for every platform's devices as DiscoveryWaits says; false where some are not found.
  bool awaitFoundBounded();
  bool platformFound(std::size_t Index) const;
  bool selected(unsigned PlatformIndex, unsigned DeviceIndex) const;
  void selectSplitDevices();
  // The selected devices of the platforms found so far (no sub-devices).
  std::vector<cl_device_id> selectedAmongFound() const;
  // fork(): the parent lets the background thread end first; the child has no such thread.
  void beforeFork();
  void afterForkInChild();

  const RealApi &Real;
  const config::Config &Settings;
  config::Logger &Log;
  std::function<void()> AfterFinding;
  DiscoveryWaits Waits;
  bool InBackground = true;
  std::vector<std::unique_ptr<Platform>> Platforms;
  std::vector<std::unique_ptr<Found>> PerPlatform; // parallel to Platforms
  std::vector<cl_device_id> SplitDevices;          // once AllDone
  std::mutex AllMutex;
  std::condition_variable AllFound;
  bool AllDone = false;       // AllMutex
  bool OthersStarted = false; // AllMutex
  bool Closing = false;       // AllMutex: awaitAll was called
  bool ChildOfFork = false;   // set in a forked child, its one thread then
  std::thread Finder;         // AllMutex
};

} // namespace libsplit
