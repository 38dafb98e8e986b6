// What moving bytes to a device costs, as measured (planner/link_rate.hpp).
#include "libsplit/planner/link_rate.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

TEST_CASE("a device's fetch rate: the default until measured, then the recent transfers'",
          "[planner][link]") {
  LinkRate Link;
  CHECK(Link.bytesPerSecond(8e9) == 8e9);
  // Three 64 KiB fetches at 40 us each, waits included: 1.6 GB/s, not the link's 8.
  for (int I = 0; I < 2; ++I)
    Link.observe(40e-6, 65536);
  CHECK(Link.bytesPerSecond(8e9) == 8e9);
  Link.observe(40e-6, 65536);
  CHECK(Link.bytesPerSecond(8e9) == Approx(65536 / 40e-6));
  // Small fetches (a pivot row) tell their fixed cost, not a rate: ignored, as are empty ones.
  Link.observe(40e-6, 1536);
  Link.observe(0.0, 65536);
  CHECK(Link.samples() == 3);
  CHECK(Link.bytesPerSecond(8e9) == Approx(65536 / 40e-6));
  // Faster transfers later: the rate follows them.
  for (int I = 0; I < 60; ++I)
    Link.observe(10e-6, 65536);
  CHECK(Link.bytesPerSecond(8e9) == Approx(65536 / 10e-6).epsilon(0.01));
}
