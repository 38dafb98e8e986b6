// The simulator's optimum is what every other test measures against: check it first.
#include "libsplit/balancer/sim/scenarios.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;

TEST_CASE("optimum of linear speeds", "[sim]") {
  Optimum Two = optimum(linearRatios("2:1", {2, 1}), 0);
  CHECK(Two.Groups == std::vector<std::uint64_t>{667, 333});
  CHECK(Two.Makespan == Approx(333.5 * Unit));
  Optimum Three = optimum(linearRatios("4:2:1", {4, 2, 1}), 0);
  // 1000 / 7 = 142.86 units for a perfect balance.
  CHECK(Three.Makespan == Approx(1000.0 / 7 * Unit).epsilon(0.005));
}

TEST_CASE("optimum of dense rows at the end matches the analytic boundary", "[sim]") {
  // Equal devices, cost 1 + 6u: the boundary s solves s + 3 s^2 = 2, s = 2/3.
  Optimum Best = optimum(denseRowsAtEnd(), 0);
  CHECK(Best.Groups[0] == Approx(667).margin(1));
}

TEST_CASE("bisection agrees with exhaustive search on monotone cases", "[sim]") {
  for (const Scenario &S : {linearRatios("4:2:1", {4, 2, 1}), denseRowsAtEnd(), launchOverhead(),
                            slowDeviceTransfer(1.2), linearRatios("3:1:1", {3, 1, 1}, 97)})
    CHECK(optimumByBisection(S, 0).Makespan == Approx(optimumExhaustive(S, 0).Makespan));
  Scenario Four = linearRatios("8:4:2:1", {8, 4, 2, 1}, 150);
  CHECK(optimum(Four, 0).Makespan == Approx(150.0 / 15 * Unit).epsilon(0.02));
}

TEST_CASE("cases where splitting does not pay have a single-device optimum", "[sim]") {
  for (const Scenario &S : {slowDeviceTransfer(1.2), mergeCost()}) {
    Optimum Best = optimum(S, 0);
    CHECK(Best.Groups == std::vector<std::uint64_t>{1000, 0});
    CHECK(Best.Makespan == Approx(bestSingle(S, 0).Makespan));
  }
  CHECK(optimum(slowDeviceTransfer(0.6), 0).Makespan <
        0.9 * bestSingle(slowDeviceTransfer(0.6), 0).Makespan);
}

TEST_CASE("noise is reproducible and within its band", "[sim]") {
  Scenario S = withNoise(linearRatios("2:1", {2, 1}), 0.10, 5);
  BalancerConfig Uniform;
  Uniform.Kind = Strategy::Uniform;
  Balancer A(Uniform);
  Balancer B(Uniform);
  Run First = simulate(S, A, 50);
  Run Second = simulate(S, B, 50);
  for (std::size_t L = 0; L < 50; ++L) {
    CHECK(First.Launches[L].MeasuredMakespan == Second.Launches[L].MeasuredMakespan);
    double Ratio = First.Launches[L].MeasuredMakespan / First.Launches[L].TrueMakespan;
    CHECK(Ratio >= 0.9 - 1e-12);
    CHECK(Ratio <= 1.1 + 1e-12);
  }
}
