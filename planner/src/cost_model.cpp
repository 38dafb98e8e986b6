#include "libsplit/planner/cost_model.hpp"

#include <algorithm>
#include <cmath>

namespace libsplit::planner {

void CostModel::observe(double WorkItems, double Seconds) {
  if (!(WorkItems > 0.0) || !std::isfinite(WorkItems) || !(Seconds >= 0.0) ||
      !std::isfinite(Seconds))
    return;
  if (Ring.size() < Capacity)
    Ring.push_back({WorkItems, Seconds});
  else
    Ring[Next] = {WorkItems, Seconds};
  Next = (Next + 1) % Capacity;
  ++Count;
}

std::optional<double> CostModel::predict(double WorkItems) const {
  if (Ring.empty())
    return std::nullopt;
  const double N = static_cast<double>(Ring.size());
  double MeanWork = 0.0, MeanSeconds = 0.0;
  for (const Sample &S : Ring) {
    MeanWork += S.Work / N;
    MeanSeconds += S.Seconds / N;
  }
  double Covariance = 0.0, Variance = 0.0;
  for (const Sample &S : Ring) {
    Covariance += (S.Work - MeanWork) * (S.Seconds - MeanSeconds);
    Variance += (S.Work - MeanWork) * (S.Work - MeanWork);
  }
  // One size (or sizes within a percent of each other): nothing to fit a line to.
  if (Variance <= 1e-4 * MeanWork * MeanWork * N)
    return MeanSeconds * WorkItems / MeanWork;
  double PerItem = std::max(Covariance / Variance, 0.0);
  double Fixed = MeanSeconds - PerItem * MeanWork;
  if (Fixed < 0.0) {
    // A line through the origin instead (least squares with no intercept).
    double WorkSeconds = 0.0, WorkSquared = 0.0;
    for (const Sample &S : Ring) {
      WorkSeconds += S.Work * S.Seconds;
      WorkSquared += S.Work * S.Work;
    }
    PerItem = WorkSeconds / WorkSquared;
    Fixed = 0.0;
  }
  return Fixed + PerItem * WorkItems;
}

} // namespace libsplit::planner
