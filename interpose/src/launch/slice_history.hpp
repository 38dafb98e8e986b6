// What a kernel's split launches left for the next ones: seconds per work-group of its slices on
// each device, from their reports at any NDRange size, the rate each device received its
// lacking bytes at (planner/link_rate.hpp), and the last two-device cut: what the
// planner prices other cuts with, and one of the cuts it tries (planner/affinity.hpp).
#pragma once

#include "libsplit/planner/link_rate.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace libsplit {

class SliceHistory {
public:
  // A slice of Groups work-groups took Seconds on the device of index Device.
  void observe(std::size_t Device, double Seconds, std::size_t Groups) {
    if (!Groups || !(Seconds > 0.0))
      return;
    const double Rate = Seconds / static_cast<double>(Groups);
    std::lock_guard<std::mutex> Lock(Mutex);
    auto [It, New] = Rates.emplace(Device, Rate);
    if (!New) // recent slices count most: a factorization's work per group changes as it goes
      It->second = 0.5 * (It->second + Rate);
  }
  // A slice on the device of index Device received Bytes it lacked in Seconds.
  void observeTransfer(std::size_t Device, double Seconds, std::uint64_t Bytes) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Links[Device].observe(Seconds, static_cast<double>(Bytes));
  }
  // The slowest measured rate of Devices' transfers, Default for those not measured yet.
  double linkBytesPerSecond(const std::vector<std::size_t> &Devices, double Default) const {
    std::lock_guard<std::mutex> Lock(Mutex);
    double Slowest = Default;
    for (std::size_t D : Devices)
      if (auto It = Links.find(D); It != Links.end())
        Slowest = std::min(Slowest, It->second.bytesPerSecond(Default));
    return Slowest;
  }
  // Per device index asked for: its seconds per work-group, 0 where none was measured.
  std::vector<double> of(const std::vector<std::size_t> &Devices) const {
    std::vector<double> Out;
    std::lock_guard<std::mutex> Lock(Mutex);
    for (std::size_t D : Devices) {
      auto It = Rates.find(D);
      Out.push_back(It == Rates.end() ? 0.0 : It->second);
    }
    return Out;
  }

  // Shares of a launch's work-groups for Devices (indices), inversely proportional to their
  // seconds per work-group; none unless each was measured. A kernel whose NDRange changes
  // every launch (a factorization's trailing block) starts each new size from them.
  std::optional<std::vector<double>> shares(const std::vector<std::size_t> &Devices) const {
    std::vector<double> Out = of(Devices);
    double Sum = 0.0;
    for (double &Rate : Out) {
      if (!(Rate > 0.0))
        return std::nullopt;
      Rate = 1.0 / Rate;
      Sum += Rate;
    }
    for (double &Share : Out)
      Share /= Sum;
    return Out;
  }

  // The first device's work-groups in the last two-device split (0: none yet).
  std::size_t lastCut() const {
    std::lock_guard<std::mutex> Lock(Mutex);
    return LastCut;
  }
  void noteCut(std::size_t Cut) {
    std::lock_guard<std::mutex> Lock(Mutex);
    LastCut = Cut;
  }

  // The cuts that keep the buffers' split edges (owner_cut.hpp) for the last launch asked about:
  // they depend on its shape, its cut and its buffers' edges alone (Key encodes them), and a
  // held split asks the same every launch.
  struct EdgeCuts {
    std::optional<std::size_t> Owner;
    std::vector<std::size_t> ReadCuts;
  };
  std::optional<EdgeCuts> edgeCuts(const std::vector<std::uint64_t> &Key) const {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (EdgeKey != Key)
      return std::nullopt;
    return Edges;
  }
  void keepEdgeCuts(std::vector<std::uint64_t> Key, EdgeCuts Cuts) {
    std::lock_guard<std::mutex> Lock(Mutex);
    EdgeKey = std::move(Key);
    Edges = std::move(Cuts);
  }

private:
  mutable std::mutex Mutex;
  std::map<std::size_t, double> Rates;
  std::map<std::size_t, planner::LinkRate> Links;
  std::size_t LastCut = 0;
  std::vector<std::uint64_t> EdgeKey;
  EdgeCuts Edges;
};

} // namespace libsplit
