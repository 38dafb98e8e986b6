// An app that queues its launches far ahead of its device, as LIBSPLIT_OPEN=auto predicts it.
#include "libsplit/planner/queue_ahead.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

TEST_CASE("launches queued at once are predicted one after the other", "[planner][queued]") {
  QueueAhead Q(20e-3);
  for (int I = 0; I < 100; ++I)
    Q.queued(0.0, 1e-3);
  CHECK(Q.total() == Approx(0.1));
  // 100 ms of work queued at once: the next launch waits until 20 ms of it are left.
  CHECK(Q.holdUntil(0.0) == Approx(0.08));
  CHECK(Q.holdUntil(0.09) == Approx(0.09)); // past that: at once
}

TEST_CASE("an app slower than its device is never held", "[planner][queued]") {
  QueueAhead Q(20e-3);
  double Now = 0.0;
  for (int I = 0; I < 1000; ++I, Now += 2e-3) { // a 1 ms launch every 2 ms
    Q.queued(Now, 1e-3);
    REQUIRE(Q.holdUntil(Now) == Approx(Now));
  }
  CHECK(Q.total() == Approx(1.0));
}

TEST_CASE("a held app keeps its device busy with the hold's work ahead", "[planner][queued]") {
  QueueAhead Q(20e-3);
  double Now = 0.0;
  for (int I = 0; I < 500; ++I) {
    Now = Q.holdUntil(Now); // the app waits as long as it is told, then queues
    Q.queued(Now, 1e-3);
  }
  // The device ran every launch back to back: the last ends 0.5 s after the first started, and
  // the app, held, is never more than the hold (and one launch) ahead of it.
  CHECK(Q.holdUntil(Now) - Now <= 1e-3 + 1e-12);
  CHECK(Now == Approx(0.5 - 20e-3).margin(1e-3));
}

TEST_CASE("launches the app waited for count no more than the time they had", "[planner][queued]") {
  QueueAhead Q(20e-3);
  double Now = 0.0;
  // Each step queues three launches predicted at 0.2 ms each, then waits for them: the wait
  // returns 50 us after the first was queued, so they ran in 50 us, not 0.6 ms.
  for (int Step = 0; Step < 1000; ++Step) {
    for (int I = 0; I < 3; ++I)
      Q.queued(Now + I * 1e-6, 0.2e-3);
    Now += 50e-6;
    Q.caughtUp(Now);
    Now += 10e-6; // the app's host work between steps
  }
  CHECK(Q.total() == Approx(0.05));
  CHECK(Q.holdUntil(Now) == Approx(Now));
  // Launches that did take as long as predicted keep it all.
  QueueAhead Long(20e-3);
  Long.queued(0.0, 0.1);
  Long.queued(0.0, 0.1);
  Long.caughtUp(0.25);
  CHECK(Long.total() == Approx(0.2));
  // A wait with nothing queued since the last one changes nothing.
  Long.caughtUp(0.3);
  CHECK(Long.total() == Approx(0.2));
}
