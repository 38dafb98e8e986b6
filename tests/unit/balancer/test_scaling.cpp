// Nine devices (8 GPUs and a CPU 20x slower, balancer/sim's scaling catalog), against the issue
// "Scaling to 4 and 8 GPUs": Broyden within 5% in 3 launches or fewer with 9 devices, and a
// compute-bound steady state of at least 0.9 x N at N = 8. Bounds are what the balancer achieves
// now with a little room, so that a regression of the solvers or of the stop rule fails here.
#include "sim_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;
using libsplit::balancer::test::converge;
using libsplit::balancer::test::runCase;

namespace {

constexpr unsigned Launches = 600;
constexpr unsigned SteadyFrom = 100;

ScalingCase scalingCase(const std::string &Name) {
  for (ScalingCase &C : scalingCatalog())
    if (C.Case.Name == Name)
      return C;
  FAIL("no scaling case " << Name);
  return {};
}

unsigned activeDevices(const Run &R) {
  unsigned Active = 0;
  for (std::uint64_t Groups : R.Launches.back().Groups)
    Active += Groups > 0;
  return Active;
}

} // namespace

TEST_CASE("nine devices with a steady load: Broyden within 5% in 3 launches", "[scaling]") {
  // The issue's target holds where the load does not move, with any group count; one group
  // is 12% of a GPU's slice at 64 groups, and the optimum over whole groups is what counts.
  for (const char *Name :
       {"gpus8+cpu-equal-start", "gpus8+cpu-slow", "gpus8+cpu-slow-g256", "gpus8+cpu-slow-g64"}) {
    ScalingCase C = scalingCase(Name);
    Run R = runCase(C.Case, Strategy::Broyden, Launches);
    ScalingFigures Figures = scalingFigures(C.Case, R, C.ReferenceGpu, SteadyFrom, Launches);
    INFO(Name << ": converge " << converge(R) << ", over the optimum "
              << meanOverOptimum(R, SteadyFrom, Launches) << ", efficiency " << Figures.Efficiency);
    CHECK(converge(R) <= 3);
    CHECK(meanOverOptimum(R, SteadyFrom, Launches) <= 1.01);
    CHECK(Figures.WithinTolerance >= 0.99);
    CHECK(splitChanges(R, converge(R), Launches) == 0);
  }
}

TEST_CASE("nine devices from equal shares keep the CPU", "[scaling]") {
  // Its ideal share (0.62%) is above DropShare: all nine devices stay in use.
  ScalingCase C = scalingCase("gpus8+cpu-equal-start");
  Run R = runCase(C.Case, Strategy::Broyden, Launches);
  CHECK(activeDevices(R) == 9);
  CHECK(scalingFigures(C.Case, R, C.ReferenceGpu, SteadyFrom, Launches).Efficiency >= 0.99);
}

TEST_CASE("compute-bound steady state on 8 GPUs is above 0.9 x N", "[scaling]") {
  // Identical GPUs: the first split is already the balance. With one GPU 30% slower, the
  // uniform split is held back by that GPU, so this fails if the balancer stops balancing.
  for (const char *Name : {"gpus8", "gpus8-slow", "gpus8+cpu-slow"})
    for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
      ScalingCase C = scalingCase(Name);
      Run R = runCase(C.Case, Kind, Launches);
      ScalingFigures Figures = scalingFigures(C.Case, R, C.ReferenceGpu, SteadyFrom, Launches);
      INFO(Name << " " << strategyName(Kind) << ": speedup " << Figures.Speedup << " of "
                << Figures.Capacity);
      CHECK(Figures.Speedup >= 0.9 * C.Gpus);
      CHECK(Figures.Efficiency >= 0.98);
    }
}

TEST_CASE("nine devices under 10% noise converge later but hold close", "[scaling][noise]") {
  // Eight devices' noisy times widen the spread that the stop rule sees: the search stops a few
  // percent off and the slow path's refinements close the gap, beyond the issue's 3 launches.
  ScalingCase C = scalingCase("gpus8+cpu-slow+noise10%");
  Run R = runCase(C.Case, Strategy::Broyden, Launches);
  CHECK(converge(R) <= 16);
  CHECK(meanOverOptimum(R, SteadyFrom, Launches) <= 1.04);
}

TEST_CASE("nine devices under a drifting load fall short of the issue's targets",
          "[scaling][drift]") {
  // The issue's case: a GPU 30% slower, a CPU and N-body's heavy region moving along the groups.
  // Its targets are not met: neither solver stays within 5% of the optimum, and the steady
  // state is far below 0.9 x N. These bounds keep the behaviour from getting worse; a balancer
  // that tracks the drift should tighten them.
  ScalingCase Issue = scalingCase("gpus8+cpu-slow-drift");
  Run FixedPoint = runCase(Issue.Case, Strategy::FixedPoint, Launches);
  Run Broyden = runCase(Issue.Case, Strategy::Broyden, Launches);
  CHECK(meanOverOptimum(FixedPoint, SteadyFrom, Launches) <= 1.35);
  // A device the secant step would drop keeps the share its measured cost deserves: Broyden
  // no longer loses GPUs to the drift (1.56 over the optimum when it did).
  CHECK(meanOverOptimum(Broyden, SteadyFrom, Launches) <= 1.40);
  CHECK(
      scalingFigures(Issue.Case, FixedPoint, Issue.ReferenceGpu, SteadyFrom, Launches).Efficiency >=
      0.74);
  CHECK(scalingFigures(Issue.Case, Broyden, Issue.ReferenceGpu, SteadyFrom, Launches).Efficiency >=
        0.70);
  const std::vector<std::uint64_t> &Last = Broyden.Launches.back().Groups;
  CHECK(std::count_if(Last.begin(), Last.end(), [](std::uint64_t G) { return G > 0; }) >= 8);

  // Five times slower, the drift is followed: Broyden's secant pays off there.
  ScalingCase Slow = scalingCase("gpus8+cpu-slow-drift600");
  Run SlowFixedPoint = runCase(Slow.Case, Strategy::FixedPoint, Launches);
  Run SlowBroyden = runCase(Slow.Case, Strategy::Broyden, Launches);
  CHECK(meanOverOptimum(SlowFixedPoint, SteadyFrom, Launches) <= 1.15);
  CHECK(meanOverOptimum(SlowBroyden, SteadyFrom, Launches) <= 1.09);
  CHECK(
      scalingFigures(Slow.Case, SlowBroyden, Slow.ReferenceGpu, SteadyFrom, Launches).Efficiency >=
      0.92);
}
