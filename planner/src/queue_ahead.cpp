#include "libsplit/planner/queue_ahead.hpp"

#include <algorithm>

namespace libsplit::planner {

void QueueAhead::queued(double Now, double Seconds) {
  Seconds = std::max(Seconds, 0.0);
  BusyUntil = std::max(BusyUntil, Now) + Seconds;
  Total += Seconds;
  if (SinceCaughtUp == 0.0)
    FirstSinceCaughtUp = Now;
  SinceCaughtUp += Seconds;
}

void QueueAhead::caughtUp(double Now) {
  const double Ran = std::max(0.0, Now - FirstSinceCaughtUp);
  if (SinceCaughtUp > Ran)
    Total -= SinceCaughtUp - Ran;
  SinceCaughtUp = 0.0;
  BusyUntil = std::min(BusyUntil, Now);
}

double QueueAhead::holdUntil(double Now) const { return std::max(Now, BusyUntil - HoldAhead); }

} // namespace libsplit::planner
