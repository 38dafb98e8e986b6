//===- noise_estimator.hpp - Robust scale of repeated measurements --------===//
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace libsplit::balancer {

// Relative standard deviation of a measurement, from |log(a / b)| of pairs of measurements that
// should have been equal. The median of the last Window samples is robust to the odd real change.
// It is computed when read, from a fixed ring: a split launch adds a sample per device to each of
// the balancer's two estimators, and a heap copy of the window at every sample cost its host
// time.
class NoiseEstimator {
public:
  static constexpr std::size_t Window = 64;
  static constexpr std::size_t MinSamples = 4;

  // A sample of |log(a / b)|.
  void add(double AbsLogRatio) {
    Samples[Next] = AbsLogRatio;
    Next = (Next + 1) % Window;
    Count = std::min(Count + 1, Window);
    Stale = true;
  }
  // 0 until MinSamples samples.
  double value() const {
    if (!Stale)
      return Estimate;
    Stale = false;
    if (Count < MinSamples)
      return Estimate = 0.0;
    std::array<double, Window> Sorted;
    std::copy(Samples.begin(), Samples.begin() + static_cast<std::ptrdiff_t>(Count),
              Sorted.begin());
    auto Middle = Sorted.begin() + static_cast<std::ptrdiff_t>(Count / 2);
    std::nth_element(Sorted.begin(), Middle, Sorted.begin() + static_cast<std::ptrdiff_t>(Count));
    // |difference of two normal draws| has median 0.6745 * sqrt(2) sigma.
    return Estimate = *Middle / (0.6745 * std::sqrt(2.0));
  }

private:
  std::array<double, Window> Samples{};
  std::size_t Next = 0;
  std::size_t Count = 0;
  mutable double Estimate = 0.0;
  mutable bool Stale = false;
};

} // namespace libsplit::balancer
