// When splitting does not pay, the balancer must end on the best single device.
#include "sim_helpers.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;
using libsplit::balancer::test::configFor;
using libsplit::balancer::test::converge;
using libsplit::balancer::test::simKey;

static KeyTrace finalTrace(const Scenario &S, Strategy Kind, unsigned Launches, Run &R) {
  Balancer B(configFor(Kind));
  R = simulate(S, B, Launches);
  return *B.trace(simKey(S));
}

TEST_CASE("a fixed transfer larger than the slow device's gain: the slow device is dropped",
          "[single]") {
  Scenario S = slowDeviceTransfer(1.2);
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    Run R;
    KeyTrace T = finalTrace(S, Kind, 300, R);
    INFO(strategyName(Kind));
    CHECK(T.Active == std::vector<bool>{true, false});
    CHECK(T.Shares == std::vector<double>{1.0, 0.0});
    CHECK(converge(R) <= (Kind == Strategy::Broyden ? 8u : 20u));
    // Probes of the dropped device back off: few of them, and cheap on average.
    CHECK(probes(R, 100, 300) <= 3);
    CHECK(meanOverSingle(R, 100, 300) <= 1.01);
  }
}

TEST_CASE("probes that move data are spaced so that they cost at most 1% of the run",
          "[single][probe]") {
  // Doubling the interval up to 512 launches alone spends about 9 / 512 of the time on probes
  // once at the cap, more before it: 1.76% over these launches (0.76% with the budget).
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    Run R;
    KeyTrace T = finalTrace(probeMovesData(), Kind, 3000, R);
    INFO(strategyName(Kind));
    CHECK(T.Active == std::vector<bool>{true, false});
    CHECK(probes(R, 100, 3000) >= 1); // still probed: conditions may change
    CHECK(meanOverSingle(R, 100, 3000) <= 1.012);
  }
}

TEST_CASE("a split that is balanced but slower than one device: the single probe finds it",
          "[single]") {
  // Both devices pay a merge whenever the range is split; the solvers balance them perfectly
  // (27% slower than the fast device alone), and only measuring the single device shows it.
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    Run R;
    KeyTrace T = finalTrace(mergeCost(), Kind, 200, R);
    INFO(strategyName(Kind));
    CHECK(T.State == "single");
    CHECK(T.Active == std::vector<bool>{true, false});
    CHECK(converge(R) <= 12);
    CHECK(meanOverSingle(R, 50, 200) <= 1.02);
  }
}

TEST_CASE("a transfer smaller than the gain: the split is kept", "[single]") {
  // The same slow device with half the fixed transfer: splitting gains 13%.
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    Run R;
    KeyTrace T = finalTrace(slowDeviceTransfer(0.6), Kind, 200, R);
    INFO(strategyName(Kind));
    CHECK(T.Active == std::vector<bool>{true, true});
    CHECK(meanOverSingle(R, 50, 200) < 0.92);
  }
}

TEST_CASE("a split that gains less than SplitGain goes to the single device", "[single]") {
  // 100:1 on 1000 groups: the slow device's 10 groups take as long as the fast device's 990,
  // so the split gains nothing; SplitGain 0 would still prefer... the single device, being
  // equal; a negative SplitGain (split preferred unless it loses) keeps the split.
  Scenario S = linearRatios("linear-100:1", {100, 1});
  Run R;
  CHECK(finalTrace(S, Strategy::Broyden, 60, R).State == "single");
  BalancerConfig KeepSplit = configFor(Strategy::Broyden);
  KeepSplit.SplitGain = -0.01;
  Balancer B(KeepSplit);
  simulate(S, B, 60);
  CHECK(B.trace(simKey(S))->State == "converged");
}

TEST_CASE("every strategy but the fixed ones probes the single device once converged",
          "[single][probe]") {
  Scenario S = linearRatios("linear-2:1", {2, 1});
  Run R;
  finalTrace(S, Strategy::Broyden, 40, R);
  unsigned Singles = 0;
  for (const LaunchRecord &L : R.Launches)
    Singles += L.Purpose == LaunchPurpose::ProbeSingle;
  // After 4 held launches, then at a doubling interval (16, 32...).
  CHECK(Singles == 2);
  Run Uniform;
  finalTrace(S, Strategy::Uniform, 40, Uniform);
  CHECK(probes(Uniform, 0, 40) == 0);
}

TEST_CASE("two equal devices on separate hardware are never probed alone", "[single][probe]") {
  // Two GPUs, each twice as slow alone as the split: their kernel costs at the split predict
  // that, so no launch moves every byte to one of them to measure it (AES on two H200s: each
  // such probe moved 1 GiB through the host, 0.8 s for a 2.3 ms launch). Two CPU runtimes on
  // the same cores (SeparateHardware false) are still measured alone: their costs at the split
  // say nothing about their time alone.
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden}) {
    INFO(strategyName(Kind));
    Scenario S = linearRatios("equal-gpus", {1.0, 1.0});
    S.MigrationPerGroup = 2.0 * Unit;
    S.SeparateHardware = true;
    Run Separate;
    finalTrace(S, Kind, 300, Separate);
    unsigned AloneProbes = 0;
    for (const LaunchRecord &L : Separate.Launches)
      AloneProbes += L.Purpose == LaunchPurpose::ProbeSingle;
    CHECK(AloneProbes == 0);
    CHECK(meanOverOptimum(Separate, 10, 300) <= 1.01);

    S.SeparateHardware = false;
    Run Shared;
    finalTrace(S, Kind, 300, Shared);
    AloneProbes = 0;
    for (const LaunchRecord &L : Shared.Launches)
      AloneProbes += L.Purpose == LaunchPurpose::ProbeSingle;
    CHECK(AloneProbes >= 1);
  }
}

TEST_CASE("a device gone alone that then moves data at every launch goes back to the split",
          "[single]") {
  // One kernel of a stencil whose other kernels stay split, on two runtimes that share cores:
  // alone, its kernel takes 1.0 where the split takes 1.6, and its probe's gather (3.0) looks
  // like a one-off. Held alone, though, each launch gathers again what the other kernels wrote
  // on the other device (1.5): 2.5 per launch. The launches alone must show it and bring the
  // split back, once, and the device alone, measured again later, is charged what it moved.
  constexpr std::uint64_t Groups = 100;
  constexpr double AtSplit = 1.6e-3, AloneKernel = 1.0e-3, ProbeGather = 3.0e-3, Gather = 1.5e-3;
  Balancer B(configFor(Strategy::FixedPoint));
  LaunchKey Key;
  Key.Kernel = "stencil.one-of-three";
  Key.Global = {Groups, 1, 1};
  unsigned HeldAlone = 0, WentAlone = 0;
  bool WasAlone = false;
  for (unsigned Launch = 0; Launch < 2000; ++Launch) {
    const Split P = B.propose(Key, Groups, 2);
    std::vector<DeviceMeasurement> Measured(2);
    const bool OneDevice = P.Slices[0].Groups == 0 || P.Slices[1].Groups == 0;
    for (std::size_t I = 0; I < 2; ++I) {
      DeviceMeasurement &M = Measured[I];
      M.Groups = P.Slices[I].Groups;
      M.FirstGroup = P.Slices[I].FirstGroup;
      if (M.Groups == 0)
        continue;
      const double Share = static_cast<double>(M.Groups) / static_cast<double>(Groups);
      M.KernelSeconds = OneDevice ? AloneKernel : AtSplit * Share / 0.5;
      if (OneDevice)
        M.TransferSeconds = P.Purpose == LaunchPurpose::ProbeSingle ? ProbeGather : Gather;
    }
    const bool HeldOnOne = OneDevice && P.Purpose == LaunchPurpose::Balance;
    HeldAlone += HeldOnOne;
    WentAlone += HeldOnOne && !WasAlone;
    WasAlone = HeldOnOne || (WasAlone && P.Purpose != LaunchPurpose::Balance);
    B.observe(Key, Measured);
  }
  const KeyTrace T = *B.trace(Key);
  CHECK(T.Active == std::vector<bool>{true, true});
  CHECK(T.AloneReversals == 1);
  CHECK(WentAlone == 1);
  CHECK(HeldAlone <= 6);
}
