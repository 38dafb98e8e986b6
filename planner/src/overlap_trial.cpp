#include "libsplit/planner/overlap_trial.hpp"

#include <algorithm>

namespace libsplit::planner {

namespace {

double median(std::vector<double> Values) {
  const std::size_t Middle = Values.size() / 2;
  std::nth_element(Values.begin(), Values.begin() + static_cast<std::ptrdiff_t>(Middle),
                   Values.end());
  return Values[Middle];
}

} // namespace

bool OverlapTrial::decide() const {
  if (Without.empty() || With.empty())
    return false;
  return median(With) < Margin * median(Without);
}

bool OverlapTrial::next(std::optional<double> Interval) {
  // An interval is the step of the launch before: counted for the way that launch went.
  if (Trying && Interval && Previous)
    (*Previous ? With : Without).push_back(*Interval);
  if (Trying && Count == TrialLaunches) {
    Chosen = decide();
    Trying = false;
    Count = 0;
    Without.clear();
    With.clear();
  } else if (!Trying && Count == RetryAfter) {
    Trying = true;
    Count = 0;
  }
  const bool Way = Trying ? (Count / Block) % 2 == 1 : *Chosen;
  ++Count;
  Previous = Way;
  return Way;
}

} // namespace libsplit::planner
