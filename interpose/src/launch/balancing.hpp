// The runtime's side of the balancer: one Balancer for the process (its state is per launch
// key), behind a lock, configured from LIBSPLIT_BALANCER / LIBSPLIT_STATIC, with warm start
// from and to LIBSPLIT_CACHE_DIR (LIBSPLIT_TUNING).
#pragma once

#include "config/config.hpp"
#include "config/log.hpp"
#include "libsplit/balancer/balancer.hpp"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace libsplit {

// Where the app's tuning lives (LIBSPLIT_CACHE_DIR/tuning/<the executable's path>), or "" when
// LIBSPLIT_TUNING=off or there is no cache directory: the balancer's and the planner's warm
// starts.
std::string tuningDirectory(const config::Config &Settings);

class LaunchBalancer {
public:
  LaunchBalancer(const config::Config &Settings, config::Logger &Log);

  // Shares of the next launch of Key over DeviceNames (the split devices, in order);
  // FirstWeights guesses their relative speeds for a key never measured (firstWeights).
  balancer::Split propose(const balancer::LaunchKey &Key, std::uint64_t Groups,
                          const std::vector<std::string> &DeviceNames,
                          const std::vector<double> &FirstWeights, bool SeparateHardware);
  void observe(const balancer::LaunchKey &Key,
               const std::vector<balancer::DeviceMeasurement> &Measurements,
               bool ChosenByCaller = false);
  // Balancer::postponeProbe; a probe is never postponed while LIBSPLIT_SIMULATED_SHARES replaces
  // the measured times (its transfers are free there).
  bool postponeProbe(const balancer::LaunchKey &Key, double Seconds);
  std::optional<balancer::KeyTrace> trace(const balancer::LaunchKey &Key);
  std::optional<balancer::KeyStatus> status(const balancer::LaunchKey &Key);
  // Whether anything is known of Key over DeviceNames: launches of it, or saved shares (the
  // saved tuning loads first, as at a propose).
  bool knows(const balancer::LaunchKey &Key, const std::vector<std::string> &DeviceNames);
  // The first split of Key's next launches, where none is known (a launch run in chunks
  // measured the devices' rates): Shares per device, in the order of their propose.
  void startFrom(const balancer::LaunchKey &Key, std::vector<double> Shares);

  // LIBSPLIT_SIMULATED_SHARES resolved over DeviceNames (the split devices, in order): the
  // speeds of the devices whose times replace the measured ones; empty when unset or when it
  // names devices that are not there (said once).
  std::vector<double> simulatedShares(const std::vector<std::string> &DeviceNames);

  // Writes converged shares for the next run (LIBSPLIT_TUNING=save); called at exit.
  void saveTuning();

private:
  void startTuning(const std::vector<std::string> &DeviceNames);

  const config::Config &Settings;
  config::Logger &Log;
  std::mutex Mutex;
  balancer::Balancer Engine;
  bool StaticResolved = false;
  bool SimulatedResolved = false;
  std::vector<double> Simulated;
  bool TuningStarted = false;
  std::string DeviceSignature;
  std::string TuningDirectory;
};

} // namespace libsplit
