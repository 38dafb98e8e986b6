// Launches needed to come within 5% of the optimal makespan (and stay there for 5 launches),
// on simulated devices without noise. Bounds are the measured values plus about one launch:
// a regression of the solvers shows up as a failure, a change of rounding does not.
#include "sim_helpers.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;
using libsplit::balancer::test::converge;
using libsplit::balancer::test::runCase;

namespace {
struct Bound {
  Scenario Case;
  unsigned FixedPoint; // launches, at most
  unsigned Broyden;
};
} // namespace

TEST_CASE("each case converges within its bound, for both solvers", "[convergence]") {
  std::vector<Bound> Bounds = {
      {linearRatios("linear-2:1", {2, 1}), 3, 3},
      {linearRatios("linear-4:2:1", {4, 2, 1}), 3, 3},
      {linearRatios("linear-100:1", {100, 1}), 3, 3},
      {granularitySteps(), 4, 4},
      {denseRowsAtEnd(), 4, 4},
      {launchOverhead(), 8, 5},
      {slowDeviceTransfer(0.6), 7, 5},
  };
  for (const Bound &B : Bounds) {
    unsigned FixedPoint = converge(runCase(B.Case, Strategy::FixedPoint, 60));
    unsigned Broyden = converge(runCase(B.Case, Strategy::Broyden, 60));
    INFO(B.Case.Name << ": fixedpoint " << FixedPoint << ", broyden " << Broyden);
    CHECK(FixedPoint <= B.FixedPoint);
    CHECK(Broyden <= B.Broyden);
    // Smooth cases: the secant never costs launches over the fixed point.
    CHECK(Broyden <= FixedPoint);
  }
}

TEST_CASE("Broyden beats the fixed point where costs react to the split", "[convergence]") {
  // A fixed cost per launch makes F depend on x: the fixed point crawls, the secant does not.
  CHECK(converge(runCase(launchOverhead(), Strategy::Broyden, 60)) <
        converge(runCase(launchOverhead(), Strategy::FixedPoint, 60)));
  CHECK(converge(runCase(slowDeviceTransfer(1.2), Strategy::Broyden, 60)) <
        converge(runCase(slowDeviceTransfer(1.2), Strategy::FixedPoint, 60)));
}

TEST_CASE("the uniform split never converges on unequal devices", "[convergence]") {
  // The measure above can fail: uniform is 50% off on 2:1 and stays there.
  Run R = runCase(linearRatios("linear-2:1", {2, 1}), Strategy::Uniform, 30);
  CHECK_FALSE(launchesToConverge(R).has_value());
  CHECK(meanOverOptimum(R, 0, 30) == Approx(1.5).epsilon(0.01));
}

TEST_CASE("the first launch is uniform, the second proportional to the measured speeds",
          "[convergence]") {
  Run R = runCase(linearRatios("linear-4:2:1", {4, 2, 1}), Strategy::Broyden, 3);
  CHECK(R.Launches[0].Groups == std::vector<std::uint64_t>{334, 333, 333});
  CHECK(R.Launches[1].Groups == std::vector<std::uint64_t>{571, 286, 143});
  CHECK(R.Launches[1].TrueMakespan == Approx(R.Launches[1].OptimalMakespan).epsilon(0.005));
}

TEST_CASE("work-groups always sum exactly, in device order, in every case", "[convergence]") {
  for (const Scenario &S : catalog())
    for (Strategy Kind : {Strategy::Uniform, Strategy::FixedPoint, Strategy::Broyden}) {
      Run R = runCase(S, Kind, 150);
      INFO(S.Name << " " << strategyName(Kind));
      CHECK(R.GroupsAlwaysSummed);
      CHECK(R.SlicesContiguous);
    }
}

TEST_CASE("steady state is never slower than the best single device (2%)", "[convergence]") {
  // Probes included: they are part of the steady state's cost.
  for (const Scenario &S : catalog())
    for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
      Run R = runCase(S, Kind, 400);
      double OverSingle = meanOverSingle(R, 100, 400);
      INFO(S.Name << " " << strategyName(Kind) << ": " << OverSingle);
      CHECK(OverSingle <= 1.02);
    }
}

TEST_CASE("once converged without noise, the split holds", "[convergence][hysteresis]") {
  for (const Scenario &S : {linearRatios("linear-4:2:1", {4, 2, 1}), denseRowsAtEnd(),
                            granularitySteps(), launchOverhead()})
    for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
      Run R = runCase(S, Kind, 200);
      INFO(S.Name << " " << strategyName(Kind));
      // One correcting step at most (a refinement from mean times), and no more.
      CHECK(splitChanges(R, converge(R), 200) <= 1);
    }
}
