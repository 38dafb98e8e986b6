#include "libsplit/planner/cost_model.hpp"

#include <algorithm>
#include <cmath>

namespace libsplit::planner {

void CostModel::Sums::add(const Sample &S, double Sign) {
  Work += Sign * S.Work;
  Seconds += Sign * S.Seconds;
  WorkSquared += Sign * S.Work * S.Work;
  WorkSeconds += Sign * S.Work * S.Seconds;
}

void CostModel::observe(double WorkItems, double Seconds) {
  if (!(WorkItems > 0.0) || !std::isfinite(WorkItems) || !(Seconds >= 0.0) ||
      !std::isfinite(Seconds))
    return;
  const Sample New{WorkItems, Seconds};
  if (Ring.size() < Capacity) {
    Ring.push_back(New);
  } else {
    Total.add(Ring[Next], -1.0);
    Ring[Next] = New;
  }
  Total.add(New, 1.0);
  Next = (Next + 1) % Capacity;
  ++Count;
  if (Next == 0) {
    Total = Sums();
    for (const Sample &S : Ring)
      Total.add(S, 1.0);
  }
}

std::optional<double> CostModel::predict(double WorkItems) const {
  if (Ring.empty())
    return std::nullopt;
  const double N = static_cast<double>(Ring.size());
  const double MeanWork = Total.Work / N, MeanSeconds = Total.Seconds / N;
  const double Variance = std::max(Total.WorkSquared - N * MeanWork * MeanWork, 0.0);
  const double Covariance = Total.WorkSeconds - N * MeanWork * MeanSeconds;
  // One size (or sizes within a percent of each other): nothing to fit a line to.
  if (Variance <= 1e-4 * MeanWork * MeanWork * N)
    return MeanSeconds * WorkItems / MeanWork;
  double PerItem = std::max(Covariance / Variance, 0.0);
  double Fixed = MeanSeconds - PerItem * MeanWork;
  if (Fixed < 0.0) {
    // A line through the origin instead (least squares with no intercept).
    PerItem = Total.WorkSeconds / Total.WorkSquared;
    Fixed = 0.0;
  }
  return Fixed + PerItem * WorkItems;
}

std::vector<std::pair<double, double>> CostModel::endpoints() const {
  if (Ring.empty())
    return {};
  double Low = Ring.front().Work, High = Low;
  for (const Sample &S : Ring) {
    Low = std::min(Low, S.Work);
    High = std::max(High, S.Work);
  }
  if (High <= Low * (1.0 + 1e-6))
    return {{Low, *predict(Low)}};
  return {{Low, *predict(Low)}, {High, *predict(High)}};
}

} // namespace libsplit::planner
