//===- time_samples.hpp - Times compared by their median, robust to one-off slow launches ===//
#pragma once

#include "running_stats.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace libsplit::balancer {

// Launch times that a comparison of a held configuration with a device alone is made of. Their
// typical value is the median once there are a few: a device's first launch alone after a split
// can run far slower than it does alone for good (PoCL's pthread next to basic, often), and the
// mean of a handful of probes then favoured a split slower than the device alone. Both sides of a
// comparison use it: a median against a mean favours the side whose times are skewed.
class TimeSamples {
public:
  TimeSamples() = default;
  // Times known only by their mean and spread (launches held on the device alone).
  explicit TimeSamples(const RunningStats &Held) : Stats(Held), KnownByMean(true) {}

  void add(double Seconds) {
    Stats.add(Seconds);
    if (Recent.size() == MaxKept)
      Recent.erase(Recent.begin());
    Recent.push_back(Seconds);
  }
  void clear() { *this = TimeSamples(); }
  std::uint64_t count() const { return Stats.count(); }
  double variance() const { return Stats.variance(); }
  const RunningStats &stats() const { return Stats; }

  // The median of the kept times once there are MinForMedian of them, else (or when it started
  // from held launches, which are many and steady) the mean.
  double typical() const {
    if (KnownByMean || Recent.size() < MinForMedian)
      return Stats.mean();
    std::vector<double> Sorted = Recent;
    std::sort(Sorted.begin(), Sorted.end());
    std::size_t Half = Sorted.size() / 2;
    return Sorted.size() % 2 ? Sorted[Half] : 0.5 * (Sorted[Half - 1] + Sorted[Half]);
  }

private:
  static constexpr std::size_t MaxKept = 32;
  static constexpr std::size_t MinForMedian = 3;
  RunningStats Stats;
  bool KnownByMean = false;
  std::vector<double> Recent;
};

} // namespace libsplit::balancer
