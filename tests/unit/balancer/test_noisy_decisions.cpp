// Decisions under strong noise (15-30%, as PoCL CPU devices sharing cores show): the
// single-device probe must win when splitting does not pay, and a held split must not keep a
// persistent imbalance because the noise estimate widened the thresholds.
#include "sim_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;
using libsplit::balancer::test::configFor;
using libsplit::balancer::test::simKey;

// Noise-free (max - min) / max of the devices' times at the split of launch L.
static double trueSpread(const Scenario &S, const LaunchRecord &L) {
  double Min = 0.0;
  double Max = 0.0;
  bool Any = false;
  std::uint64_t First = 0;
  for (std::size_t I = 0; I < S.Devices.size(); ++I) {
    std::uint64_t Groups = L.Groups[I];
    if (Groups == 0)
      continue;
    double T = S.Devices[I].Kernel(Groups, First, L.Launch);
    if (S.Devices[I].Transfer)
      T += S.Devices[I].Transfer(Groups, First, L.Launch);
    First += Groups;
    Min = Any ? std::min(Min, T) : T;
    Max = Any ? std::max(Max, T) : T;
    Any = true;
  }
  return Max > 0.0 ? (Max - Min) / Max : 0.0;
}

// Median true spread over the last Last balancing launches that ran on two devices or more.
static double lastSpread(const Scenario &S, const Run &R, std::size_t Last) {
  std::vector<double> Spreads;
  for (const LaunchRecord &L : R.Launches) {
    auto Used =
        std::count_if(L.Groups.begin(), L.Groups.end(), [](std::uint64_t G) { return G > 0; });
    if (L.Purpose == LaunchPurpose::Balance && Used >= 2)
      Spreads.push_back(trueSpread(S, L));
  }
  if (Spreads.size() < Last)
    return 1.0;
  std::vector<double> Tail(Spreads.end() - static_cast<std::ptrdiff_t>(Last), Spreads.end());
  std::nth_element(Tail.begin(), Tail.begin() + static_cast<std::ptrdiff_t>(Last / 2), Tail.end());
  return Tail[Last / 2];
}

// Two CPU devices sharing the same cores, as PoCL's basic and pthread devices: split, each
// runs at about half speed and pays a merge of 0.15 N units, so the balanced split is about
// 20% slower than the faster device alone.
static Scenario sharedCores() {
  Scenario S;
  S.Name = "shared-cores";
  S.NumGroups = 1000;
  auto Model = [N = S.NumGroups](double Speed) {
    return [N, Speed](std::uint64_t Groups, std::uint64_t, std::uint64_t) {
      if (Groups == 0)
        return 0.0;
      double Contention = Groups < N ? 2.0 : 1.0;
      double Merge = Groups < N ? 0.15 * static_cast<double>(N) * Unit : 0.0;
      return Contention * static_cast<double>(Groups) * Unit / Speed + Merge;
    };
  };
  S.Devices.push_back({"basic", Model(0.9), {}});
  S.Devices.push_back({"pthread", Model(1.0), {}});
  return S;
}

// Runs fixedpoint and broyden on Clean with Noise, seeds 1 to 10, for Launches launches each, and
// hands Check each run and its final trace.
static void forEachNoisyRun(const Scenario &Clean, double Noise, unsigned Launches,
                            const std::function<void(const Run &, const KeyTrace &)> &Check) {
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden})
    for (std::uint32_t Seed = 1; Seed <= 10; ++Seed) {
      Scenario S = withNoise(Clean, Noise, Seed);
      Balancer B(configFor(Kind));
      Run R = simulate(S, B, Launches);
      INFO(Clean.Name << " " << strategyName(Kind) << " seed " << Seed);
      Check(R, *B.trace(simKey(S)));
    }
}

// Seen in real traces of the balancer: a single-device probe that was clearly faster did not make
// the balancer go single, or made it go single on the slower of two close devices.
TEST_CASE("under 15% noise a clearly faster single-device probe makes the balancer go single",
          "[single][noise]") {
  for (const Scenario &Clean : {mergeCost(), sharedCores()})
    forEachNoisyRun(Clean, 0.15, 200, [&](const Run &R, const KeyTrace &T) {
      CHECK(T.State == "single");
      CHECK(meanOverSingle(R, 40, 200) <= 1.02);
    });
}

// AES on PoCL's basic + pthread: the input reaches each device only for the slices it ran, so the
// first single-device probe also moves the other device's part of it, once. Counted as the
// device's time alone, that one-off move made the split (20% slower) look faster.
TEST_CASE("the one-off move of the other devices' data does not count against a device alone",
          "[single][noise]") {
  Scenario Clean = sharedCores();
  // About 470 units for basic's part of the data, against 1000 for pthread's kernel alone.
  Clean.MigrationPerGroup = 1.0 * Unit;
  forEachNoisyRun(Clean, 0.10, 100, [](const Run &R, const KeyTrace &T) {
    CHECK(T.State == "single");
    CHECK(T.Active == std::vector<bool>{false, true});
    // At the first comparison with the split (launch 8-17 over these seeds), not at the second
    // one, which found the data in place (27-36 when the move was charged).
    auto FirstSingle = std::find_if(R.Launches.begin(), R.Launches.end(),
                                    [](const LaunchRecord &L) { return L.State == "single"; });
    CHECK(FirstSingle - R.Launches.begin() <= 20);
    CHECK(meanOverSingle(R, 30, 100) <= 1.02);
  });
}

// Runs Kind on Noisy for Launches launches: the median true spread (from Clean, the same devices
// without noise) of the last 10 balancing launches is at most MaxSpread, and the split is held.
static void checkHeldBalance(const Scenario &Clean, const Scenario &Noisy, Strategy Kind,
                             double MaxSpread, unsigned Launches = 40) {
  Balancer B(configFor(Kind));
  Run R = simulate(Noisy, B, Launches);
  KeyTrace T = *B.trace(simKey(Noisy));
  double Spread = lastSpread(Clean, R, 10);
  INFO(Noisy.Name << " " << strategyName(Kind) << " seed " << Noisy.Seed << ": median spread "
                  << Spread << ", noise " << T.NoiseEstimate << ", spread noise "
                  << T.SpreadNoiseEstimate);
  CHECK(Spread <= MaxSpread);
  CHECK(T.Converged);
}

// With 20% independent noise per device a 10% imbalance needs 16-32 held launches to be told
// from the noise (2.5 standard errors), so no balancer can promise it within 40 launches: 7 of
// 120 seeds were still at 10.5-12% then (a search that stopped on a launch measured at 3.4% for
// a true 11%, before the noise was known). The held split's refinements (means over 8, 16, 32,
// 64 held launches) must find it by the time the statistics can.
TEST_CASE("under 20% noise a 2:1 split is balanced once the noise can be seen through",
          "[noise][hold]") {
  Scenario Clean = linearRatios("linear-2:1", {2, 1});
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden})
    for (std::uint32_t Seed = 1; Seed <= 10; ++Seed)
      checkHeldBalance(Clean, withNoise(Clean, 0.20, Seed), Kind, 0.10, 120);
}

TEST_CASE("under 30% noise a held split stays within 15%", "[noise]") {
  // The thresholds widen with the noise, but the slow path (means over the held launches)
  // keeps correcting the split.
  Scenario Clean = linearRatios("linear-2:1", {2, 1});
  for (std::uint32_t Seed = 1; Seed <= 10; ++Seed)
    checkHeldBalance(Clean, withNoise(Clean, 0.30, Seed), Strategy::Broyden, 0.15);
}

TEST_CASE("load that slows both devices alike does not widen the balance tolerance", "[noise]") {
  // A shared machine: launch to launch, both devices' times move together by up to 40%; each
  // device's own noise is 3%. The spread between devices within a launch stays precise, so the
  // held split must be as good as without the load.
  Scenario Clean = linearRatios("linear-2:1", {2, 1});
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden})
    for (std::uint32_t Seed = 1; Seed <= 10; ++Seed)
      checkHeldBalance(Clean, withSharedNoise(Clean, 0.40, 0.03, Seed), Kind, 0.05);
}
