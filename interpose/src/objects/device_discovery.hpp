// Every platform's root devices, as the app sees them, and the devices a split launch may use
// (LIBSPLIT_DEVICES, LIBSPLIT_SUBDEVICES). The platforms are listed at once; their devices are
// found in a background thread, so that an app on one platform does not wait for another's
// devices to start: asked for its devices, PoCL starts its CPU device's worker threads, which an
// app on NVIDIA's platform waited for natively only where it asked PoCL too. A caller that needs
// one platform's devices finds them itself where the background thread has not yet; one that
// needs the split devices, or a device of any platform, waits for all of them and for the
// selection of the split devices (LIBSPLIT_DEVICES, LIBSPLIT_SUBDEVICES), done in the background.
#pragma once

#include "platform.hpp"
#include "real_api.hpp"

#include "config/config.hpp"
#include "config/log.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace libsplit {

class DeviceDiscovery {
public:
  DeviceDiscovery(const RealApi &Real, const config::Config &Settings, config::Logger &Log);
  DeviceDiscovery(const DeviceDiscovery &) = delete;
  DeviceDiscovery &operator=(const DeviceDiscovery &) = delete;
  ~DeviceDiscovery();

  // Lists the platforms here, then finds their devices and selects the split devices: in a
  // background thread where InBackground (here where it cannot start).
  void start(bool InBackground);
  // Waits for the background thread (at exit: before the vendors' libraries tear down).
  void awaitAll();

  // The platforms, in the real order; their devices may not be found yet.
  const std::vector<std::unique_ptr<Platform>> &platforms() const { return Platforms; }
  // Platform's root devices, in the real order (found here where not yet; with
  // LIBSPLIT_SUBDEVICES, once every platform's are found and partitioned).
  const std::vector<Device *> &devicesOf(Platform &Which);
  // The root device whose real device is Real: of Platform (found here where not yet), or of
  // any platform (waits for all). Null where none.
  Device *findRootDevice(Platform &Which, cl_device_id Real);
  Device *findRootDevice(cl_device_id Real);
  // The devices a split launch may use, as real ids: none where nothing splits. Waits for all.
  const std::vector<cl_device_id> &splitDevices();

private:
  struct Found {
    std::mutex Mutex;
    std::atomic<bool> Done{false};
    std::vector<std::shared_ptr<Device>> Owned; // the platform's Devices, kept alive
  };
  void findDevices(std::size_t Index);
  void findAll();
  void awaitFound(); // every platform's devices
  void selectSplitDevices();

  const RealApi &Real;
  const config::Config &Settings;
  config::Logger &Log;
  std::vector<std::unique_ptr<Platform>> Platforms;
  std::vector<std::unique_ptr<Found>> PerPlatform; // parallel to Platforms
  std::vector<cl_device_id> SplitDevices;          // once AllDone
  std::mutex AllMutex;
  std::condition_variable AllFound;
  bool AllDone = false; // AllMutex
  std::thread Finder;
};

} // namespace libsplit
