#include "libsplit/planner/chunking.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
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

TEST_CASE("a device whose data arrives too late takes no chunk", "[planner][chunking]") {
  // A memory-bound kernel: the app's device would run the rest in 4 ms; the other device needs
  // 50 ms for its bytes.
  CHECK_FALSE(chunkPays(0.050, 0.002, 0.004));
  // A compute-bound one: its bytes in 1 ms, its chunk 100 ms, the others 5 s.
  CHECK(chunkPays(0.001, 0.100, 5.0));
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
