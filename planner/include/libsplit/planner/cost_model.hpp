//===- cost_model.hpp - Seconds a launch takes as a function of its work -===//
//
// One kernel's cost in one way of running it (split, or whole on the app's device), learnt from
// launches of every NDRange size: a least-squares line t = Fixed + PerItem * work-items over the
// most recent samples. A kernel whose NDRange changes every launch (a factorization's trailing
// block) thus learns from all its earlier launches, not from one size's history.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace libsplit::planner {

class CostModel {
public:
  // Samples kept: enough to see a trend across sizes, few enough to follow a drifting cost.
  static constexpr std::size_t Capacity = 64;

  void observe(double WorkItems, double Seconds);
  // Predicted seconds at WorkItems; none before the first sample. With one size measured, the
  // cost scales in proportion to the work from the mean there; with several, from the fitted
  // line, whose intercept and slope are kept non-negative.
  std::optional<double> predict(double WorkItems) const;
  std::size_t samples() const { return Count; }
  // The model at the smallest and the largest work it was measured at (one point when they
  // coincide, none before a sample): observing them in a fresh model reproduces its prediction.
  std::vector<std::pair<double, double>> endpoints() const;

private:
  struct Sample {
    double Work = 0.0;
    double Seconds = 0.0;
  };
  // Sums over Ring, kept as samples come and go (predict runs at every launch), recomputed
  // whenever the ring has turned over once, so that rounding does not accumulate.
  struct Sums {
    double Work = 0.0, Seconds = 0.0, WorkSquared = 0.0, WorkSeconds = 0.0;
    void add(const Sample &S, double Sign);
  };
  std::vector<Sample> Ring;
  Sums Total;
  std::size_t Next = 0;
  std::size_t Count = 0;
};

} // namespace libsplit::planner
