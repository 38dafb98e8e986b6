// Probes priced before they run (Balancer::postponeProbe): a probe whose data would cross between
// the devices and back waits until ProbeBudget of the run so far pays for it.
#include "sim_helpers.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;
using libsplit::balancer::test::configFor;
using libsplit::balancer::test::simKey;

namespace {

// Seconds the run took as measured (kernels and transfers), over what every launch at the
// optimal split would have taken.
double measuredOverOptimum(const Run &R) {
  double Measured = 0.0;
  double Optimal = 0.0;
  for (const LaunchRecord &L : R.Launches) {
    Measured += L.MeasuredMakespan;
    Optimal += L.OptimalMakespan;
  }
  return Measured / Optimal;
}

Run runPriced(Scenario S, bool Priced, Strategy Kind, unsigned Launches, KeyTrace &Final) {
  S.PriceProbes = Priced;
  Balancer B(configFor(Kind));
  Run R = simulate(S, B, Launches);
  Final = *B.trace(simKey(S));
  return R;
}

} // namespace

TEST_CASE("a stencil's single-device probes wait until the run pays for the grid they move",
          "[probe][price]") {
  // Moving a group costs 20 times computing it: a probe of one GPU alone moves half the grid
  // (10,000 units), 20 held launches there and 20 back.
  const Scenario S = stencilOnEqualDevices(20.0);
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    INFO(strategyName(Kind));
    KeyTrace Unpriced, Priced;
    const Run Before = runPriced(S, false, Kind, 3000, Unpriced);
    const Run After = runPriced(S, true, Kind, 3000, Priced);
    // Unpriced, the comparisons with one device alone (a doubling interval up to 512 launches)
    // cost the run more than a tenth.
    CHECK(probes(Before, 0, 3000) >= 5);
    CHECK(measuredOverOptimum(Before) > 1.10);
    // Priced: no probe before the budget covers one (about 4,000 launches at 1%), the split held.
    CHECK(probes(After, 0, 3000) == 0);
    CHECK(Priced.PostponedProbes >= 1);
    CHECK(Priced.Active == std::vector<bool>{true, true});
    CHECK(measuredOverOptimum(After) <= 1.01);
  }
}

TEST_CASE("a priced probe runs once the run has paid for it, and spends at most the budget",
          "[probe][price]") {
  // A group's move costs 1 unit: a single probe 1,000 units there and back, 1.4 held launches
  // (700 units); the budget pays one every 143 launches, at most 28 in the run.
  const Scenario S = stencilOnEqualDevices(1.0);
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    INFO(strategyName(Kind));
    KeyTrace Final;
    const Run R = runPriced(S, true, Kind, 4000, Final);
    CHECK(probes(R, 0, 4000) >= 2); // still probed: conditions may change
    CHECK(probes(R, 0, 4000) <= 28);
    CHECK(Final.Active == std::vector<bool>{true, true});
    // The probes' moves within 1% of the run, plus the one the credit may lend at the start.
    CHECK(measuredOverOptimum(R) <= 1.012);
  }
}

TEST_CASE("cheap probes are not postponed: the comparison that finds one device faster still runs",
          "[probe][price]") {
  // The merge scenario (a balanced split 27% slower than the fast device alone) with a small
  // move per group: the single probe costs less than the credit of the launches before it.
  Scenario S = mergeCost();
  S.MigrationPerGroup = 0.001 * Unit;
  S.WritesMoveData = true;
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    INFO(strategyName(Kind));
    KeyTrace Final;
    const Run R = runPriced(S, true, Kind, 200, Final);
    CHECK(Final.State == "single");
    CHECK(Final.PostponedProbes == 0);
    CHECK(meanOverSingle(R, 50, 200) <= 1.02);
  }
}

TEST_CASE("postponeProbe leaves balancing launches alone and returns the held split instead",
          "[probe][price]") {
  Balancer B(configFor(Strategy::Broyden));
  LaunchKey Key;
  Key.Kernel = "k";
  Key.Global = {100, 1, 1};
  // Equal devices: the first split holds at once; its fifth held launch is the single probe.
  Split P = B.propose(Key, 100, 2, {}, true);
  CHECK_FALSE(B.postponeProbe(Key, 1.0)); // a balancing launch: nothing to postpone
  unsigned Launch = 0;
  for (; Launch < 20 && P.Purpose == LaunchPurpose::Balance; ++Launch) {
    std::vector<DeviceMeasurement> M(2);
    for (std::size_t I = 0; I < 2; ++I) {
      M[I].Groups = P.Slices[I].Groups;
      M[I].FirstGroup = P.Slices[I].FirstGroup;
      M[I].KernelSeconds = 1e-3 * static_cast<double>(M[I].Groups) / 50.0;
      M[I].TransferSeconds = 0.4e-3; // a halo: one device alone is worth measuring
    }
    REQUIRE(B.observe(Key, M) == ObserveStatus::Accepted);
    P = B.propose(Key, 100, 2, {}, true);
  }
  REQUIRE(P.Purpose == LaunchPurpose::ProbeSingle);
  CHECK(B.postponeProbe(Key, 10.0));
  const Split Held = B.propose(Key, 100, 2, {}, true);
  CHECK(Held.Purpose == LaunchPurpose::Balance);
  CHECK(Held.Slices[0].Groups == 50);
  CHECK(Held.Slices[1].Groups == 50);
  CHECK(B.trace(Key)->PostponedProbes == 1);
  CHECK_FALSE(B.postponeProbe(LaunchKey{}, 10.0)); // an unknown key
}
