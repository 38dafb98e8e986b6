// The split guard on the patterns that made real apps slower than native (measured on public
// apps, 2026-11-25), with made-up but proportionate costs: each scenario gives the cost of a
// launch split and whole, and the test runs the guard's decisions against them.
#include "libsplit/planner/split_guard.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <vector>

using namespace libsplit::planner;

namespace {

struct Scenario {
  // Seconds of one launch run this way (Cold: the first launch this way since the other ran).
  std::function<double(Mode, bool Cold, double Work)> Cost;
  // The app's device's slice scaled to the whole launch, when the devices share no hardware.
  std::function<double(double Work)> Inferred;
  PricedBytes FirstBytes;
  // What a split would move at later launches priced (a kernel that never split); FirstBytes when
  // not given.
  std::function<PricedBytes(double Work)> Priced;
};

struct Run {
  double Seconds = 0.0;
  double AllWhole = 0.0; // the same launches, every one whole (what native costs)
  double AllSplit = 0.0;
  unsigned Split = 0, Whole = 0;
  unsigned Measured = 0; // launches the guard wanted measured
  std::vector<Mode> Modes;
  std::vector<bool> MeasuredAt;
  std::vector<bool> SpreadsAt; // the decision said its split spreads the data first
  std::vector<bool> JoinedAt;  // ... that it joins another kernel's spread probe
};

Run run(SplitGuard &Guard, const Scenario &S, const std::vector<double> &Works) {
  Run R;
  for (double Work : Works) {
    std::optional<PricedBytes> Bytes;
    if (Guard.needsPrice())
      Bytes = S.Priced && !R.Modes.empty() ? S.Priced(Work) : S.FirstBytes;
    const Decision D = Guard.decide(Work, Bytes);
    const double Seconds = S.Cost(D.Launch.Run, D.Launch.Cold, Work);
    if (D.Launch.Measured) {
      Guard.observe(D.Launch, Work, Seconds);
      ++R.Measured;
    }
    if (D.Launch.Run == Mode::Split && S.Inferred)
      Guard.observeInferredWhole(Work, S.Inferred(Work));
    R.Seconds += Seconds;
    R.AllWhole += S.Cost(Mode::Whole, false, Work);
    R.AllSplit += S.Cost(Mode::Split, false, Work);
    ++(D.Launch.Run == Mode::Split ? R.Split : R.Whole);
    R.Modes.push_back(D.Launch.Run);
    R.MeasuredAt.push_back(D.Launch.Measured);
    R.SpreadsAt.push_back(D.Spreads);
    R.JoinedAt.push_back(D.Joined);
  }
  return R;
}

std::vector<double> repeated(double Work, int Launches) {
  return std::vector<double>(Launches, Work);
}

} // namespace

TEST_CASE("a stencil whose split costs synchronisation runs whole after a few launches",
          "[planner][guard]") {
  // Two identical GPUs, 70 us kernels: the slices take 35 us each, but the split launch takes
  // 4.9 ms (halos through the host, waiting for both); the app's slice says 70 us alone.
  Scenario S;
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? 20e-3 : 4.9e-3) : (Cold ? 1e-3 : 70e-6);
  };
  S.Inferred = [](double) { return 70e-6; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 2000));
  CHECK(R.Split <= 2); // the first launch and its warm repeat, no probe within the budget
  for (std::size_t I = 4; I < R.Modes.size(); ++I)
    REQUIRE(R.Modes[I] == Mode::Whole);
}

TEST_CASE("a compute-bound kernel that splits well never runs whole", "[planner][guard]") {
  // EP on two GPUs: half the time split, and the app's slice says twice that alone.
  Scenario S;
  S.Cost = [](Mode M, bool, double Work) { return (M == Mode::Split ? 0.51 : 1.0) * Work * 1e-9; };
  S.Inferred = [](double Work) { return Work * 1e-9; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e9, 300));
  // Never whole to compare (the slice says), except a probe the budget allows now and then.
  for (std::size_t I = 0; I < 100; ++I)
    REQUIRE(R.Modes[I] == Mode::Split);
  CHECK(R.Whole <= 2);
  CHECK(R.Seconds <= 1.01 * R.AllSplit);
}

TEST_CASE("a one-launch kernel splits at once when its data costs no more to move",
          "[planner][guard]") {
  SplitGuard Guard;
  const Decision D = Guard.decide(1e9, PricedBytes{0.0, 0.0});
  CHECK(D.Launch.Run == Mode::Split);
  CHECK_FALSE(D.Settled);
  SplitGuard Chained; // the second of two products: each device lacks half its input, as whole
  CHECK(Chained.decide(1e9, PricedBytes{32e6, 32e6}).Launch.Run == Mode::Split);
}

TEST_CASE("a one-launch kernel whose split would move the matrix runs whole", "[planner][guard]") {
  // Kernel 2 of a row/column pair: the column split needs every row on both GPUs (1 GiB).
  SplitGuard Guard;
  const Decision D = Guard.decide(1e9, PricedBytes{1073741824.0, 0.0});
  CHECK(D.Launch.Run == Mode::Whole);
}

TEST_CASE("a factorization whose NDRange shrinks every step runs whole", "[planner][guard]") {
  // LU-style: the trailing block shrinks by a row and a column each step; every split re-cuts
  // it and moves rows between the devices (a transfer in proportion to the block), plus a fixed
  // synchronisation; the kernel itself scales with the block.
  const int N = 1024;
  std::vector<double> Works;
  for (int K = 1; K < N; ++K)
    Works.push_back(static_cast<double>(N - K) * (N - K));
  Scenario S;
  S.Cost = [](Mode M, bool Cold, double Work) {
    const double Kernel = 10e-6 + Work * 1e-10;
    if (M == Mode::Whole)
      return Kernel + (Cold ? Work * 4e-9 : 0.0);
    return 200e-6 + Kernel / 2 + Work * 2e-9;
  };
  S.Inferred = [](double Work) { return 10e-6 + Work * 1e-10; };
  SplitGuard Guard;
  const Run R = run(Guard, S, Works);
  CHECK(R.Split <= 5);
  CHECK(R.Modes[1] == Mode::Whole); // the first split took 20x the app's slice: not repeated
  // Beyond the first split and the gather after it, within 3% of running whole throughout (the
  // probe budget, 1%, and the probe it lets run ahead while the fixed cost of a split is unknown).
  const double FirstCosts =
      S.Cost(Mode::Split, true, Works[0]) + S.Cost(Mode::Whole, true, Works[1]);
  CHECK(R.Seconds <= 1.03 * R.AllWhole + FirstCosts);
}

TEST_CASE("two runtimes sharing cores: the split's contention is measured, not inferred",
          "[planner][guard]") {
  // PoCL's basic and pthread on two cores: N-body split 13.8 ms, pthread alone 11.75 ms; no
  // inference from a slice (the devices slow each other down).
  Scenario S;
  S.Cost = [](Mode M, bool Cold, double) {
    return (M == Mode::Split ? 13.8e-3 : 11.75e-3) + (Cold ? 5e-3 : 0.0);
  };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(4e6, 1000));
  CHECK(R.Split <= 16);
  CHECK(R.Seconds <= 1.02 * R.AllWhole);
  for (std::size_t I = 4; I < 16; ++I)
    REQUIRE(R.Modes[I] == Mode::Whole);
}

TEST_CASE("a split that pays is found even where nothing can be inferred", "[planner][guard]") {
  Scenario S;
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 6e-3 : 10e-3; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 500));
  CHECK(R.Whole <= 2 + 2 * 6); // the first comparison, then a probe now and then
  CHECK(R.Seconds <= 1.03 * R.AllSplit);
}

TEST_CASE("probes of the losing way stay within the budget", "[planner][guard]") {
  Scenario S;
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 2e-3 : 1e-3; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 20000));
  // Beyond the first four launches, what the probes lost is within 1% of the run (plus one
  // probe's worth that the budget allows ahead).
  CHECK(R.Seconds - R.AllWhole <= 0.01 * R.AllWhole + 2 * 2e-3 + 2e-3);
}

TEST_CASE("a split that stops paying is dropped", "[planner][guard]") {
  // The data starts to move every launch after a while (a boundary that drifts).
  Scenario S;
  int Launch = 0;
  S.Cost = [&Launch](Mode M, bool, double) {
    return M == Mode::Split ? (Launch < 100 ? 0.6e-3 : 3e-3) : 1e-3;
  };
  S.Inferred = [](double) { return 1e-3; };
  SplitGuard Guard;
  std::vector<Mode> Modes;
  for (Launch = 0; Launch < 300; ++Launch) {
    const Decision D = Guard.decide(1e6, PricedBytes{});
    Guard.observe(D.Launch, 1e6, S.Cost(D.Launch.Run, D.Launch.Cold, 1e6));
    if (D.Launch.Run == Mode::Split)
      Guard.observeInferredWhole(1e6, 1e-3);
    Modes.push_back(D.Launch.Run);
  }
  CHECK(Modes[50] == Mode::Split);
  CHECK(Modes[299] == Mode::Whole);
}

TEST_CASE("sizes where splitting pays split, the small ones run whole", "[planner][guard]") {
  // A fixed cost of 1 ms per split launch: it pays only on large launches.
  Scenario S;
  S.Cost = [](Mode M, bool, double Work) {
    return M == Mode::Split ? 1e-3 + Work * 0.5e-9 : Work * 1e-9;
  };
  S.Inferred = [](double Work) { return Work * 1e-9; };
  SplitGuard Guard;
  std::vector<double> Works;
  for (int I = 0; I < 400; ++I)
    Works.push_back(I % 2 ? 1e5 : 1e8); // 0.1 ms and 100 ms launches alternate
  const Run R = run(Guard, S, Works);
  unsigned LargeSplit = 0, SmallWhole = 0;
  for (std::size_t I = 40; I < Works.size(); ++I) {
    LargeSplit += Works[I] > 1e6 && R.Modes[I] == Mode::Split;
    SmallWhole += Works[I] < 1e6 && R.Modes[I] == Mode::Whole;
  }
  CHECK(LargeSplit >= 170); // of 180: probes of the other way aside
  CHECK(SmallWhole >= 170);
}

TEST_CASE("a compute-bound kernel whose first launch ran whole splits once priced",
          "[planner][guard]") {
  // EP on two GPUs whose output's old contents lie on the app's GPU only: the first launch runs
  // whole (the split would move 8 MB), the whole launch's 29 ms priced at half plus 1 ms of
  // transfer says split.
  Scenario S;
  S.FirstBytes = PricedBytes{8e6, 0.0, 0.5};
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? 15e-3 + (Cold ? 1e-3 : 0.0) : 29e-3;
  };
  S.Inferred = [](double) { return 29e-3; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e9, 10));
  CHECK(R.Modes[0] == Mode::Whole);
  for (std::size_t I = 3; I < R.Modes.size(); ++I)
    REQUIRE(R.Modes[I] == Mode::Split);
  CHECK(R.Seconds <= 0.65 * R.AllWhole);
}

TEST_CASE("a short kernel whose split would move data is never tried by price",
          "[planner][guard]") {
  // jacobi-2d-style, 30 us kernels, the grid's other half on the app's GPU only (8 MiB).
  Scenario S;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  S.Priced = [](double) { return PricedBytes{16384.0, 0.0, 0.5}; };
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 2e-3 : 30e-6; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(4e6, 400));
  CHECK(R.Split == 0);
}

TEST_CASE("a kernel settled on running whole is priced only now and then", "[planner][guard]") {
  // Pricing a split costs the launch its full planning: a short kernel that runs whole must not
  // pay it at every launch once a probe was due but did not fit the budget.
  Scenario S;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  S.Priced = [](double) { return PricedBytes{16384.0, 0.0, 0.5}; };
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 2e-3 : 30e-6; };
  SplitGuard Guard;
  unsigned Priced = 0, SettledWhole = 0;
  for (int I = 0; I < 4000; ++I) {
    SettledWhole += Guard.settledWhole(4e6);
    std::optional<PricedBytes> Bytes;
    if (Guard.needsPrice()) {
      ++Priced;
      Bytes = I == 0 ? S.FirstBytes : S.Priced(4e6);
    }
    const Decision D = Guard.decide(4e6, Bytes);
    Guard.observe(D.Launch, 4e6, S.Cost(D.Launch.Run, D.Launch.Cold, 4e6));
  }
  CHECK(Priced <= 12); // the first launches, then at doubling intervals
  CHECK(SettledWhole >= 4000 - 2 * Priced - 8);
}

TEST_CASE("devices that share hardware: the first launch runs whole, a split is only measured",
          "[planner][guard]") {
  // PoCL's basic and pthread on two cores: nothing moves, but a split cannot beat pthread alone,
  // which already uses both cores; EP's ten launches.
  Scenario S;
  S.FirstBytes = PricedBytes{0.0, 0.0, 0.5, true};
  S.Priced = [](double) { return PricedBytes{0.0, 0.0, 0.5, true}; };
  S.Cost = [](Mode M, bool Cold, double) {
    return (M == Mode::Split ? 36e-3 : 28e-3) + (Cold && M == Mode::Split ? 0.2 : 0.0);
  };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 30));
  CHECK(R.Split == 0); // a first probe is budgeted at the launch's time twice: not in 30 launches
  SplitGuard Longer;   // over a longer run, a probe measures the split now and then
  const Run L = run(Longer, S, repeated(1e6, 2000));
  CHECK(L.Split >= 2);
  CHECK(L.Seconds <= 1.02 * L.AllWhole);
}

TEST_CASE("a kernel settled on running whole is measured less often the better it is predicted",
          "[planner][guard]") {
  // Measuring a launch costs a profiled event (on NVIDIA about as much as the launch): between
  // samples the guard counts a settled whole launch at its predicted cost, and still probes
  // within its budget. Samples the model predicts make them rarer: one in eight at first, at
  // most one in 256.
  Scenario S;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 2e-3 : 100e-6; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 8000));
  CHECK(R.Whole >= 8000 - 40);
  CHECK(R.Measured >= 8000 / 256);
  CHECK(R.Measured <= 8000 / 256 + 60);
  // Probes still come (the unmeasured launches count toward the budget): each one a split.
  CHECK(R.Split >= 4);
  CHECK(R.Seconds - R.AllWhole <= 0.01 * R.AllWhole + 3 * 2e-3);
}

TEST_CASE("a settled kernel of a few microseconds is measured rarely however noisy",
          "[planner][guard]") {
  // jacobi-1d-style 12 us kernels whose times vary by a quarter from launch to launch: no
  // sample lands within 15% often enough to space the samples out, but none is off by enough
  // to change a decision.
  Scenario S;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  std::uint32_t Noise = 1;
  S.Cost = [&Noise](Mode M, bool, double) {
    Noise = Noise * 1664525u + 1013904223u;
    return M == Mode::Split ? 2e-3 : 12e-6 * (Noise >> 31 ? 0.75 : 1.25);
  };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 8000));
  CHECK(R.Measured <= 8000 / 256 + 60);
}

TEST_CASE("a settled kernel whose time changes is sampled one launch in eight again",
          "[planner][guard]") {
  Scenario S;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  double Slower = 1.0;
  S.Cost = [&Slower](Mode M, bool, double) { return M == Mode::Split ? 20e-3 : Slower * 100e-6; };
  SplitGuard Guard;
  const Run Before = run(Guard, S, repeated(1e6, 4000));
  const auto measured = [](const Run &R, int From, int To) {
    return std::count(R.MeasuredAt.begin() + From, R.MeasuredAt.begin() + To, true);
  };
  CHECK(measured(Before, 3000, 4000) <= 1000 / 256 + 4); // and a probe (split, whole again)
  Slower = 3.0;
  const Run After = run(Guard, S, repeated(1e6, 400));
  // The first sample after the change is a surprise: sampling goes back to one in eight until
  // the model follows.
  CHECK(measured(After, 0, 400) >= 400 / 16);
}

TEST_CASE("devices that share hardware: a first probe waits until its build is affordable",
          "[planner][guard]") {
  // A CFD-style loop of 10 us kernels on PoCL's basic and pthread: the first split would first
  // build the partition-ready program on the cores the app's device runs on (80 ms). Counted in
  // the probe's loss, no probe comes within 20,000 launches (0.2 s); not counted, one came within
  // the first few milliseconds.
  Scenario S;
  S.FirstBytes = PricedBytes{0.0, 0.0, 0.5, true, 0.08};
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 14e-6 : 10e-6; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e5, 20000));
  CHECK(R.Split == 0);
  Scenario Free = S;
  Free.FirstBytes.FirstSplitSeconds = 0.0;
  SplitGuard Unaware;
  const Run U = run(Unaware, Free, repeated(1e5, 20000));
  CHECK(U.Split >= 1);
  // Over a run long enough to pay for the build (1% of 8 s), the split is measured all the same.
  SplitGuard Longer;
  const Run L = run(Longer, S, repeated(1e5, 1200000));
  CHECK(L.Split >= 1);
}

TEST_CASE("an app that queues its launches before any ran is not probed blind",
          "[planner][guard]") {
  // jacobi-1d-style on two GPUs: 12 us kernels the app queues a thousand at a time, so no whole
  // launch has a time yet when the first probe falls due. Unpriced, the probe's split took 5 ms
  // (a chunked launch and its warm repeat).
  Scenario S;
  S.FirstBytes = PricedBytes{2e6, 0.0, 0.5};
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? 5e-3 : 0.4e-3) : 12e-6;
  };
  SplitGuard Guard;
  unsigned Splits = 0;
  std::vector<std::pair<Ticket, double>> Unseen; // whole launches not measured yet
  for (int I = 0; I < 1000; ++I) {
    std::optional<PricedBytes> Bytes;
    if (Guard.needsPrice())
      Bytes = S.FirstBytes;
    const Decision D = Guard.decide(1e6, Bytes);
    const double Seconds = S.Cost(D.Launch.Run, D.Launch.Cold, 1e6);
    if (D.Launch.Run == Mode::Split) {
      ++Splits;
      Guard.observe(D.Launch, 1e6, Seconds); // a split is waited for
    } else if (D.Launch.Measured) {
      Unseen.emplace_back(D.Launch, Seconds);
    }
  }
  CHECK(Splits == 0);
  // Once the times come, the price is known: a split that moves 2 MB for a 12 us kernel is
  // still not tried within the budget.
  for (const auto &[Launch, Seconds] : Unseen)
    Guard.observe(Launch, 1e6, Seconds);
  const Run After = run(Guard, S, repeated(1e6, 2000));
  CHECK(After.Split == 0);
}

TEST_CASE("a probe whose first split lost more than its budget is not repeated",
          "[planner][guard]") {
  // An FFT-style butterfly merged by diff: priced at about its whole launch (no bytes to move
  // for its regions), the probe's first split took half a second against 0.3 ms whole.
  Scenario S;
  S.Cost = [](Mode M, bool Cold, double) { return M == Mode::Split ? (Cold ? 0.5 : 0.45) : 1e-3; };
  S.FirstBytes = PricedBytes{4e6, 0.0, 0.5}; // first launch whole
  S.Priced = [](double) { return PricedBytes{0.0, 0.0, 0.5}; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 400));
  REQUIRE(R.Split >= 1); // the probe the price allowed
  CHECK(R.Split == 1);   // its repeat not run
  CHECK(R.Seconds <= R.AllWhole + 0.5 + 0.01);
}

TEST_CASE("launches queued faster than they run are measured one at a time", "[planner][guard]") {
  // A CFD-style loop of 10 us kernels the app queues far ahead: a measured launch's time comes
  // 100 launches after its decision. Every launch measured until then would each go through the
  // queue's executor.
  SplitGuard Guard;
  const PricedBytes Moves{8388608.0, 0.0, 0.5};
  std::deque<std::pair<Ticket, int>> Pending; // a measured launch and when its time comes
  unsigned Measured = 0, MeasuredEarly = 0;
  for (int I = 0; I < 4000; ++I) {
    while (!Pending.empty() && Pending.front().second <= I) {
      Guard.observe(Pending.front().first, 1e5, 10e-6);
      Pending.pop_front();
    }
    const Decision D = Guard.decide(1e5, Guard.needsPrice() ? std::optional(Moves) : std::nullopt);
    REQUIRE(D.Launch.Run == Mode::Whole);
    if (D.Launch.Measured) {
      ++Measured;
      MeasuredEarly += I < 100;
      Pending.emplace_back(D.Launch, I + 100);
    }
  }
  CHECK(MeasuredEarly <= 3); // the first launch, its repeat, then one at a time
  CHECK(Measured <= 4000 / 100 + 8);
}

TEST_CASE("a settled kernel whose split was never priced is priced, then probed",
          "[planner][guard]") {
  // The runtime's way: a settled whole launch goes through settledWhole/decideWhole, and
  // decide() gets the bytes only when needsPrice(). The first launch's bytes keep it whole
  // (its data on the app's device), the times come five launches late (queued ahead), and a
  // split, once its data spread, runs at half the time.
  Scenario S;
  S.Cost = [](Mode M, bool Cold, double) { return M == Mode::Split ? (Cold ? 3e-3 : 1e-3) : 2e-3; };
  const PricedBytes First{8388608.0, 0.0, 0.5}, Later{0.0, 0.0, 0.5};
  SplitGuard Guard;
  std::deque<std::pair<Ticket, int>> Pending;
  unsigned Splits = 0;
  for (int I = 0; I < 5000; ++I) {
    while (!Pending.empty() && Pending.front().second <= I) {
      Guard.observe(Pending.front().first, 1e6,
                    S.Cost(Pending.front().first.Run, Pending.front().first.Cold, 1e6));
      Pending.pop_front();
    }
    Decision D;
    if (Guard.settledWhole(1e6))
      D = Guard.decideWhole(1e6);
    else
      D = Guard.decide(1e6,
                       Guard.needsPrice() ? std::optional(I == 0 ? First : Later) : std::nullopt);
    if (D.Launch.Run == Mode::Split) {
      ++Splits;
      Guard.observe(D.Launch, 1e6, S.Cost(Mode::Split, D.Launch.Cold, 1e6)); // waited for
    } else if (D.Launch.Measured) {
      Pending.emplace_back(D.Launch, I + 5);
    }
  }
  CHECK(Splits >= 4500);
}

TEST_CASE("a probe whose cold launch pays a first use is repeated warm", "[planner][guard]") {
  // 2 ms whole; a split priced at about that, whose first launch pays 6.3 ms of first use (a
  // module's load, the data's first spread: many times the probe's budget, under four whole
  // launches) and whose later ones take 1.2 ms.
  Scenario S;
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? 7.5e-3 : 1.2e-3) : 2e-3;
  };
  S.FirstBytes = PricedBytes{4e6, 0.0, 0.5}; // first launch whole
  S.Priced = [](double) { return PricedBytes{6e6, 0.0, 0.5}; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 400));
  // The probe's warm repeat shows the split cheaper: from then on it splits.
  CHECK(R.Split >= 300);
  // A probe within the probe budget spreads nothing beyond it.
  CHECK(std::count(R.SpreadsAt.begin(), R.SpreadsAt.end(), true) == 0);
}

namespace {

// A 1 ms kernel on two GPUs opened mid-run, its 512 MiB grid on the app's GPU alone: a split's
// first launch takes ColdSplit, its later ones WarmSplit.
constexpr double GridBytes = 536870912.0;
const double GridSpread = GridBytes / GuardSettings().LinkBytesPerSecond;

Run runGridSpread(double ColdSplit, double WarmSplit, double RunCredit = 0.0,
                  int Launches = 12000) {
  Scenario S;
  S.FirstBytes = PricedBytes{GridBytes, 0.0, 0.5};
  S.Cost = [=](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? ColdSplit : WarmSplit) : 1e-3;
  };
  S.Inferred = [](double) { return 1e-3; };
  SplitGuard Guard;
  Guard.creditExpectedRun(RunCredit);
  return run(Guard, S, repeated(1e8, Launches));
}

// The same stencil, each whole launch's time coming back Lag launches after it was decided (an app
// that queues about a second of launches ahead of its GPU): the guard decides blind until then.
// StartWhole: the launch whole's time measured before the guard's first decision (its first
// launch in chunks on the app's device alone), or none.
Run runGridSpreadLagged(double RunCredit, std::size_t Lag, int Launches,
                        std::optional<double> StartWhole = std::nullopt) {
  SplitGuard Guard;
  Guard.creditExpectedRun(RunCredit);
  if (StartWhole)
    Guard.startFromWholeTime(1e8, *StartWhole);
  const PricedBytes Bytes{GridBytes, 0.0, 0.5};
  struct Pending {
    std::size_t Due;
    Ticket Launch;
    double Seconds;
  };
  std::deque<Pending> Times;
  Run R;
  for (std::size_t I = 0; I < static_cast<std::size_t>(Launches); ++I) {
    for (; !Times.empty() && Times.front().Due <= I; Times.pop_front()) {
      Guard.observe(Times.front().Launch, 1e8, Times.front().Seconds);
      if (Times.front().Launch.Run == Mode::Split)
        Guard.observeInferredWhole(1e8, 1e-3);
    }
    const Decision D = Guard.decide(1e8, Guard.needsPrice() ? std::optional(Bytes) : std::nullopt);
    const double Seconds =
        D.Launch.Run == Mode::Split ? (D.Launch.Cold ? 0.55e-3 + GridSpread : 0.55e-3) : 1e-3;
    // A split is waited for before the next decision (the runtime needs its slices' times).
    if (D.Launch.Measured) {
      const Pending Time{D.Launch.Run == Mode::Split ? I + 1 : I + Lag, D.Launch, Seconds};
      Times.insert(
          std::upper_bound(Times.begin(), Times.end(), Time,
                           [](const Pending &A, const Pending &B) { return A.Due < B.Due; }),
          Time);
    }
    R.Seconds += Seconds;
    R.AllWhole += 1e-3;
    ++(D.Launch.Run == Mode::Split ? R.Split : R.Whole);
    R.Modes.push_back(D.Launch.Run);
  }
  return R;
}

} // namespace

TEST_CASE("a guard whose launches' times come back late checks for a probe as often meanwhile",
          "[planner][guard]") {
  // The stencil after a run that funds its spread, its whole launches' times 520 launches late:
  // the checks before the first time came priced nothing and back off no further, so the spread
  // comes at the first check after it. (Doubled each time, the checks had reached a 256-launch
  // interval by then, the last blind one at launch 502, and the spread waited until about launch
  // 1,020: on two H200s, a 3000-step jacobi-2d's first run spread at step 1,013.)
  const Run R = runGridSpreadLagged(4.5, 520, 2000);
  const auto First = std::find(R.Modes.begin(), R.Modes.end(), Mode::Split) - R.Modes.begin();
  CHECK(First >= 520);
  CHECK(First <= 560);
}

TEST_CASE("a guard starts from the whole time its kernel's first launch measured in chunks",
          "[planner][guard]") {
  // An app that queues its whole run ahead of its GPU: no launch's time comes back before its
  // end (on two H200s, a 1000-step jacobi-2d's first run decided all its launches blind and
  // never spread, though the work it queued funded the spread). Its first launch ran in chunks
  // on the app's GPU while the second opened: from that time, 5% over the warm launch's, the
  // guard prices the spread at its first probe checks.
  const Run Seeded = runGridSpreadLagged(4.5, 100000, 2000, 1.05e-3);
  const auto First =
      std::find(Seeded.Modes.begin(), Seeded.Modes.end(), Mode::Split) - Seeded.Modes.begin();
  CHECK(First <= 40);
  CHECK(Seeded.Split >= 1900);
  const Run Blind = runGridSpreadLagged(4.5, 100000, 2000);
  CHECK(Blind.Split == 0);
  // Only where it knows no whole time: a guard that measured the launch whole keeps its own.
  SplitGuard Guard;
  Guard.observeInferredWhole(1e8, 1e-3);
  Guard.startFromWholeTime(1e8, 5e-3);
  REQUIRE(Guard.predict(Mode::Whole, 1e8));
  CHECK(*Guard.predict(Mode::Whole, 1e8) == Approx(1e-3));
}

TEST_CASE("a large stencil whose grid must first spread splits once the run has paid for it",
          "[planner][guard]") {
  // jacobi-2d-style: 0.55 ms split once each GPU holds its half; until then a split must first
  // take the grid's half to the second GPU (67 ms at the assumed link), far over the probe
  // budget of any one interval.
  const Run R = runGridSpread(0.55e-3 + GridSpread, 0.55e-3);
  CHECK(R.Split >= 5000);
  CHECK(R.Seconds <= 0.85 * R.AllWhole);
  // Not before the run had lasted long enough for the spread, there and back, to fit its budget.
  const auto First = std::find(R.Modes.begin(), R.Modes.end(), Mode::Split) - R.Modes.begin();
  CHECK(static_cast<double>(First) * 1e-3 * GuardSettings().SpreadBudget >= 2.0 * GridSpread);
  // That probe says it spreads the grid (the runtime then runs it as a split, not in chunks a
  // device joins only where its bytes arrive in time); its warm repeat and later splits do not.
  CHECK(R.SpreadsAt[First]);
  CHECK(std::count(R.SpreadsAt.begin(), R.SpreadsAt.end(), true) == 1);
}

TEST_CASE("a stencil's grid spreads early where an earlier run of the app lasted long enough",
          "[planner][guard]") {
  // The same stencil, 2,000 launches (2 s whole), in a run after one that waited 4.5 s for its
  // device: the spread there and back (0.134 s at the assumed link) fits SpreadBudget of the run
  // expected, not only of the run so far, and the grid spreads at the first probe check instead
  // of after about 4,500 launches.
  const Run R = runGridSpread(0.55e-3 + GridSpread, 0.55e-3, 4.5, 2000);
  const auto First = std::find(R.Modes.begin(), R.Modes.end(), Mode::Split) - R.Modes.begin();
  CHECK(First <= 40);
  CHECK(R.SpreadsAt[First]);
  CHECK(R.Split >= 1900);
  CHECK(R.Seconds <= 0.7 * R.AllWhole);
  // Once: a spread dropped is not paid for again from the credit (probed again only within the
  // budget of the run so far, as without it).
  CHECK(std::count(R.SpreadsAt.begin(), R.SpreadsAt.end(), true) == 1);
  // After a run twice as long, a spread 20% over its price (the link's real rate differs from
  // the one assumed) is still repeated warm: it fits what the spread's budget left, though the
  // probe budget of the run so far is nearly nothing this early.
  const Run Over = runGridSpread(1.2 * GridSpread + 0.55e-3, 0.55e-3, 9.0, 2000);
  CHECK(Over.Split >= 1900);
  // Without the earlier run, this run is over before the spread fits its budget.
  const Run Cold = runGridSpread(0.55e-3 + GridSpread, 0.55e-3, 0.0, 2000);
  CHECK(Cold.Split == 0);
  // An earlier run too short for the spread: no spread sooner than without it.
  const Run Short = runGridSpread(0.55e-3 + GridSpread, 0.55e-3, 1.0, 2000);
  CHECK(Short.Split == 0);
}

TEST_CASE("a split that must spread its grid again is probed again only within the budget",
          "[planner][guard]") {
  // A 1 ms kernel on two GPUs opened mid-run, its 512 MiB grid on the app's GPU alone, the split
  // as long as the launch whole once spread: one spread probe and its warm repeat once the run
  // has paid for the spread, then whole again (which gathers the grid back). A later probe
  // spreads it again: its loss counts that, measured by the first probe, so probes stay within
  // the budget (counted without it, a probe every 1024 launches spread the grid each time: 6%
  // of the run).
  Scenario S;
  S.FirstBytes = PricedBytes{GridBytes, 0.0, 0.5};
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? 1e-3 + GridSpread : 1e-3) : 1e-3;
  };
  S.Inferred = [](double) { return 1e-3; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e8, 40000));
  CHECK(R.Split >= 2); // the spread probe ran
  CHECK(R.Seconds <= (1.0 + GuardSettings().ProbeBudget) * R.AllWhole + 2.0 * GridSpread);
}

TEST_CASE("a kernel's first launch's one-time cost does not hold its probes back",
          "[planner][guard]") {
  // The first launch runs whole (the split would move 8 MiB) and pays a one-time second (a
  // build inside it); whole then takes 1 ms, the split is priced dearer (its bytes) but runs
  // 0.6 ms. A probe's loss counts coming back to whole at what a whole launch after a split
  // costs beyond a warm one, not that first second, which does not recur (priced with it, no
  // probe would fit 1% of this 20 s run): the probe runs and the kernel splits.
  Scenario S;
  bool FirstDone = false;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  S.Cost = [&](Mode M, bool, double) {
    if (!FirstDone) {
      FirstDone = true;
      return 1.0;
    }
    return M == Mode::Whole ? 1e-3 : 0.6e-3;
  };
  S.Inferred = [](double) { return 1e-3; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e6, 20000));
  CHECK(R.Modes[0] == Mode::Whole);
  CHECK(R.Split >= 15000);
}

TEST_CASE("a spread probe whose first split overran its price is not repeated",
          "[planner][guard]") {
  // Priced as the stencil above, but the first split takes eight times its spread's price (an
  // FFT-style kernel whose slices are merged by difference, its later splits five times its
  // whole launch): its warm repeat is dropped.
  const Run R = runGridSpread(8.0 * GridSpread, 5e-3);
  CHECK(R.Split == 1);
}

TEST_CASE("a split whose bytes move every launch costs one spread probe at most",
          "[planner][guard]") {
  // The row-then-column matrix pair: every split moves the 1 GiB matrix again (the other kernel
  // reads it the other way), where the priced spread says once.
  Scenario S;
  const double Move = 1073741824.0 / GuardSettings().LinkBytesPerSecond;
  S.FirstBytes = PricedBytes{1073741824.0, 0.0, 0.5};
  S.Cost = [Move](Mode M, bool, double) { return M == Mode::Split ? 2e-3 + Move : 4e-3; };
  S.Inferred = [](double) { return 4e-3; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(1e8, 5000));
  // One probe: its launch, the next (its data just spread, still paying first uses), a warm one.
  CHECK(R.Split <= 3);
  CHECK(R.Seconds <= 1.05 * R.AllWhole);
}

TEST_CASE("the launch after a spread probe, still paying first uses, is not the split's cost",
          "[planner][guard]") {
  // jacobi-2d 16384 x 16384 on two H200s: once the grid had spread, the split's next launch took
  // 5.2 ms (its first halo through host memory), the later ones 0.55 ms; whole 0.97 ms, and a
  // whole launch after splits gathers the grid back. Taken for the warm split, that launch sent
  // the kernel back to whole.
  SplitGuard Guard;
  bool Spread = false; // the grid is spread over both devices
  int SinceSpread = 0; // split launches since it spread
  unsigned Splits = 0;
  int First = -1;
  for (int I = 0; I < 12000; ++I) {
    std::optional<PricedBytes> Bytes;
    if (Guard.needsPrice())
      Bytes = PricedBytes{Spread ? 0.0 : GridBytes, 0.0, 0.5};
    const Decision D = Guard.decide(1e8, Bytes);
    double Seconds = 0.97e-3;
    if (D.Launch.Run == Mode::Whole) {
      Seconds += Spread ? GridSpread : 0.0;
      Spread = false;
    } else {
      Seconds = !Spread ? 0.55e-3 + GridSpread : ++SinceSpread == 1 ? 5.2e-3 : 0.55e-3;
      SinceSpread = Spread ? SinceSpread : 0;
      Spread = true;
      Guard.observeInferredWhole(1e8, 0.97e-3);
      ++Splits;
      First = First < 0 ? I : First;
    }
    if (D.Launch.Measured)
      Guard.observe(D.Launch, 1e8, Seconds);
  }
  REQUIRE(First >= 0);
  CHECK(Splits >= static_cast<unsigned>(12000 - First - 100));
}

namespace {
// jacobi-2d's copy kernel, split because the stencil kernel spread the grid they share: 0.45 ms
// split, 0.88 ms whole, and a launch whole first gathers what the other GPU holds (GatherSeconds
// of it: the split after it spreads it again). Launches of it, all settled split at first.
Run copyKernelAfterSpread(double GatherSeconds, int Launches) {
  Scenario S;
  const double Bytes = GatherSeconds * GuardSettings().LinkBytesPerSecond;
  S.FirstBytes = PricedBytes{0.0, 0.0, 0.5};
  S.Priced = [Bytes](double) { return PricedBytes{0.0, Bytes, 0.5}; };
  bool Gathered = false; // a whole launch took the grid back: the next split spreads it again
  S.Cost = [&](Mode M, bool Cold, double) {
    const double Moves = Cold && (M == Mode::Whole) != Gathered ? GatherSeconds : 0.0;
    Gathered = Cold ? M == Mode::Whole : Gathered;
    return (M == Mode::Split ? 0.45e-3 : 0.88e-3) + Moves;
  };
  S.Inferred = [](double) { return 0.88e-3; };
  SplitGuard Guard;
  return run(Guard, S, repeated(1e8, Launches));
}
} // namespace

TEST_CASE("a split kernel's whole probe counts what the launch whole would gather",
          "[planner][guard]") {
  // Its whole probe's loss counts the gather and the spread after it: no probe within a run
  // whose budget cannot pay for them (a blind probe gathered the grid from under the stencil's
  // split). 1 GiB: no budget of the run pays.
  const Run Gib = copyKernelAfterSpread(1073741824.0 / GuardSettings().LinkBytesPerSecond, 4000);
  REQUIRE(Gib.Modes.front() == Mode::Split);
  CHECK(Gib.Whole == 0);
  // 40,000 launches of 0.45 ms earn 0.18 s of probe budget: a gather of 0.12 s would fit once,
  // not twice (there and back); one of 0.05 s fits twice, and the probe runs.
  CHECK(copyKernelAfterSpread(0.12, 40000).Whole == 0);
  CHECK(copyKernelAfterSpread(0.05, 40000).Whole >= 1);
}

TEST_CASE("a short kernel's split is not probed sooner for its data's spread", "[planner][guard]") {
  // jacobi-2d-style at 2048 x 2048 on two GPUs: 30 us whole, a first split of 5 ms (the grid's
  // 8 MiB spread and the split's own costs), 1 ms warm. Its split's kernels would save 15 us, less
  // than any split launch's fixed cost: no probe within the first 0.24 s, as before spreads were
  // budgeted apart.
  Scenario S;
  S.FirstBytes = PricedBytes{8388608.0, 0.0, 0.5};
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? 5e-3 : 1e-3) : 30e-6;
  };
  S.Inferred = [](double) { return 30e-6; };
  SplitGuard Guard;
  const Run R = run(Guard, S, repeated(4e6, 8000));
  CHECK(R.Split == 0);
}

TEST_CASE("a kernel whose data another kernel's probe spread probes its split with it",
          "[planner][guard]") {
  // A two-kernel stencil step: this kernel settled whole (its split priced over its data's
  // spread), then the other kernel's probe spread the grid they share. Whole, this kernel would
  // gather the grid back before the other's warm repeat; it probes its split at once instead,
  // and keeps it where the split measures cheaper.
  Scenario S;
  S.FirstBytes = PricedBytes{GridBytes, 0.0, 0.5};
  SplitGuard Guard;
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 0.5e-3 : 0.88e-3; };
  const Run Before = run(Guard, S, repeated(1e8, 100));
  REQUIRE(Before.Split == 0);
  REQUIRE(Guard.settledWhole(1e8));
  Guard.joinProbe();
  CHECK_FALSE(Guard.settledWhole(1e8)); // the next launch is decided, not run as settled
  const Run After = run(Guard, S, repeated(1e8, 100));
  CHECK(After.Modes.front() == Mode::Split);
  CHECK_FALSE(After.SpreadsAt.front()); // its data is spread already
  CHECK(After.JoinedAt.front());
  CHECK(After.Split >= 95);

  // Where the split measures dearer, one probe and its repeat, then whole again.
  SplitGuard Dear;
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 2e-3 : 0.88e-3; };
  run(Dear, S, repeated(1e8, 100));
  Dear.joinProbe();
  const Run Back = run(Dear, S, repeated(1e8, 100));
  CHECK(Back.Split == 3); // the probe, the launch still paying first uses, a warm one
  CHECK(Back.Modes.back() == Mode::Whole);
}

TEST_CASE("a kernel that joined another's spread repeats its split warm after a cold first one",
          "[planner][guard]") {
  // jacobi-2d's two kernels on two H200s: the copy kernel's probe spread the grid, the stencil
  // joined it, and its first split took 4.4 ms against 1 ms whole (the split program's first
  // use on the second GPU), then 0.55 ms warm. The spread was paid for the two kernels' warm
  // repeats: given up after its cold launch (within four times 1% of the short time since the
  // stencil's last probe), the stencil's whole launch gathered the grid back from under the
  // copy kernel's split, and the first run lost the spread (2 of 4 first runs, 2.07 s against
  // 1.97 natively; the others kept it, 1.55 s).
  Scenario S;
  S.FirstBytes = PricedBytes{GridBytes, 0.0, 0.5};
  S.Cost = [](Mode M, bool Cold, double) {
    return M == Mode::Split ? (Cold ? 4.4e-3 : 0.55e-3) : 1e-3;
  };
  SplitGuard Guard;
  const Run Before = run(Guard, S, repeated(1e8, 60));
  REQUIRE(Before.Split == 0);
  Guard.joinProbe();
  const Run After = run(Guard, S, repeated(1e8, 100));
  CHECK(After.JoinedAt.front());
  CHECK(After.Split >= 95);
}

namespace {

// The grid-spread stencil above, decided as the runtime does (settledWhole, decideWhole, the
// bytes only when the guard asks), each measured whole launch's time coming Lag launches after
// its decision. Twice: each settled whole launch is decided at the app's call, taken back
// (withdrawWhole) and decided again as it runs, where unmeasured. The launch of the first split.
int firstGridSplit(bool Twice, int Lag) {
  SplitGuard Guard;
  const PricedBytes Grid{GridBytes, 0.0, 0.5};
  std::deque<std::pair<Ticket, int>> Pending; // measured launches, their times Lag later
  for (int I = 0; I < 8000; ++I) {
    while (!Pending.empty() && Pending.front().second <= I) {
      Guard.observe(Pending.front().first, 1e8, 1e-3);
      Pending.pop_front();
    }
    std::optional<Decision> AtCall;
    if (Twice && Guard.settledWhole(1e8)) {
      AtCall = Guard.decideWhole(1e8);
      if (!AtCall->Launch.Measured) { // only those are decided again
        Guard.withdrawWhole(*AtCall, 1e8);
        AtCall.reset();
      }
    }
    const Decision D =
        AtCall ? *AtCall
        : Guard.settledWhole(1e8)
            ? Guard.decideWhole(1e8)
            : Guard.decide(1e8, Guard.needsPrice() ? std::optional(Grid) : std::nullopt);
    if (D.Launch.Run == Mode::Split)
      return I;
    if (D.Launch.Measured)
      Pending.emplace_back(D.Launch, I + Lag);
  }
  return -1;
}

} // namespace

TEST_CASE("launches decided before any time came count toward the spread's budget",
          "[planner][guard]") {
  // From an app that queues a second of launches ahead of its device: each whole launch's time
  // comes a thousand launches after its decision. Those first thousand launches ran; the
  // spread's budget counts them once a time has come.
  const int FirstSplit = firstGridSplit(false, 1000);
  const double Needed = 2.0 * GridSpread / GuardSettings().SpreadBudget; // seconds of launches
  REQUIRE(FirstSplit > 0);
  CHECK(FirstSplit >= static_cast<int>(Needed / 1e-3));
  CHECK(FirstSplit <= static_cast<int>(Needed / 1e-3) + 200);
}

TEST_CASE("a whole decision taken back leaves the probe clock as it was", "[planner][guard]") {
  // The runtime decides a launch at the app's call and, where the guard plans a split by the
  // time it runs, takes that decision back and decides again: the spread probe of the grid
  // stencil comes at the same launch as where each launch was decided once, with times at once
  // and a thousand launches late (launches decided before any time came count once it has:
  // taken back, they count once too).
  for (const int Lag : {0, 1000}) {
    const int Once = firstGridSplit(false, Lag);
    REQUIRE(Once > 0);
    CHECK(firstGridSplit(true, Lag) == Once);
  }
}

TEST_CASE("a guard says when it plans a split that launches decided whole before may not know",
          "[planner][guard]") {
  Scenario S;
  S.FirstBytes = PricedBytes{GridBytes, 0.0, 0.5};
  S.Cost = [](Mode M, bool, double) { return M == Mode::Split ? 0.5e-3 : 0.88e-3; };
  SplitGuard Guard;
  run(Guard, S, repeated(1e8, 100));
  CHECK_FALSE(Guard.plansSplit()); // settled whole
  Guard.joinProbe();
  CHECK(Guard.plansSplit()); // its next decision probes the split
  run(Guard, S, repeated(1e8, 10));
  CHECK(Guard.plansSplit()); // the split measured cheaper: it runs split
}
