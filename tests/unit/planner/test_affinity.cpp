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
