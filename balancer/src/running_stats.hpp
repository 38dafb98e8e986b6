//===- running_stats.hpp - Mean and variance of repeated measurements ----===//
#pragma once

#include <cmath>
#include <cstdint>

namespace libsplit::balancer {

// Welford's online mean and variance: numerically stable over long holds.
class RunningStats {
public:
  void add(double Value) {
    ++Count;
    double Delta = Value - Mean;
    Mean += Delta / static_cast<double>(Count);
    M2 += Delta * (Value - Mean);
  }
  void clear() { *this = RunningStats(); }
  std::uint64_t count() const { return Count; }
  double mean() const { return Mean; }
  double variance() const { return Count > 1 ? M2 / static_cast<double>(Count - 1) : 0.0; }
  double standardError() const {
    return Count > 0 ? std::sqrt(variance() / static_cast<double>(Count)) : 0.0;
  }

private:
  std::uint64_t Count = 0;
  double Mean = 0.0;
  double M2 = 0.0;
};

} // namespace libsplit::balancer
