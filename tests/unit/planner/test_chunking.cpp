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

TEST_CASE("the chunk each device is handed", "[planner][chunking]") {
  ChunkSettings S; // first chunk 1/64, floor 2 ms, divisor 2
  ChunkRound Round;
  Round.Groups = 131072;
  Round.Remaining = 131072;
  ChunkTaker App;
  App.AppDevice = true;
  App.Resident = 4224;
  SECTION("the app's device, nothing known: 1/64 of the launch, below what it runs at once") {
    CHECK(chunkFor(App, Round, S) == 2048);
  }
  SECTION("the app's device measured, alone, nobody coming: the rest at once") {
    App.ChunksDone = 1;
    App.Rate = 30000.0;
    Round.Remaining = 129024;
    Round.TotalRate = 30000.0;
    CHECK(chunkFor(App, Round, S) == 129024);
  }
  SECTION("a rate known from an earlier launch counts as measured") {
    App.Rate = 30000.0;
    Round.TotalRate = 60000.0;
    Round.MoreComing = true;
    CHECK(chunkFor(App, Round, S) == 131072 / 4);
  }
  SECTION("the app's device with a second GPU coming: a quarter, at least what it runs at once") {
    App.ChunksDone = 1;
    App.Rate = 30000.0;
    Round.Remaining = 129024;
    Round.TotalRate = 60000.0;
    Round.MoreComing = true;
    CHECK(chunkFor(App, Round, S) == 129024 / 4);
    Round.Remaining = 10000;
    CHECK(chunkFor(App, Round, S) == 4224);
    Round.Remaining = 3000;
    CHECK(chunkFor(App, Round, S) == 3000);
  }
  SECTION("a joining GPU's first chunk: no less than it runs at once") {
    ChunkTaker Gpu;
    Gpu.Rate = 30000.0; // assumed: the app's device's
    Gpu.Resident = 4224;
    Round.Remaining = 100000;
    Round.TotalRate = 60000.0;
    Round.Active = 2;
    CHECK(chunkFor(Gpu, Round, S) == 4224);
  }
  SECTION("a joining device of another type starts with the floor") {
    ChunkTaker Cpu;
    Cpu.SameTypeAsApp = false;
    Cpu.Rate = 3000.0; // assumed a tenth of the app's
    Cpu.Resident = 32;
    Round.Remaining = 100000;
    Round.TotalRate = 33000.0;
    Round.Active = 2;
    CHECK(chunkFor(Cpu, Round, S) == 6); // 2 ms at 3000 groups/s
  }
  SECTION("forced: no first-chunk rule, no floor") {
    S.FloorSeconds = 0.0;
    Round.Forced = true;
    Round.Remaining = 1000;
    Round.TotalRate = 2.0;
    Round.Active = 2;
    App.Rate = 1.0;
    CHECK(chunkFor(App, Round, S) == 250);
  }
  SECTION("nothing left") {
    Round.Remaining = 0;
    CHECK(chunkFor(App, Round, S) == 0);
  }
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
