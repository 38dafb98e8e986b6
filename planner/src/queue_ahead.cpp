#include "libsplit/planner/queue_ahead.hpp"

#include <algorithm>

namespace libsplit::planner {

void QueueAhead::queued(double Now, double Seconds) {
  Seconds = std::max(Seconds, 0.0);
  BusyUntil = std::max(BusyUntil, Now) + Seconds;
  Total += Seconds;
}

double QueueAhead::holdUntil(double Now) const { return std::max(Now, BusyUntil - HoldAhead); }

} // namespace libsplit::planner
