// Costs that change from launch to launch: the split must follow them.
#include "sim_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;
using libsplit::balancer::test::configFor;
using libsplit::balancer::test::converge;
using libsplit::balancer::test::runCase;
using libsplit::balancer::test::simKey;

TEST_CASE("after a step change of speeds the split re-converges within a few launches", "[drift]") {
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    Run R = runCase(speedFlip(40), Kind, 100);
    INFO(strategyName(Kind));
    REQUIRE(converge(R) <= 3);
    // ResumeLaunches (2) launches to be sure it is not noise, then one step.
    unsigned After = converge(R, 40);
    CHECK(After <= 40 + 4);
    CHECK(R.Launches[40].TrueMakespan > 1.5 * R.Launches[40].OptimalMakespan);
    CHECK(splitChanges(R, After, 100) == 0);
  }
}

// Devices 2:1 whose fast device slows down by Factor from launch At on.
static Scenario fastDeviceSlowsAt(const char *Name, std::uint64_t At, double Factor) {
  Scenario S = linearRatios(Name, {2, 1});
  S.TimeVarying = true;
  S.Devices[0].Kernel = [At, Factor](std::uint64_t G, std::uint64_t, std::uint64_t L) {
    return static_cast<double>(G) * Unit / (L < At ? 2.0 : 2.0 / Factor);
  };
  return S;
}

TEST_CASE("hysteresis: a drift inside the resume threshold does not move the split",
          "[drift][hysteresis]") {
  // At launch 30 the fast device slows by 7%: the spread (about 7%) is above the stop
  // threshold but below the resume threshold, and without noise nothing else changes.
  Scenario S = fastDeviceSlowsAt("drift-7%", 30, 1.07);
  Balancer B(configFor(Strategy::Broyden));
  Run R = simulate(S, B, 36);
  KeyTrace T = *B.trace(simKey(S));
  CHECK(splitChanges(R, 30, 36) == 0);
  CHECK(T.Converged);
  CHECK(T.Resumes == 0);
  CHECK(T.LastSpread > 0.05);
  CHECK(T.LastSpread < 0.10);
}

TEST_CASE("a drift inside the resume threshold after a long hold is corrected by the slow path",
          "[drift][hysteresis]") {
  // The same 7% drift, at launch 150 of a split held since its first launches: the means of the
  // held launches start over every RefineMaxLaunches, so the drift is judged on launches that
  // show it (a window held since the start would dilute it below StopSpread for hundreds of
  // launches).
  Scenario S = fastDeviceSlowsAt("late-drift-7%", 150, 1.07);
  BalancerConfig Config = configFor(Strategy::Broyden);
  Balancer B(Config);
  Run R = simulate(S, B, 150 + 2 * Config.RefineMaxLaunches + 2);
  KeyTrace T = *B.trace(simKey(S));
  CHECK(splitChanges(R, 20, 150) == 0);
  CHECK(splitChanges(R, 150, 150 + 2 * Config.RefineMaxLaunches + 1) >= 1);
  CHECK(T.Resumes == 0);
  CHECK(T.Refinements >= 1);
  CHECK(T.LastSpread < 0.05);
}

TEST_CASE("hysteresis: a drift beyond the resume threshold restarts the search",
          "[drift][hysteresis]") {
  Scenario S = fastDeviceSlowsAt("drift-25%", 30, 1.25);
  Balancer B(configFor(Strategy::Broyden));
  Run R = simulate(S, B, 40);
  KeyTrace T = *B.trace(simKey(S));
  CHECK(T.Resumes == 1);
  CHECK(T.Converged);
  // Launches 30 and 31 show the drift, 32 runs the new split.
  CHECK(R.Launches[31].Groups == R.Launches[29].Groups);
  CHECK(R.Launches[32].Groups != R.Launches[29].Groups);
  CHECK(converge(R, 30) <= 33);
}

TEST_CASE("N-body drift: the split keeps close to the moving optimum", "[drift]") {
  Run Uniform = runCase(nbodyDrift(), Strategy::Uniform, 240);
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    Run R = runCase(nbodyDrift(), Kind, 240);
    INFO(strategyName(Kind) << ": mean over optimum " << meanOverOptimum(R, 10, 240) << ", changes "
                            << splitChanges(R, 10, 240));
    CHECK(meanOverOptimum(R, 10, 240) <= 1.10);
    CHECK(meanOverOptimum(R, 10, 240) < meanOverOptimum(Uniform, 10, 240) - 0.3);
    // Holding between drifts: well under one change per launch.
    CHECK(splitChanges(R, 10, 240) <= 160);
  }
}

TEST_CASE("a dropped device comes back when it becomes fast", "[drift][probe]") {
  // 1000x slower (dropped: its share would be 0.1%) until launch 60, then 2x faster than the
  // other device.
  Scenario S = linearRatios("comeback", {1, 0.001});
  S.TimeVarying = true;
  S.Devices[1].Kernel = [](std::uint64_t G, std::uint64_t, std::uint64_t L) {
    return static_cast<double>(G) * Unit / (L < 60 ? 0.001 : 2.0);
  };
  Balancer B(configFor(Strategy::Broyden));
  Run R = simulate(S, B, 160);
  for (unsigned L = 2; L < 60; ++L)
    if (R.Launches[L].Purpose == LaunchPurpose::Balance)
      CHECK(R.Launches[L].Groups == std::vector<std::uint64_t>{1000, 0});
  CHECK(probes(R, 10, 60) >= 1);
  std::optional<unsigned> Back = launchesToConverge(R, 0.05, 5, 60);
  REQUIRE(Back.has_value());
  // The probe interval has doubled a few times by launch 60 (16, 32, 64...).
  CHECK(*Back <= 60 + 70);
  CHECK(B.trace(simKey(S))->Active == std::vector<bool>{true, true});
}

// Two devices sharing cores whose split pays at first (they slow each other little) and from
// launch 80 costs more than the faster device alone (they slow each other 2.6x, and a merge):
// the held split must be given up, not kept until a probe hundreds of launches later (the
// basic + pthread pair held a converged split 20-30% slower than pthread alone).
static Scenario splitStopsPaying(std::uint64_t At) {
  Scenario S;
  S.Name = "split-stops-paying";
  S.NumGroups = 1000;
  auto Model = [N = S.NumGroups, At](double Speed) {
    return [N, At, Speed](std::uint64_t Groups, std::uint64_t, std::uint64_t Launch) {
      if (Groups == 0)
        return 0.0;
      const bool Shared = Groups < N;
      const double Contention = !Shared ? 1.0 : Launch < At ? 1.1 : 2.6;
      const double Merge = Shared && Launch >= At ? 0.1 * static_cast<double>(N) * Unit : 0.0;
      return Contention * static_cast<double>(Groups) * Unit / Speed + Merge;
    };
  };
  S.Devices.push_back({"basic", Model(0.9), {}});
  S.Devices.push_back({"pthread", Model(1.0), {}});
  S.TimeVarying = true;
  return S;
}

TEST_CASE("a held split that becomes slower than a device alone is given up", "[drift][single]") {
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden})
    for (double Noise : {0.0, 0.1})
      for (std::uint32_t Seed = 1; Seed <= (Noise > 0.0 ? 5u : 1u); ++Seed) {
        Scenario S = withNoise(splitStopsPaying(80), Noise, Seed);
        Run R = runCase(S, Kind, 400);
        INFO(strategyName(Kind) << " noise " << Noise << " seed " << Seed);
        // The split paid before the change: the balancer held it.
        CHECK(R.Launches[70].TrueMakespan < 0.8 * R.Launches[70].SingleMakespan);
        // Within 120 launches of the change, and from then on, no slower than the device alone.
        std::vector<double> Ratios;
        for (std::size_t L = 200; L < R.Launches.size(); ++L)
          if (R.Launches[L].Purpose == LaunchPurpose::Balance)
            Ratios.push_back(R.Launches[L].TrueMakespan / R.Launches[L].SingleMakespan);
        REQUIRE(Ratios.size() >= 100);
        std::nth_element(Ratios.begin(), Ratios.begin() + Ratios.size() / 2, Ratios.end());
        CHECK(Ratios[Ratios.size() / 2] <= 1.05);
      }
}
