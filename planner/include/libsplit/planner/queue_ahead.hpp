// How far ahead of its device an app runs (LIBSPLIT_OPEN=auto): the launches it queued,
// predicted one after the other on the device from when each was queued.
#pragma once

namespace libsplit::planner {

class QueueAhead {
public:
  // HoldAheadSeconds: the work a held app leaves queued on its device, so that the device never
  // waits for the app's next launch (a thread's wake-up is far shorter).
  explicit QueueAhead(double HoldAheadSeconds = 20e-3) : HoldAhead(HoldAheadSeconds) {}
  // A launch queued at Now (seconds on a steady clock), predicted to run Seconds.
  void queued(double Now, double Seconds);
  // The predicted seconds of every launch queued so far: how long the run is at least.
  double total() const { return Total; }
  // When the app's next launch may be queued: Now where its device has less than HoldAhead of
  // predicted work left, else the moment it will have.
  double holdUntil(double Now) const;

private:
  double HoldAhead;
  double BusyUntil = 0.0;
  double Total = 0.0;
};

} // namespace libsplit::planner
