#include "libsplit/planner/group_size.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

TEST_CASE("a null local size becomes the largest divisor within the wanted size",
          "[planner][group-size]") {
  // GPUs only: up to 256 work-items.
  CHECK(implicitGroupSize(1u << 20, true, 1024) == 256);
  CHECK(implicitGroupSize(1000000, true, 1024) == 250);
  // A CPU device takes part: up to 64.
  CHECK(implicitGroupSize(1u << 20, false, 4096) == 64);
  CHECK(implicitGroupSize(1000000, false, 4096) == 64);
  CHECK(implicitGroupSize(1000, false, 4096) == 50);
  // What the devices or the kernel allow bounds it.
  CHECK(implicitGroupSize(1u << 20, true, 128) == 128);
  CHECK(implicitGroupSize(1u << 20, true, 96) == 64);
  // Unknown limit: the wanted size alone.
  CHECK(implicitGroupSize(4096, true, 0) == 256);
  // A prime global size, and one smaller than the wanted size.
  CHECK(implicitGroupSize(257, true, 1024) == 1);
  CHECK(implicitGroupSize(100, true, 1024) == 100);
  CHECK(implicitGroupSize(0, true, 1024) == 256);
}
