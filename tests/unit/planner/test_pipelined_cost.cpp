#include "libsplit/planner/pipelined_cost.hpp"

#include <catch2/catch.hpp>

using libsplit::planner::PipelinedSlice;
using libsplit::planner::pipelinedSliceSeconds;

namespace {

// A slice with its device's times known (seconds on that device's clock).
PipelinedSlice timed(double HostBefore, double Kernels, double LaunchBegan, double PreviousEnd,
                     double End) {
  PipelinedSlice Slice;
  Slice.HostBefore = HostBefore;
  Slice.Kernels = Kernels;
  Slice.LaunchBegan = LaunchBegan;
  Slice.PreviousEnd = PreviousEnd;
  Slice.End = End;
  return Slice;
}

} // namespace

TEST_CASE("a pipelined stencil slice does not count its halo source's kernel again",
          "[planner][pipelined]") {
  // jacobi-2d on two GPUs: the stencil's launch begins as the copy kernel's slices start (0.46
  // ms each); the halo waits for them, crosses the host (0.1 ms), then the stencil's slice runs
  // 0.51 ms. From the launch's start that is 1.07 ms, of which the device spent 0.46 on the copy
  // kernel, measured with the copy's launch.
  const PipelinedSlice Slice = timed(0.56e-3, 0.51e-3, 10.0, 10.0 + 0.46e-3, 10.0 + 1.07e-3);
  CHECK(pipelinedSliceSeconds(Slice) == Approx(0.61e-3));
}

TEST_CASE("a pipelined slice's measure without its device's times is the host work and kernels",
          "[planner][pipelined]") {
  PipelinedSlice Slice;
  Slice.HostBefore = 0.2e-3;
  Slice.Kernels = 0.5e-3;
  CHECK(pipelinedSliceSeconds(Slice) == Approx(0.7e-3));
  Slice.End = 3.0; // no start known
  CHECK(pipelinedSliceSeconds(Slice) == Approx(0.7e-3));
}

TEST_CASE("a pipelined slice measures from its launch's start where the device was idle before",
          "[planner][pipelined]") {
  // The device's previous split slice ended long before (whole launches ran meanwhile, or the
  // app was not ahead): from the launch's start, bounded by the host work and kernels.
  CHECK(pipelinedSliceSeconds(timed(0.3e-3, 0.5e-3, 5.0, 1.0, 5.0 + 0.75e-3)) == Approx(0.75e-3));
  // Waiting behind a whole launch the guard did not time: not counted beyond the old measure.
  CHECK(pipelinedSliceSeconds(timed(0.3e-3, 0.5e-3, 5.0, 1.0, 5.0 + 2.0e-3)) == Approx(0.8e-3));
}

TEST_CASE("a pipelined slice costs at least its kernels", "[planner][pipelined]") {
  // Clocks that disagree (a previous end later than this slice's end): the kernels' time.
  CHECK(pipelinedSliceSeconds(timed(0.1e-3, 0.5e-3, 2.0, 2.0 + 1e-3, 2.0 + 1.2e-3)) ==
        Approx(0.5e-3));
}

TEST_CASE("a previous end after the slice's start is another queue's slice, told first",
          "[planner][pipelined]") {
  // Two app queues on one device: a later slice's end was recorded before this one's. This
  // slice did not wait behind it (the device runs its queue in order): from the launch's start.
  PipelinedSlice Slice = timed(0.3e-3, 0.5e-3, 5.0, 5.0 + 1.5e-3, 5.0 + 0.8e-3);
  Slice.FirstStart = 5.0 + 0.3e-3;
  CHECK(pipelinedSliceSeconds(Slice) == Approx(0.8e-3));
  // Ended before this slice's first kernel started: waited behind it.
  Slice.PreviousEnd = 5.0 + 0.25e-3;
  CHECK(pipelinedSliceSeconds(Slice) == Approx(0.55e-3));
}
