// The contract the interposer relies on: propose / observe, statuses, per-key state, trace.
#include "libsplit/balancer/balancer.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace libsplit::balancer;

static LaunchKey key(const char *Kernel, std::uint64_t Global = 1024) {
  LaunchKey K;
  K.Kernel = Kernel;
  K.Global = {Global, 1, 1};
  K.Local = {64, 1, 1};
  return K;
}

// Devices of the given seconds per work-group.
static std::vector<DeviceMeasurement> measure(const Split &S, const std::vector<double> &Cost) {
  std::vector<DeviceMeasurement> M(S.Slices.size());
  for (std::size_t I = 0; I < M.size(); ++I) {
    M[I].Groups = S.Slices[I].Groups;
    M[I].FirstGroup = S.Slices[I].FirstGroup;
    M[I].KernelSeconds = static_cast<double>(M[I].Groups) * Cost[I];
  }
  return M;
}

TEST_CASE("propose is stable until observe", "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  Split First = B.propose(K, 100, 2);
  Split Again = B.propose(K, 100, 2);
  CHECK(First.Slices[0].Groups == Again.Slices[0].Groups);
  CHECK(First.Purpose == LaunchPurpose::Balance);
  CHECK(B.observe(K, measure(First, {1e-6, 2e-6})) == ObserveStatus::Accepted);
  CHECK(B.propose(K, 100, 2).Slices[0].Groups == 67);
}

TEST_CASE("keys are independent", "[api]") {
  Balancer B;
  LaunchKey Fast = key("a");
  LaunchKey Slow = key("a", 2048); // same kernel, other NDRange: another key
  B.observe(Fast, measure(B.propose(Fast, 16, 2), {1e-6, 3e-6}));
  B.observe(Slow, measure(B.propose(Slow, 32, 2), {3e-6, 1e-6}));
  CHECK(B.propose(Fast, 16, 2).Slices[0].Groups == 12);
  CHECK(B.propose(Slow, 32, 2).Slices[0].Groups == 8);
  CHECK(B.keyCount() == 2);
  CHECK_FALSE(B.trace(key("b")).has_value());
}

TEST_CASE("observe rejects what it cannot use", "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  CHECK(B.observe(K, {}) == ObserveStatus::UnknownKey);
  Split S = B.propose(K, 10, 2);
  std::vector<DeviceMeasurement> Good = measure(S, {1e-6, 1e-6});

  CHECK(B.observe(K, {Good[0]}) == ObserveStatus::Malformed);
  std::vector<DeviceMeasurement> Short = Good;
  Short[1].Groups -= 1;
  CHECK(B.observe(K, Short) == ObserveStatus::Malformed);
  std::vector<DeviceMeasurement> NaN = Good;
  NaN[0].KernelSeconds = std::numeric_limits<double>::quiet_NaN();
  CHECK(B.observe(K, NaN) == ObserveStatus::Malformed);
  std::vector<DeviceMeasurement> Negative = Good;
  Negative[1].TransferSeconds = -1.0;
  CHECK(B.observe(K, Negative) == ObserveStatus::Malformed);
  CHECK(B.trace(K)->Launches == 0);

  // Another split than the proposed one: measured, but no step taken on it.
  std::vector<DeviceMeasurement> Other = Good;
  Other[0].Groups += 1;
  Other[1].Groups -= 1;
  Other[1].FirstGroup += 1;
  CHECK(B.observe(K, Other) == ObserveStatus::Mismatch);
  CHECK(B.trace(K)->Iterations == 0);
  CHECK(B.observe(K, Good) == ObserveStatus::Accepted);
  CHECK(B.trace(K)->Launches == 2);
}

TEST_CASE("a split the caller chose instead of the proposal is held from then on", "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  Split S = B.propose(K, 10, 2);
  REQUIRE(S.Slices[0].Groups == 5);
  // The caller kept its data's cut, 6 | 4, instead of 5 | 5.
  std::vector<DeviceMeasurement> Chosen = measure(S, {1.2e-6, 0.8e-6});
  Chosen[0].Groups = 6;
  Chosen[1].Groups = 4;
  Chosen[1].FirstGroup = 6;
  CHECK(B.observe(K, Chosen, true) == ObserveStatus::Accepted);
  const Split Next = B.propose(K, 10, 2);
  CHECK(Next.Slices[0].Groups == 6);
  CHECK(Next.Slices[1].Groups == 4);
  CHECK(B.trace(K)->Converged);
  CHECK(B.trace(K)->Adoptions == 1);
  // The fixed strategies keep their shares: another split stays a mismatch.
  BalancerConfig Uniform;
  Uniform.Kind = Strategy::Uniform;
  Balancer Fixed(Uniform);
  Fixed.propose(K, 10, 2);
  CHECK(Fixed.observe(K, Chosen, true) == ObserveStatus::Mismatch);
  CHECK(Fixed.propose(K, 10, 2).Slices[0].Groups == 5);
}

TEST_CASE("an adopted split's own imbalance is no drift; a larger one is", "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  Split S = B.propose(K, 512, 2);
  // A stencil's halo makes the first device's part twice as slow at the caller's even cut, which
  // it keeps (moving the cut would move the grid): the balancer proposed another cut.
  auto measured = [](const Split &At, double FirstSlower) {
    std::vector<DeviceMeasurement> M = measure(At, {1e-7, 1e-7});
    M[0].Groups = 256;
    M[1].Groups = 256;
    M[1].FirstGroup = 256;
    M[0].KernelSeconds = 256 * 1e-7;
    M[1].KernelSeconds = 256 * 1e-7;
    M[0].TransferSeconds = FirstSlower * 256 * 1e-7;
    return M;
  };
  B.observe(K, measure(S, {2e-7, 1e-7}));
  S = B.propose(K, 512, 2);
  REQUIRE(S.Slices[0].Groups != 256);
  CHECK(B.observe(K, measured(S, 1.0), true) == ObserveStatus::Accepted);
  for (int Launch = 0; Launch < 50; ++Launch) {
    S = B.propose(K, 512, 2);
    // A probe would move half the grid: the caller's price postpones it.
    if (S.Purpose != LaunchPurpose::Balance && B.postponeProbe(K, 1.0))
      S = B.propose(K, 512, 2);
    REQUIRE(S.Slices[0].Groups == 256);
    REQUIRE(S.Purpose == LaunchPurpose::Balance);
    // The same imbalance, give or take a few percent: held, no correcting step either.
    REQUIRE(B.observe(K, measured(S, Launch % 2 ? 1.05 : 0.95)) == ObserveStatus::Accepted);
  }
  CHECK(B.trace(K)->Resumes == 0);
  CHECK(B.trace(K)->Refinements == 0);
  // The first device turns much slower: a drift, the search resumes.
  for (int Launch = 0; Launch < 3; ++Launch)
    B.observe(K, measured(B.propose(K, 512, 2), 4.0));
  CHECK(B.trace(K)->Resumes == 1);
}

TEST_CASE("a new group count or device count restarts the key", "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  B.observe(K, measure(B.propose(K, 90, 3), {1e-6, 2e-6, 4e-6}));
  CHECK(B.trace(K)->Launches == 1);
  Split Two = B.propose(K, 90, 2);
  CHECK(Two.Slices.size() == 2);
  CHECK(B.trace(K)->Launches == 0);
  CHECK(B.propose(K, 50, 2).Slices[0].Groups == 25);
}

TEST_CASE("transfer time counts: a device that moves more data is slower", "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  auto launch = [&](double Transfer) {
    std::vector<DeviceMeasurement> M = measure(B.propose(K, 100, 2), {1e-6, 1e-6});
    M[1].TransferSeconds = Transfer; // 50 groups: 3 us per group instead of 1
    M[1].BytesMoved = 4096;
    B.observe(K, M);
  };
  // The first launch's transfers bring each device its initial data: not a cost of the split.
  launch(100 * 1e-6);
  CHECK(B.propose(K, 100, 2).Slices[0].Groups == 50);
  KeyTrace First = *B.trace(K);
  CHECK(First.LastTransferSeconds[1] == 100 * 1e-6);
  CHECK(First.LastSeconds[1] == Approx(150 * 1e-6)); // the trace shows what it took
  // The same transfer at every launch of the same split is what the split costs.
  unsigned Launches = 1;
  while (B.propose(K, 100, 2).Slices[0].Groups == 50 && Launches < 8) {
    launch(100 * 1e-6);
    ++Launches;
    INFO("launch " << Launches << ": " << B.trace(K)->State);
  }
  // Held after the first launch; the imbalance must last ResumeLaunches (2) launches, measured
  // with the same split, before the search resumes.
  CHECK(Launches <= 5);
  CHECK(B.propose(K, 100, 2).Slices[0].Groups == 75);
  KeyTrace T = *B.trace(K);
  CHECK(T.LastTransferSeconds[1] == 100 * 1e-6);
  CHECK(T.LastSeconds[1] == Approx(150 * 1e-6));
  CHECK(T.LastBytesMoved[1] == 4096);
}

TEST_CASE("first weights by kind: the app's kind counts as equals, others as nothing", "[api]") {
  const unsigned long Gpu = 4, Cpu = 2;
  CHECK(weightsByKind({Gpu, Gpu, Cpu}, Gpu) == std::vector<double>{1.0, 1.0, 0.0});
  CHECK(weightsByKind({Gpu, Cpu}, Cpu) == std::vector<double>{0.0, 1.0});
  CHECK(weightsByKind({Cpu, Cpu}, Cpu) == std::vector<double>{1.0, 1.0});
  // The app's device is not among the split devices, nor any of its kind: no preference.
  CHECK(weightsByKind({Cpu, Cpu}, Gpu) == std::vector<double>{1.0, 1.0});
}

TEST_CASE("a first split from weights: the app's kind of device first, unmeasured ones dropped",
          "[api]") {
  Balancer B;
  LaunchKey K = key("k");
  // Two GPUs like the app's and a CPU guessed 1024 times slower.
  Split S = B.propose(K, 4096, 3, {1.0, 1.0, 1.0 / 1024});
  CHECK(S.Slices[0].Groups == 2047);
  CHECK(S.Slices[1].Groups == 2047);
  CHECK(S.Slices[2].Groups == 2);
  // Too few groups for the guessed share: the device is not used until a probe says it pays.
  LaunchKey Small = key("small");
  Split T = B.propose(Small, 100, 2, {1.0, 1.0 / 1024});
  CHECK(T.Slices[0].Groups == 100);
  CHECK(T.Slices[1].Groups == 0);
  // A seeded (saved) split wins over the guess; weights of the wrong size are ignored.
  LaunchKey Seeded = key("seeded");
  B.seed({{Seeded, {0.25, 0.75}}});
  CHECK(B.propose(Seeded, 100, 2, {1.0, 1.0 / 1024}).Slices[0].Groups == 25);
  CHECK(B.propose(key("wrong"), 100, 2, {1.0, 1.0, 1.0}).Slices[0].Groups == 50);
  // The fixed strategies ignore it.
  BalancerConfig UniformConfig;
  UniformConfig.Kind = Strategy::Uniform;
  Balancer U(UniformConfig);
  CHECK(U.propose(K, 100, 2, {1.0, 1.0 / 1024}).Slices[0].Groups == 50);
}

TEST_CASE("a device dropped before it ever ran is probed with one work-group", "[api][probe]") {
  // The GPU alone at first (weights by kind); the CPU, 300 times slower per group, is measured
  // by the smallest probe: 5% of the groups would hold that launch 16 times as long.
  Balancer B;
  LaunchKey K = key("unmeasured", 4096);
  const std::vector<double> Cost = {1e-6, 3e-4};
  unsigned Launches = 0;
  Split S = B.propose(K, 4096, 2, {1.0, 0.0});
  CHECK(S.Slices[1].Groups == 0);
  while (S.Purpose != LaunchPurpose::ProbeDevice && Launches++ < 64) {
    B.observe(K, measure(S, Cost));
    S = B.propose(K, 4096, 2);
  }
  REQUIRE(S.Purpose == LaunchPurpose::ProbeDevice);
  CHECK(S.Slices[1].Groups == 1);
  // Measured now: the next probe's size follows from its cost (no more than the held
  // makespan, 4.1 ms: 13.7 groups, rounded to 14), whatever ProbeShare would give (205).
  B.observe(K, measure(S, Cost));
  S = B.propose(K, 4096, 2);
  while (S.Purpose != LaunchPurpose::ProbeDevice && Launches++ < 4096) {
    B.observe(K, measure(S, Cost));
    S = B.propose(K, 4096, 2);
  }
  REQUIRE(S.Purpose == LaunchPurpose::ProbeDevice);
  CHECK(S.Slices[1].Groups == 14);
}

TEST_CASE("the trace names the states a key goes through", "[api][trace]") {
  Balancer B;
  LaunchKey K = key("k");
  Split S = B.propose(K, 1000, 2);
  KeyTrace T = *B.trace(K);
  CHECK(T.State == "initial");
  CHECK_FALSE(T.Converged);
  CHECK(T.Shares == std::vector<double>{0.5, 0.5});
  CHECK(T.Active == std::vector<bool>{true, true});

  B.observe(K, measure(S, {1e-6, 3e-6}));
  T = *B.trace(K);
  CHECK(T.State == "search");
  CHECK(T.Iterations == 1);
  CHECK(T.Shares[0] == Approx(0.75));
  CHECK(T.LastSpread == Approx(1.0)); // 0.5 ms and 1.5 ms: (1.5 - 0.5) / 1.0

  B.observe(K, measure(B.propose(K, 1000, 2), {1e-6, 3e-6}));
  T = *B.trace(K);
  CHECK(T.State == "converged");
  CHECK(T.Converged);
  CHECK(T.LastSpread == Approx(0.0).margin(1e-9));

  std::vector<std::string> States;
  for (int I = 0; I < 6; ++I) {
    Split P = B.propose(K, 1000, 2);
    States.push_back(std::string(B.trace(K)->State));
    B.observe(K, measure(P, {1e-6, 3e-6}));
  }
  // The single device is measured after 4 held launches.
  CHECK(States == std::vector<std::string>{"converged", "converged", "converged", "converged",
                                           "probe-single", "converged"});
}

TEST_CASE("uniform and static strategies never change the split", "[api]") {
  BalancerConfig Static;
  Static.Kind = Strategy::Static;
  Static.StaticShares = {0.6, 0.3, 0.1};
  Balancer B(Static);
  LaunchKey K = key("k");
  for (int I = 0; I < 5; ++I) {
    Split S = B.propose(K, 10, 3);
    CHECK(S.Slices[0].Groups == 6);
    CHECK(S.Slices[2].Groups == 1);
    B.observe(K, measure(S, {1e-6, 1e-6, 1e-6}));
  }
  CHECK(B.trace(K)->State == "fixed");
  // Shares for another device count than the machine has: uniform.
  CHECK(B.propose(key("other"), 10, 2).Slices[0].Groups == 5);
}

TEST_CASE("a single device or no work is not balanced", "[api]") {
  Balancer B;
  Split One = B.propose(key("one"), 10, 1);
  CHECK(One.Slices.size() == 1);
  CHECK(One.Slices[0].Groups == 10);
  CHECK(B.propose(key("none"), 0, 2).Slices[1].Groups == 0);
  CHECK(B.trace(key("none"))->State == "fixed");
}

TEST_CASE("beyond MaxKeys the least recently used key is forgotten", "[api]") {
  BalancerConfig Config;
  Config.MaxKeys = 2;
  Balancer B(Config);
  B.propose(key("a"), 10, 2);
  B.propose(key("b"), 10, 2);
  B.propose(key("a"), 10, 2);
  B.propose(key("c"), 10, 2);
  CHECK(B.keyCount() == 2);
  CHECK(B.trace(key("a")).has_value());
  CHECK_FALSE(B.trace(key("b")).has_value());
}

TEST_CASE("a Balancer can be moved", "[api]") {
  Balancer A;
  A.propose(key("k"), 10, 2);
  Balancer B = std::move(A);
  CHECK(B.trace(key("k")).has_value());
}
