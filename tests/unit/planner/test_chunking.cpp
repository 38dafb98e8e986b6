#include "libsplit/planner/chunking.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <vector>

using namespace libsplit::planner;

TEST_CASE("a chunk is the device's part of the remaining work over the divisor",
          "[planner][chunking]") {
  ChunkSettings S;
  S.Divisor = 2.0;
  S.FloorSeconds = 0.0;
  // Two equal devices: a quarter of what remains.
  CHECK(nextChunkGroups(1000, 10.0, 20.0, S) == 250);
  // A device three times as fast as the other: 3/4 of the rates, over 2.
  CHECK(nextChunkGroups(1000, 30.0, 40.0, S) == 375);
  // Alone: half of what remains.
  CHECK(nextChunkGroups(1000, 10.0, 10.0, S) == 500);
  // Never more than remains, never nothing while some remains.
  CHECK(nextChunkGroups(1, 10.0, 1000.0, S) == 1);
  CHECK(nextChunkGroups(0, 10.0, 10.0, S) == 0);
}

TEST_CASE("a chunk lasts at least the floor at its device's rate", "[planner][chunking]") {
  ChunkSettings S;
  S.FloorSeconds = 2e-3;
  // 10,000 groups/s: at least 20 groups, even near the end.
  CHECK(nextChunkGroups(30, 1e4, 2e4, S) == 20);
  CHECK(nextChunkGroups(15, 1e4, 2e4, S) == 15);
}

TEST_CASE("a chunk is no smaller than the minimum asked", "[planner][chunking]") {
  ChunkSettings S;
  S.FloorSeconds = 0.0;
  CHECK(nextChunkGroups(10000, 10.0, 1000.0, S, 2048) == 2048);
  CHECK(nextChunkGroups(1000, 10.0, 1000.0, S, 2048) == 1000);
}

TEST_CASE("unknown rates take everything that remains", "[planner][chunking]") {
  const ChunkSettings S;
  CHECK(nextChunkGroups(700, 0.0, 10.0, S) == 700);
  CHECK(nextChunkGroups(700, 10.0, 0.0, S) == 700);
  CHECK(nextChunkGroups(700, -1.0, 10.0, S) == 700);
}

TEST_CASE("the first chunk is a small part of the launch, at least one group",
          "[planner][chunking]") {
  ChunkSettings S;
  S.FirstChunkDivisor = 64;
  CHECK(firstChunkGroups(6400, S) == 100);
  CHECK(firstChunkGroups(10, S) == 1);
  CHECK(firstChunkGroups(1, S) == 1);
}

TEST_CASE("a long launch is known to be long before its first chunk ends", "[planner][chunking]") {
  // A first chunk of 1,056 of 16,384 work-groups (the rest: 15,328) that will end after 0.278 s:
  // at its end the rest is predicted to take 4.03 s. While it runs, the bound grows to that.
  const double AtEnd = 15328.0 * 0.278 / 1056.0;
  CHECK(restSecondsAtLeast(15328, 1056, 0.278) == Approx(AtEnd));
  double Before = 0.0;
  for (double T = 0.01; T < 0.278; T += 0.01) {
    const double Bound = restSecondsAtLeast(15328, 1056, T);
    CHECK(Bound > Before);
    CHECK(Bound < AtEnd);
    Before = Bound;
  }
  // Two seconds are known at 0.138 s, half way through the chunk.
  CHECK(restSecondsAtLeast(15328, 1056, 0.138) >= 2.0);
  CHECK(restSecondsAtLeast(15328, 1056, 0.130) < 2.0);
  // Nothing known: nothing predicted.
  CHECK(restSecondsAtLeast(15328, 1056, 0.0) == 0.0);
  CHECK(restSecondsAtLeast(15328, 0, 1.0) == 0.0);
}

TEST_CASE("a first launch runs in chunks only behind little queued work", "[planner][chunking]") {
  const ChunkSettings Settings;
  const double LinkBytesPerSecond = 8e9;
  const bool AtCall = true;
  // A 1-D stencil's first launch behind its two 4 MB lines' first upload (NVIDIA's driver
  // sends a CL_MEM_COPY_HOST_PTR buffer's contents at its first use): about 1 ms whole, where
  // the app's thread would wait for the first chunk.
  CHECK_FALSE(firstLaunchInChunks(2.0 * 4e6 / LinkBytesPerSecond, AtCall, Settings));
  // EP's output slots at 16,384 work-groups, 0.9 MB: its one long launch still runs in chunks.
  CHECK(firstLaunchInChunks(0.9e6 / LinkBytesPerSecond, AtCall, Settings));
  CHECK(firstLaunchInChunks(0.0, AtCall, Settings));
  // On the queue's executor (a launch that asked for its event), the app's thread has returned:
  // EP's slots at 131,072 work-groups (7.3 MB) delay the first chunk as they would the whole
  // launch, and it runs in chunks.
  CHECK(firstLaunchInChunks(7.3e6 / LinkBytesPerSecond, !AtCall, Settings));
  CHECK(firstLaunchInChunks(2.0 * 4e6 / LinkBytesPerSecond, !AtCall, Settings));
  // Commands of the app's queue still unfinished: how long they take is not known, wherever
  // the chunk is waited for.
  for (const bool Waits : {true, false}) {
    CHECK_FALSE(firstLaunchInChunks(std::numeric_limits<double>::infinity(), Waits, Settings));
    CHECK_FALSE(firstLaunchInChunks(std::numeric_limits<double>::quiet_NaN(), Waits, Settings));
  }
  // The bound is a setting.
  ChunkSettings Patient;
  Patient.MostSecondsAhead = 5e-3;
  CHECK(firstLaunchInChunks(2.0 * 4e6 / LinkBytesPerSecond, AtCall, Patient));
}

TEST_CASE("chunks shrink to what keeps the device at its rate", "[planner][chunking]") {
  // An arithmetic loop (the triangular kernel on an H200): a quarter of what the GPU holds at
  // once, then four times as many work-groups in 3.2 times as long: its rate at 1,056.
  const std::vector<ChunkSample> Loop = {{0, 1056, 0.278}, {1056, 5280, 0.898}};
  CHECK(saturatingGroups(4224, Loop) == 1056);
  // Work-items whose time sets the chunk's (a GPU partly empty): four times as many in about as
  // long. It needs all it holds.
  const std::vector<ChunkSample> Latency = {{0, 1056, 0.100}, {1056, 5280, 0.110}};
  CHECK(saturatingGroups(4224, Latency) == 4224);
  // Half again as long for four times the work-groups: still the latency's.
  CHECK(saturatingGroups(4224, {{0, 1056, 0.100}, {1056, 5280, 0.150}}) == 4224);
  // Twice as long: the throughput's (at least half as much longer as more work-groups).
  CHECK(saturatingGroups(4224, {{0, 1056, 0.100}, {1056, 5280, 0.200}}) == 1056);
  // Until two chunks ran, or where the second is no larger, nothing is known.
  CHECK(saturatingGroups(4224, {}) == 4224);
  CHECK(saturatingGroups(4224, {{0, 1056, 0.278}}) == 4224);
  CHECK(saturatingGroups(4224, {{0, 1056, 0.278}, {1056, 2112, 0.278}}) == 4224);
  CHECK(saturatingGroups(4224, {{0, 1056, 0.0}, {1056, 5280, 0.5}}) == 4224);
}

TEST_CASE("a device whose data arrives too late takes no chunk", "[planner][chunking]") {
  // A memory-bound kernel: the app's device would run the rest in 4 ms; the other device needs
  // 50 ms for its bytes.
  CHECK_FALSE(chunkPays(0.050, 0.002, 0.004));
  // A compute-bound one: its bytes in 1 ms, its chunk 100 ms, the others 5 s.
  CHECK(chunkPays(0.001, 0.100, 5.0));
  // The last 100 work-groups: a second GPU a little slower than the app's (950 against 1,000 a
  // second) would run them in 0.105 s; the app's, busy for another 50 ms, ends them at 0.15 s.
  const double OthersEnd = finishTogetherSeconds(100.0, 0.0, {{1000.0, 0.05}});
  CHECK(OthersEnd == Approx(0.15));
  CHECK(chunkPays(0.0, 100.0 / 950.0, OthersEnd));
  // Counted as free, the app's device would have seemed to end them first.
  CHECK_FALSE(chunkPays(0.0, 100.0 / 950.0, 100.0 / 1000.0));
  // Nobody else running: the others never end it.
  CHECK(finishTogetherSeconds(100.0, 0.0, {}) == std::numeric_limits<double>::infinity());
}

namespace {

// Two devices taking chunks from both ends, event by event, as the runtime does: returns each
// device's finish time. Rates in groups per second; the second device can start at Join.
std::vector<double> simulate(std::size_t Groups, double RateA, double RateB, double Join,
                             const ChunkSettings &S) {
  std::size_t Lo = 0, Hi = Groups;
  double ClockA = 0.0, ClockB = Join;
  const double Total = RateA + RateB;
  while (Lo < Hi) {
    // Whichever device is free first takes the next chunk.
    if (ClockA <= ClockB) {
      const std::size_t C = nextChunkGroups(Hi - Lo, RateA, Total, S);
      Lo += C;
      ClockA += static_cast<double>(C) / RateA;
    } else {
      const std::size_t C = nextChunkGroups(Hi - Lo, RateB, Total, S);
      Hi -= C;
      ClockB += static_cast<double>(C) / RateB;
    }
  }
  return {ClockA, std::max(ClockB, Join)};
}

} // namespace

TEST_CASE("two devices taking chunks from both ends finish together", "[planner][chunking]") {
  ChunkSettings S;
  S.FloorSeconds = 2e-3;
  SECTION("equal devices") {
    const std::vector<double> End = simulate(100000, 1e4, 1e4, 0.0, S);
    // 10 s of work alone: 5 s each, within a floor's chunk.
    CHECK(std::max(End[0], End[1]) == Approx(5.0).margin(0.01));
    CHECK(std::abs(End[0] - End[1]) <= 2 * S.FloorSeconds + 1e-9);
  }
  SECTION("a device joining late") {
    // The second device opens after 1 s: the first has run 1 s of work, the rest is shared.
    const std::vector<double> End = simulate(100000, 1e4, 1e4, 1.0, S);
    CHECK(std::max(End[0], End[1]) == Approx(5.5).margin(0.01));
  }
  SECTION("a device a hundred times slower") {
    const std::vector<double> End = simulate(100000, 1e4, 1e2, 0.0, S);
    const double Alone = 100000 / 1e4;
    CHECK(std::max(End[0], End[1]) <= Alone);
    CHECK(std::max(End[0], End[1]) == Approx(100000 / (1e4 + 1e2)).margin(0.05));
  }
}

namespace {

ChunkTaker taker(bool AppDevice, double Rate, std::size_t Resident, std::size_t ChunksDone = 0) {
  ChunkTaker T;
  T.AppDevice = AppDevice;
  T.Rate = Rate;
  T.Resident = Resident;
  T.ChunksDone = ChunksDone;
  return T;
}

ChunkRound round(std::size_t Remaining, double TotalRate, std::size_t Active = 1,
                 bool MoreComing = false) {
  ChunkRound R;
  R.Groups = 131072;
  R.Remaining = Remaining;
  R.TotalRate = TotalRate;
  R.Active = Active;
  R.MoreComing = MoreComing;
  return R;
}

} // namespace

TEST_CASE("the chunk each device is handed", "[planner][chunking]") {
  ChunkSettings S; // first chunk 1/64, floor 2 ms, divisor 2
  // The app's device, an H100's worth of work-groups at once (4224 of 64 work-items).
  // Nothing known: 1/64 of the launch, below what it runs at once.
  CHECK(chunkFor(taker(true, 0.0, 4224), round(131072, 0.0), S) == 2048);
  // Measured, alone, nobody coming: the rest at once.
  CHECK(chunkFor(taker(true, 30000.0, 4224, 1), round(129024, 30000.0), S) == 129024);
  // A rate known from an earlier launch counts as measured.
  CHECK(chunkFor(taker(true, 30000.0, 4224), round(131072, 60000.0, 1, true), S) == 131072 / 4);
  // A second GPU coming: a quarter, at least what it runs at once, at most what remains.
  const ChunkTaker App = taker(true, 30000.0, 4224, 1);
  CHECK(chunkFor(App, round(129024, 60000.0, 1, true), S) == 129024 / 4);
  CHECK(chunkFor(App, round(10000, 60000.0, 1, true), S) == 4224);
  CHECK(chunkFor(App, round(3000, 60000.0, 1, true), S) == 3000);
  // A joining GPU's first chunk (its rate assumed the app's): no less than it runs at once.
  CHECK(chunkFor(taker(false, 30000.0, 4224), round(100000, 60000.0, 2), S) == 4224);
  // A joining device of another type (assumed a tenth as fast) starts with the floor: 2 ms.
  ChunkTaker Cpu = taker(false, 3000.0, 32);
  Cpu.SameTypeAsApp = false;
  CHECK(chunkFor(Cpu, round(100000, 33000.0, 2), S) == 6);
  // Nothing left.
  CHECK(chunkFor(App, round(0, 60000.0), S) == 0);
  // Measuring again after a first chunk that paid for first uses: no larger than that one.
  ChunkTaker Again = App;
  Again.Remeasure = true;
  Again.FirstGroups = 2048;
  CHECK(chunkFor(Again, round(129024, 60000.0, 1, true), S) == 2048);
  CHECK(chunkFor(Again, round(1000, 60000.0, 1, true), S) == 1000);
  // Forced (LIBSPLIT_CHUNK=always): no first-chunk rule, no floor.
  S.FloorSeconds = 0.0;
  ChunkRound Forced = round(1000, 2.0, 2);
  Forced.Forced = true;
  CHECK(chunkFor(taker(true, 1.0, 4224), Forced, S) == 250);
}

TEST_CASE("what a device holds at once, and launches too small to fill it", "[planner][chunking]") {
  // An H100: 132 multiprocessors.
  CHECK(residentGroups(true, 132, 64) == 4224);
  CHECK(residentGroups(true, 132, 1024) == 264);
  CHECK(residentGroups(true, 132, 3000) == 91); // rounded up
  // A CPU: a work-group per core.
  CHECK(residentGroups(false, 32, 64) == 32);
  CHECK(residentGroups(false, 0, 0) == 1);
  // EP 64 x 64 cannot fill an H100; a million work-items can; any launch fills a CPU.
  CHECK_FALSE(fillsDevice(true, 132, 64, 4096.0));
  CHECK(fillsDevice(true, 132, 64, 1048576.0));
  CHECK(fillsDevice(true, 132, 64, 132 * 2048 / 4.0));
  CHECK(fillsDevice(false, 32, 64, 64.0));
}

TEST_CASE("a kernel's cost along its index, fitted to its chunks", "[planner][chunking]") {
  // A triangular loop: work-group g takes (1000 - g) us.
  auto truth = [](std::size_t First, std::size_t End) {
    double Sum = 0.0;
    for (std::size_t G = First; G < End; ++G)
      Sum += (1000.0 - static_cast<double>(G) - 0.5) * 1e-6;
    return Sum;
  };
  const ChunkCost Cost = ChunkCost::fit(
      {{0, 100, truth(0, 100)}, {500, 700, truth(500, 700)}, {900, 1000, truth(900, 1000)}});
  REQUIRE(Cost.known());
  CHECK(Cost.seconds(200, 300) == Approx(truth(200, 300)).epsilon(1e-6));
  CHECK(Cost.seconds(0, 900) == Approx(truth(0, 900)).epsilon(1e-6));
  // Taken from either end: as many groups as fit.
  const std::size_t FromLow = Cost.groupsWithin(0, 1000, true, truth(0, 100));
  CHECK(FromLow == 100);
  const std::size_t FromHigh = Cost.groupsWithin(0, 1000, false, truth(0, 100));
  CHECK(truth(1000 - FromHigh, 1000) <= truth(0, 100));
  CHECK(truth(1000 - FromHigh - 1, 1000) > truth(0, 100));
  CHECK(Cost.groupsWithin(0, 1000, true, 1e9) == 1000);
  CHECK(Cost.groupsWithin(0, 1000, true, 0.0) == 0);
  // Extrapolated past where the line reaches zero, a group still costs something.
  CHECK(Cost.seconds(1000, 2000) > 0.0);
  // One chunk, or chunks at one place: a constant.
  const ChunkCost Flat = ChunkCost::fit({{0, 100, 0.1}});
  CHECK(Flat.seconds(900, 1000) == Approx(0.1));
  CHECK_FALSE(ChunkCost::fit({}).known());
  CHECK_FALSE(ChunkCost::fit({{5, 5, 1.0}, {0, 10, 0.0}}).known());
}

TEST_CASE("when devices sharing what remains would finish together", "[planner][chunking]") {
  // Alone.
  CHECK(finishTogetherSeconds(1000.0, 100.0, {}) == Approx(10.0));
  // An equal peer free now: half the time.
  CHECK(finishTogetherSeconds(1000.0, 100.0, {{100.0, 0.0}}) == Approx(5.0));
  // A peer busy for 4 s joins at 4 s: 100 * T + 100 * (T - 4) = 1000.
  CHECK(finishTogetherSeconds(1000.0, 100.0, {{100.0, 4.0}}) == Approx(7.0));
  // A peer busy past the end does not count.
  CHECK(finishTogetherSeconds(1000.0, 100.0, {{100.0, 20.0}}) == Approx(10.0));
  // Peers in any order; one without a rate ignored; one freed after the others would finish
  // does not count.
  CHECK(finishTogetherSeconds(1000.0, 100.0, {{100.0, 8.0}, {100.0, 1.0}, {0.0, 0.0}}) ==
        Approx(5.5));
  CHECK(finishTogetherSeconds(1000.0, 100.0, {{100.0, 4.0}, {100.0, 1.0}}) ==
        Approx((1000.0 + 100.0 + 400.0) / 300.0));
  CHECK(std::isinf(finishTogetherSeconds(1000.0, 0.0, {})));
}

TEST_CASE("a device finishing early takes its share of what remains", "[planner][chunking]") {
  ChunkSettings S;
  S.FloorSeconds = 0.0;
  ChunkTaker Joiner = taker(false, 1000.0, 100, 2);
  ChunkRound R = round(1000, 2000.0, 2);
  // The app's device free as well: half of its half.
  R.Others = {{1000.0, 0.0}};
  CHECK(chunkFor(Joiner, R, S) == 250);
  // The app's device busy for 0.6 s more: the joiner's share is 0.8 s of work, half of it now.
  R.Others = {{1000.0, 0.6}};
  CHECK(chunkFor(Joiner, R, S) == 400);
  // No less than the device runs at once, unless its whole share is less.
  Joiner.Resident = 500;
  CHECK(chunkFor(Joiner, R, S) == 500);
  Joiner.Resident = 1000;
  CHECK(chunkFor(Joiner, R, S) == 800);
  Joiner.Resident = 1800;
  // 800, and the 200 left, a sliver, to the app's device, free before the joiner's share ends.
  CHECK(chunkFor(Joiner, R, S) == 800);
  R.Others = {{1000.0, 5.0}}; // busy past it: the joiner takes them too
  CHECK(chunkFor(Joiner, R, S) == 1000);
  R.Others = {{1000.0, 0.6}};
  Joiner.Resident = 100;
  // With a cost along the index (groups cost more toward the low end), the share is counted
  // from the device's end: more of the light groups at the high end fit, fewer of the heavy
  // ones at the low end.
  const ChunkCost Falling = ChunkCost::fit({{0, 100, 0.2}, {900, 1000, 0.01}});
  Joiner.Cost = &Falling;
  R.Lo = 0;
  const std::size_t Along = chunkFor(Joiner, R, S);
  CHECK(Along == (Falling.groupsWithin(0, 1000, false, 0.8) + 1) / 2);
  CHECK(Along > 400);
  ChunkTaker App = Joiner;
  App.AppDevice = true;
  CHECK(chunkFor(App, R, S) == (Falling.groupsWithin(0, 1000, true, 0.8) + 1) / 2);
  CHECK(chunkFor(App, R, S) < 400);
}

namespace {

// Two equal devices taking chunks of a triangular launch from both ends, the runtime's way: each
// free device fits the cost to the chunks run so far, sees the other's running chunk's end by
// it, and takes chunkFor. The second device starts at Join. Returns the finish time.
double simulateTriangular(std::size_t Groups, double Join, std::size_t Resident) {
  auto truth = [&](std::size_t First, std::size_t End) {
    double Sum = 0.0;
    for (std::size_t G = First; G < End; ++G)
      Sum += 1e-4 * (1.0 - static_cast<double>(G) / static_cast<double>(Groups));
    return Sum;
  };
  ChunkSettings S;
  std::vector<ChunkSample> Done;
  std::size_t Lo = 0, Hi = Groups;
  struct Dev {
    double FreeAt;
    std::size_t First = 0, End = 0;
    double Start = 0.0;
    std::size_t Chunks = 0;
  };
  Dev Devs[2] = {{0.0}, {Join}};
  double Finish = 0.0;
  while (Lo < Hi) {
    const int I = Devs[0].FreeAt <= Devs[1].FreeAt ? 0 : 1;
    Dev &D = Devs[I];
    Dev &Other = Devs[1 - I];
    const double Now = D.FreeAt;
    if (D.End > D.First) // the chunk it ran is measured now
      Done.push_back({D.First, D.End, truth(D.First, D.End)});
    const ChunkCost Cost = ChunkCost::fit(Done);
    ChunkTaker T = taker(I == 0, 0.0, Resident, D.Chunks);
    ChunkRound R = round(Hi - Lo, 0.0, 2);
    R.Groups = Groups;
    R.Lo = Lo;
    if (Cost.known()) {
      T.Rate = static_cast<double>(Hi - Lo) / Cost.seconds(Lo, Hi);
      T.Cost = &Cost;
      const double OtherEnd =
          Other.FreeAt > Now ? Other.Start + Cost.seconds(Other.First, Other.End) : Now;
      R.Others = {{T.Rate, std::max(0.0, OtherEnd - Now)}};
      R.TotalRate = 2 * T.Rate;
    }
    const std::size_t C = chunkFor(T, R, S);
    D.First = I == 0 ? Lo : Hi - C;
    D.End = I == 0 ? Lo + C : Hi;
    (I == 0 ? Lo : Hi) = I == 0 ? Lo + C : Hi - C;
    D.Start = Now;
    D.FreeAt = Now + truth(D.First, D.End);
    ++D.Chunks;
    Finish = std::max(Finish, D.FreeAt);
  }
  return Finish;
}

} // namespace

TEST_CASE("a triangular launch's devices finish together", "[planner][chunking]") {
  // 16384 groups, 0.82 s alone; the second device joins at 0.15 s; 4224 groups at once.
  const std::size_t Groups = 16384;
  double Alone = 0.0;
  for (std::size_t G = 0; G < Groups; ++G)
    Alone += 1e-4 * (1.0 - static_cast<double>(G) / static_cast<double>(Groups));
  const double Ideal = (Alone + 0.15) / 2.0;
  CHECK(simulateTriangular(Groups, 0.15, 4224) <= 1.10 * Ideal);
  // Joining sooner or later, the last chunks' remainders go to whichever device is free first:
  // within 2.5% of the ideal.
  for (double Join : {0.0, 0.05, 0.1, 0.2, 0.3})
    for (std::size_t Resident : {256, 1056, 4224})
      CHECK(simulateTriangular(Groups, Join, Resident) <= 1.025 * (Alone + Join) / 2.0);
  CHECK(simulateTriangular(Groups, 0.0, 256) <= 1.03 * Alone / 2.0);
}

TEST_CASE("no sliver of a chunk, and none left behind", "[planner][chunking]") {
  ChunkSettings S;
  S.FloorSeconds = 0.0;
  ChunkTaker App = taker(true, 1000.0, 4224, 2);
  ChunkRound R = round(226, 2000.0, 2);
  // The peer runs for a long while yet: the app's device takes what remains, all of it.
  R.Others = {{1000.0, 5.0}};
  CHECK(chunkFor(App, R, S) == 226);
  // The peer about to end: its share would be a sliver (113 of 4224 at once): all of it still.
  R.Others = {{1000.0, 0.0}};
  CHECK(chunkFor(App, R, S) == 226);
  // A share leaving less than an eighth of what the device runs at once behind takes that too,
  // unless the peer is free before the share ends: it takes them meanwhile.
  R = round(3000, 2000.0, 2);
  R.Others = {{1000.0, 0.0}};
  App.Resident = 1800;
  CHECK(chunkFor(App, R, S) == 1500);
  App.Resident = 12800;
  CHECK(chunkFor(App, R, S) == 1600);
  R.Others = {{1000.0, 5.0}};
  CHECK(chunkFor(App, R, S) == 3000);
}
