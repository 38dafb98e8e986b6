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
  // The app has just waited, at Now, for every launch queued so far (a blocking call on its
  // only queue): those queued since the last such wait ran between the first of them being
  // queued and Now, so they count no more than that (a kernel predicted from its first launch,
  // which bears one-off costs, is predicted far slower than it runs: a solver's short launches
  // then seemed to queue several times the run's length).
  void caughtUp(double Now);

private:
  double HoldAhead;
  double BusyUntil = 0.0;
  double Total = 0.0;
  // Predicted since the last caughtUp, and when the first of those launches was queued.
  double SinceCaughtUp = 0.0;
  double FirstSinceCaughtUp = 0.0;
};

} // namespace libsplit::planner
