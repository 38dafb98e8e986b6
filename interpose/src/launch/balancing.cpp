#include "balancing.hpp"

#include <filesystem>
#include <unistd.h>

namespace libsplit {

namespace {

balancer::BalancerConfig configFromControls(const config::Config &C) {
  balancer::BalancerConfig B;
  switch (C.Balancer) {
  case config::BalancerKind::Uniform:
    B.Kind = balancer::Strategy::Uniform;
    break;
  case config::BalancerKind::Static:
    B.Kind = balancer::Strategy::Static;
    // Resolved against the devices at the first launch.
    B.StaticShares = C.Static.Names.empty() ? C.Static.Values : std::vector<double>();
    break;
  case config::BalancerKind::FixedPoint:
    B.Kind = balancer::Strategy::FixedPoint;
    break;
  case config::BalancerKind::Broyden:
    B.Kind = balancer::Strategy::Broyden;
    break;
  }
  return B;
}

// The app's identity for tuning files: its executable path (a rebuilt app keeps its tuning).
std::string applicationName() {
  char Path[4096];
  const ssize_t Length = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (Length <= 0)
    return "unknown";
  std::string Name(Path, static_cast<size_t>(Length));
  for (char &C : Name)
    if (C == '/')
      C = '_';
  return Name;
}

} // namespace

std::string tuningDirectory(const config::Config &Settings) {
  if (Settings.Tuning == config::TuningMode::Off || Settings.CacheDir.empty())
    return "";
  return Settings.CacheDir + "/tuning/" + applicationName();
}

LaunchBalancer::LaunchBalancer(const config::Config &Settings, config::Logger &Log)
    : Settings(Settings), Log(Log), Engine(configFromControls(Settings)) {}

bool LaunchBalancer::knows(const balancer::LaunchKey &Key,
                           const std::vector<std::string> &DeviceNames) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!TuningStarted)
    startTuning(DeviceNames);
  return Engine.knows(Key);
}

void LaunchBalancer::startFrom(const balancer::LaunchKey &Key, std::vector<double> Shares) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Engine.knows(Key))
    Engine.seed({{Key, std::move(Shares)}});
}

balancer::Split LaunchBalancer::propose(const balancer::LaunchKey &Key, std::uint64_t Groups,
                                        const std::vector<std::string> &DeviceNames,
                                        const std::vector<double> &FirstWeights,
                                        bool SeparateHardware) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!StaticResolved && Engine.config().Kind == balancer::Strategy::Static) {
    StaticResolved = true;
    balancer::BalancerConfig Resolved = Engine.config();
    const std::string Problem =
        config::resolveShares(Settings.Static, DeviceNames, Resolved.StaticShares);
    if (!Problem.empty()) {
      std::string Devices;
      for (const std::string &Name : DeviceNames)
        Devices += (Devices.empty() ? "" : ", ") + Name;
      Log.error("LIBSPLIT_STATIC: ", Problem, " (devices in order: ", Devices,
                "; give one share per device, or name=share with a part of each device's "
                "name); using the default balancer (broyden)");
      Resolved = balancer::BalancerConfig();
    }
    Engine = balancer::Balancer(Resolved);
  }
  if (!TuningStarted)
    startTuning(DeviceNames);
  return Engine.propose(
      Key, Groups, DeviceNames.size(),
      Settings.FirstSplit == config::FirstSplitMode::ByType ? FirstWeights : std::vector<double>(),
      SeparateHardware);
}

std::vector<double> LaunchBalancer::simulatedShares(const std::vector<std::string> &DeviceNames) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Settings.SimulatedShares.empty())
    return {};
  if (!SimulatedResolved) {
    SimulatedResolved = true;
    const std::string Problem =
        config::resolveShares(Settings.SimulatedShares, DeviceNames, Simulated);
    if (!Problem.empty()) {
      Simulated.clear();
      Log.error("LIBSPLIT_SIMULATED_SHARES: ", Problem, "; the measured times are used instead");
    }
  }
  return Simulated.size() == DeviceNames.size() ? Simulated : std::vector<double>();
}

void LaunchBalancer::observe(const balancer::LaunchKey &Key,
                             const std::vector<balancer::DeviceMeasurement> &Measurements,
                             bool ChosenByCaller) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const balancer::ObserveStatus Status = Engine.observe(Key, Measurements, ChosenByCaller);
  if (Status != balancer::ObserveStatus::Accepted)
    Log.debug(config::DebugCategory::Balance, "balancer ignored a measurement of ",
              balancer::describe(Key), " (status ", static_cast<int>(Status), ")");
}

bool LaunchBalancer::postponeProbe(const balancer::LaunchKey &Key, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Settings.SimulatedShares.empty())
    return false;
  const bool Postponed = Engine.postponeProbe(Key, Seconds);
  if (Postponed)
    Log.debug(config::DebugCategory::Balance, "probe of ", balancer::describe(Key),
              " postponed: it would move ", Seconds * 1e3,
              " ms of data beyond the held split, more than its probe budget so far");
  return Postponed;
}

std::optional<balancer::KeyTrace> LaunchBalancer::trace(const balancer::LaunchKey &Key) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Engine.trace(Key);
}

std::optional<balancer::KeyStatus> LaunchBalancer::status(const balancer::LaunchKey &Key) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Engine.status(Key);
}

void LaunchBalancer::startTuning(const std::vector<std::string> &DeviceNames) {
  TuningStarted = true;
  TuningDirectory = tuningDirectory(Settings);
  if (TuningDirectory.empty())
    return;
  for (const std::string &Name : DeviceNames)
    DeviceSignature += Name + ";";
  balancer::WarmStartLoad Loaded = balancer::loadWarmStart(TuningDirectory, DeviceSignature);
  if (!Loaded.Error.empty())
    Log.info("tuning file ignored: ", Loaded.Error);
  if (!Loaded.Records.empty()) {
    Engine.seed(Loaded.Records);
    Log.info("warm start: ", Loaded.Records.size(), " saved splits from ", TuningDirectory);
  }
}

void LaunchBalancer::saveTuning() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!TuningStarted || TuningDirectory.empty() || Settings.Tuning != config::TuningMode::Save)
    return;
  const auto Records = Engine.warmStartRecords();
  if (Records.empty())
    return;
  std::error_code Ignored;
  std::filesystem::create_directories(TuningDirectory, Ignored);
  const std::string Error = balancer::saveWarmStart(TuningDirectory, DeviceSignature, Records);
  if (!Error.empty())
    Log.warn("cannot save the tuning: ", Error);
}

} // namespace libsplit
