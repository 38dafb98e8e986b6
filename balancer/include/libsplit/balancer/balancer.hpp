//===- balancer.hpp - Adaptive split of one NDRange across devices -------===//
//
// At each launch the runtime asks for a split (propose), runs it, then reports what each device
// took (observe). The balancer keeps state per LaunchKey and changes the split launch after
// launch until all devices finish together, then holds it.
//
// Thread safety: none inside. A Balancer must not be used from two threads at once; the runtime
// serializes calls (it already holds its launch lock while splitting). Distinct Balancer objects
// share nothing and may be used concurrently.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/balancer/config.hpp"
#include "libsplit/balancer/key_trace.hpp"
#include "libsplit/balancer/launch_key.hpp"
#include "libsplit/balancer/measurement.hpp"
#include "libsplit/balancer/split.hpp"
#include "libsplit/balancer/warm_start.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace libsplit::balancer {

class KeyBalancer;

enum class ObserveStatus {
  Accepted,
  UnknownKey, // no propose for this key yet: nothing to compare with
  Mismatch,   // not the split the last propose returned: the costs are kept, no step is taken
  Malformed,  // wrong device count, groups not summing to the NDRange, negative or NaN times
};

class Balancer {
public:
  explicit Balancer(BalancerConfig Config = {});
  ~Balancer();
  Balancer(Balancer &&) noexcept;
  Balancer &operator=(Balancer &&) noexcept;
  Balancer(const Balancer &) = delete;
  Balancer &operator=(const Balancer &) = delete;

  // The split for the next launch of Key. Calling it again without observe returns the same
  // split. A new NumGroups or DeviceCount for a known key restarts that key.
  // FirstWeights (one per device, or empty) is the caller's guess of the devices' relative
  // speeds: the adaptive strategies start a key from it when no warm start is seeded for it,
  // else from equal shares. A device whose first share rounds to no work-group starts dropped.
  // SeparateHardware: the devices share no hardware (two GPUs, a GPU and a CPU; not two CPU
  // runtimes on the same cores), so a device's kernel cost per work-group at the split predicts
  // its time alone, and a device that would clearly lose alone is never probed alone (moving
  // every byte to it is what such a probe costs most when the kernel is memory-bound).
  Split propose(const LaunchKey &Key, std::uint64_t NumGroups, std::size_t DeviceCount,
                const std::vector<double> &FirstWeights = {}, bool SeparateHardware = false);

  // The caller's price of the probe that the last propose of Key returned: Seconds, what running
  // it would cost beyond the held split (its data moved there and back). Within the key's probe
  // credit (Config.ProbeBudget of every launch's time so far, less the probes it paid for) the
  // probe stays and its price is spent; beyond, it is postponed until enough launches add that
  // credit, and the next propose returns the held split. Returns whether it was postponed; false
  // when the proposal is no probe.
  bool postponeProbe(const LaunchKey &Key, double Seconds);

  // What the devices took for the split the last propose returned, one entry per device.
  // ChosenByCaller: the caller ran another split than the proposal's by its own choice (its data
  // affinity kept the cut where the data is): measured, and held from then on, so that the next
  // proposals are that split (and the caller need not override them again) until its
  // measurements move the balancer off it. Without it another split is a Mismatch.
  ObserveStatus observe(const LaunchKey &Key, const std::vector<DeviceMeasurement> &Measurements,
                        bool ChosenByCaller = false);

  std::optional<KeyTrace> trace(const LaunchKey &Key) const;
  // trace's Next and Converged alone, for each launch.
  std::optional<KeyStatus> status(const LaunchKey &Key) const;
  // Whether the balancer has anything for Key: launches of it, or shares seeded for it.
  bool knows(const LaunchKey &Key) const;

  // Warm start: records are used as the first split of keys seen later (when the device count
  // matches); warmStartRecords returns every converged key plus the seeded records not seen yet.
  void seed(const std::vector<WarmStartRecord> &Records);
  std::vector<WarmStartRecord> warmStartRecords() const;

  const BalancerConfig &config() const { return Config; }
  std::size_t keyCount() const { return Keys.size(); }

private:
  struct Entry {
    std::unique_ptr<KeyBalancer> State;
    std::uint64_t LastUse = 0;
  };

  void evictLeastRecentlyUsed();

  BalancerConfig Config;
  std::unordered_map<LaunchKey, Entry, LaunchKeyHash> Keys;
  std::unordered_map<LaunchKey, std::vector<double>, LaunchKeyHash> Seeds;
  std::uint64_t Clock = 0;
};

} // namespace libsplit::balancer
