// How long an app waits before the split devices open: 5 times its context's creation per
// further GPU of its platform opened in the background, else 15 times.
#include "libsplit/planner/open_wait.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

TEST_CASE("a second GPU of the app's platform opened in the background: 5 times",
          "[planner][open]") {
  CHECK(openWaitFactor(true, true, 1) == 5.0);
  CHECK(openWaitFactor(true, true, 0) == 5.0); // none left to open: as for one
}

TEST_CASE("more GPUs to open cost more releases, up to the foreground's factor",
          "[planner][open]") {
  CHECK(openWaitFactor(true, true, 2) == 10.0);
  CHECK(openWaitFactor(true, true, 3) == 15.0);
  CHECK(openWaitFactor(true, true, 7) == 15.0);
}

TEST_CASE("another platform, or an opening on the app's thread: 15 times", "[planner][open]") {
  CHECK(openWaitFactor(true, false, 1) == 15.0); // PoCL's CPU beside an NVIDIA GPU
  CHECK(openWaitFactor(false, true, 1) == 15.0); // PoCL's two devices
  CHECK(openAtCreationWaitFactor() == 15.0);
}

namespace {
SavedWait waited(double Seconds, std::uint64_t Launches, bool SplitNothing = false) {
  SavedWait W;
  W.Seconds = Seconds;
  W.Launches = Launches;
  W.SplitNothing = SplitNothing;
  return W;
}
} // namespace

TEST_CASE("an earlier run's wait opens the next run's split devices at creation where its "
          "launches were long",
          "[planner][open]") {
  constexpr double Create = 0.1, Pays = 15 * Create;
  // A stencil whose launches averaged 2.4 ms, waited for at its end.
  CHECK(earlierWaitOpensAtCreation(waited(0.48, 200), Create, Pays, false));
  // Stencils of 0.39 ms and 0.24 ms launches, and one of 0.1 ms: no split paid for its opening.
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.58, 1500), Create, Pays, false));
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.48, 2000), Create, Pays, false));
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.158, 1500), Create, Pays, false));
  // A loop of thousands of short launches.
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.02, 4094), Create, Pays, false));
  // Launches long enough, but a wait shorter than twice the opening.
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.15, 10), Create, Pays, false));
}

TEST_CASE("one try: a run opened for such a wait that split nothing, devices sharing cores, or "
          "an unknown launch count keep the split devices closed",
          "[planner][open]") {
  constexpr double Create = 0.1, Pays = 15 * Create;
  CHECK(earlierWaitOpensAtCreation(waited(0.48, 200), Create, Pays, false));
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.48, 200, true), Create, Pays, false));
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.48, 200), Create, Pays, true));
  CHECK_FALSE(earlierWaitOpensAtCreation(waited(0.48, 0), Create, Pays, false));
}

TEST_CASE("a wait as long as the opening's own threshold opens them whatever its launches",
          "[planner][open]") {
  constexpr double Create = 0.1, Pays = 15 * Create;
  CHECK(earlierWaitOpensAtCreation(waited(1.5, 100000, true), Create, Pays, true));
  CHECK(earlierWaitOpensAtCreation(waited(1.5, 0), Create, Pays, false));
}

TEST_CASE("queued work opens the split devices unless an earlier run's crossed the threshold "
          "with less than as much again to follow",
          "[planner][open]") {
  constexpr double Threshold = 0.5;
  SavedWait Earlier;
  CHECK(queuedWorkOpens(Earlier, Threshold)); // no earlier run, or its queued work never reached it
  Earlier.Queued = 0.66;                      // a stencil that queued its whole run at once
  CHECK_FALSE(queuedWorkOpens(Earlier, Threshold));
  Earlier.Queued = 0.99;
  CHECK_FALSE(queuedWorkOpens(Earlier, Threshold));
  Earlier.Queued = 1.0; // as much again to follow the crossing
  CHECK(queuedWorkOpens(Earlier, Threshold));
  Earlier.Queued = 5.0;
  CHECK(queuedWorkOpens(Earlier, Threshold));
}
