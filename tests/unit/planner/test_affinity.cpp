// Data affinity (planner/affinity.hpp): a two-device split's cut chosen by price where the
// balancer's would move much data, as an LU-style factorization's re-cut trailing matrix does.
#include "libsplit/planner/affinity.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

TEST_CASE("cuts to price: the balancer's first, then a grid inside the launch",
          "[planner][affinity]") {
  AffinitySettings Four;
  Four.Grid = 4;
  CHECK(cutsToTry(64, 30, Four) == std::vector<std::size_t>{30, 16, 32, 48});
  CHECK(cutsToTry(64, 32, Four) == std::vector<std::size_t>{32, 16, 48}); // no repeat
  CHECK(cutsToTry(3, 0, Four) == std::vector<std::size_t>{1, 2});         // never at the ends
  CHECK(cutsToTry(1, 0, Four).empty());
}

TEST_CASE("a cut that leaves the data in place replaces the balancer's where moving costs more",
          "[planner][affinity]") {
  const std::vector<double> PerGroup{1e-6, 1e-6}; // two equal devices
  const double Link = 1e9;                        // 1 GB/s
  // The balancer's even cut moves 4 MB of a shrinking matrix's rows to the second device.
  const CutCandidate Even{{24, 24}, {0.0, 4e6}};
  // The cut where each device holds its rows: less balanced, only the pivot row moves.
  const CutCandidate InPlace{{16, 32}, {4096.0, 4096.0}};
  CHECK(predictedSeconds(Even, PerGroup, Link) == Approx(24e-6 + 4e-3));
  CHECK(worthOtherCuts(Even, PerGroup, Link, 0.0));
  CHECK(cheapestCut({Even, InPlace}, PerGroup, Link) == 1);
  // Nothing to move: other cuts are not even priced, and would lose.
  const CutCandidate EvenNoBytes{{24, 24}, {0.0, 0.0}};
  CHECK_FALSE(worthOtherCuts(EvenNoBytes, PerGroup, Link, 0.0));
  CHECK(cheapestCut({EvenNoBytes, CutCandidate{{16, 32}, {0.0, 0.0}}}, PerGroup, Link) == 0);
  // Pricing the other cuts would cost more host time than the bytes: not priced.
  CHECK_FALSE(worthOtherCuts(Even, PerGroup, Link, 5e-3));
  // A device's rate unknown: nothing is priced.
  CHECK_FALSE(worthOtherCuts(Even, {1e-6, 0.0}, Link, 0.0));
  // A long kernel whose imbalance outweighs the bytes: the balancer's cut stays.
  CHECK_FALSE(worthOtherCuts(Even, {1e-2, 1e-2}, Link, 0.0));
  CHECK(cheapestCut({Even, InPlace}, {1e-3, 1e-3}, Link) == 0);
  // Within the margin: the balancer's cut stays.
  const CutCandidate Close{{23, 25}, {0.0, 3.95e6}};
  CHECK(cheapestCut({Even, Close}, PerGroup, Link) == 0);
}

TEST_CASE("owner computes: the cut where the second device's part starts at the buffer's edge",
          "[planner][affinity]") {
  // Rows of 100 bytes, one work-group a row from row 10 (a factorization's trailing rows): the
  // second device's part starting at cut writes from row 10 + cut.
  auto rowStart = [](std::size_t Cut) { return (10 + Cut) * 100; };
  // The last split divided the buffer at row 50: the cut that keeps it is 40.
  CHECK(cutAtEdge(1, 89, 50 * 100, rowStart) == std::optional<std::size_t>(40));
  // An edge inside a row (a column's element): the first part starting past it.
  CHECK(cutAtEdge(1, 89, 50 * 100 + 7, rowStart) == std::optional<std::size_t>(41));
  // Edges outside the cuts' reach: the lowest cut, or none.
  CHECK(cutAtEdge(1, 89, 0, rowStart) == std::optional<std::size_t>(1));
  CHECK_FALSE(cutAtEdge(1, 89, 100 * 100, rowStart).has_value());
  CHECK_FALSE(cutAtEdge(5, 4, 0, rowStart).has_value());
  // A part that writes nothing starts nowhere below any edge.
  auto writesNothing = [](std::size_t) { return SIZE_MAX; };
  CHECK(cutAtEdge(1, 89, 50 * 100, writesNothing) == std::optional<std::size_t>(1));
  // A bisection: few calls.
  std::size_t Calls = 0;
  auto counted = [&](std::size_t Cut) { return ++Calls, rowStart(Cut); };
  CHECK(cutAtEdge(1, 4096, 3000 * 100, counted) == std::optional<std::size_t>(2990));
  CHECK(Calls <= 15);
}

TEST_CASE("bytes that cross the buffers' split count twice against the owner's cut",
          "[planner][affinity]") {
  // The balancer's even cut: the second device lacks 24 KB of rows the first holds, and the
  // pivot row; the owner's cut, one work-group less even: the pivot row only.
  std::vector<CutCandidate> Candidates{{{11, 11}, {0.0, 25e3}}, {{12, 10}, {0.0, 1e3}}};
  const std::vector<double> PerGroup{4e-6, 4e-6};
  const double Link = 8e9;
  // This launch alone: 3 us of bytes saved, 4 us of imbalance: the even cut.
  CHECK(cheapestCut(Candidates, PerGroup, Link) == 0);
  // The rows come back at the next launch that keeps the split: the owner's cut.
  chargeReturnTrips(Candidates, 1);
  CHECK(Candidates[0].Bytes == std::vector<double>{0.0, 49e3});
  CHECK(Candidates[1].Bytes == std::vector<double>{0.0, 1e3});
  CHECK(cheapestCut(Candidates, PerGroup, Link) == 1);
  // No owner's cut among the candidates: nothing changes.
  chargeReturnTrips(Candidates, 5);
  CHECK(Candidates[0].Bytes == std::vector<double>{0.0, 49e3});
}

TEST_CASE("a probe is priced by what it moves beyond the held split, there and back",
          "[planner][affinity]") {
  // One device alone lacks the other's half of a 64 MB grid; the held split lacks two halos.
  CHECK(probeSeconds(32e6 + 64e3, 64e3, 8e9) == Approx(2 * 32e6 / 8e9));
  // A probe that moves no more than the held split (data the host rewrites every launch) is free.
  CHECK(probeSeconds(1e6, 1e6, 8e9) == 0.0);
  CHECK(probeSeconds(1e6, 2e6, 8e9) == 0.0);
  // No rate known: nothing to price with.
  CHECK(probeSeconds(1e6, 0.0, 0.0) == 0.0);
}

TEST_CASE("the owner's cut wins unless another is clearly cheaper", "[planner][affinity]") {
  const std::vector<double> PerGroup{1e-6, 1e-6};
  const double Link = 1e9;
  // The balancer's even cut: 20 us of kernel and 0.5 us of bytes on the second device; the
  // owner's moves nothing but is one work-group less even: 21 us, 2.4% dearer.
  const std::vector<CutCandidate> Close{{{20, 20}, {0.0, 0.5e3}}, {{21, 19}, {0.0, 0.0}}};
  CHECK(cheapestCut(Close, PerGroup, Link) == 0);
  CHECK(cheapestCut(Close, PerGroup, Link, {}, 1) == 1);
  // Far more even elsewhere: the owner's cut loses.
  const std::vector<CutCandidate> Far{{{20, 20}, {0.0, 2e3}}, {{30, 10}, {0.0, 0.0}}};
  CHECK(cheapestCut(Far, PerGroup, Link, {}, 1) == 0);
  // An owner index out of range changes nothing.
  CHECK(cheapestCut(Close, PerGroup, Link, {}, 7) == 0);
}

TEST_CASE("one device alone against a split that pays a fixed cost", "[planner][affinity]") {
  const std::vector<double> PerGroup{1e-6, 1e-6};
  const double Link = 1e9;
  // Alone on the first device: 40 us of kernel and 100 KB (100 us) it lacks; the owner's even
  // cut moves nothing and takes 20 us, plus a split's fixed cost.
  CutCandidate Alone{{40, 0}, {100e3, 0.0}};
  CutCandidate Owner{{20, 20}, {0.0, 0.0}};
  CHECK(predictedSeconds(Alone, PerGroup, Link) == Approx(140e-6));
  Owner.FixedSeconds = 50e-6;
  CHECK(predictedSeconds(Owner, PerGroup, Link) == Approx(70e-6));
  CHECK(cheapestCut({Alone, Owner}, PerGroup, Link, {}, 1) == 1);
  // A split dearer than the bytes alone would move: one device alone stays.
  Owner.FixedSeconds = 500e-6;
  CHECK(cheapestCut({Alone, Owner}, PerGroup, Link, {}, 1) == 0);
}
