//===- noise_estimator.hpp - Robust scale of repeated measurements --------===//
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace libsplit::balancer {

// Relative standard deviation of a measurement, from |log(a / b)| of pairs of measurements that
// should have been equal. The median of the last Window samples is robust to the odd real change.
class NoiseEstimator {
public:
  static constexpr std::size_t Window = 64;
  static constexpr std::size_t MinSamples = 4;

  // A sample of |log(a / b)|.
  void add(double AbsLogRatio) {
    if (Samples.size() < Window)
      Samples.push_back(AbsLogRatio);
    else
      Samples[Next] = AbsLogRatio;
    Next = (Next + 1) % Window;
    if (Samples.size() < MinSamples)
      return;
    std::vector<double> Sorted = Samples;
    auto Middle = Sorted.begin() + static_cast<std::ptrdiff_t>(Sorted.size() / 2);
    std::nth_element(Sorted.begin(), Middle, Sorted.end());
    // |difference of two normal draws| has median 0.6745 * sqrt(2) sigma.
    Estimate = *Middle / (0.6745 * std::sqrt(2.0));
  }
  // 0 until MinSamples samples.
  double value() const { return Estimate; }

private:
  std::vector<double> Samples;
  std::size_t Next = 0;
  double Estimate = 0.0;
};

} // namespace libsplit::balancer
