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
