#include "libsplit/balancer/split.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace libsplit::balancer;

static std::uint64_t total(const Split &S) {
  std::uint64_t Sum = 0;
  for (const DeviceSlice &Slice : S.Slices)
    Sum += Slice.Groups;
  return Sum;
}

static bool contiguous(const Split &S) {
  std::uint64_t Next = 0;
  for (const DeviceSlice &Slice : S.Slices) {
    if (Slice.FirstGroup != Next)
      return false;
    Next += Slice.Groups;
  }
  return true;
}

TEST_CASE("largest remainder gives the leftover groups to the largest fractions", "[rounding]") {
  // 10 * (0.26, 0.26, 0.48) = 2.6, 2.6, 4.8: floors 2, 2, 4; of the two groups left, one goes
  // to the .8, the other to the first .6 (ties to the lower index).
  Split S = roundShares({0.26, 0.26, 0.48}, 10);
  REQUIRE(S.Slices.size() == 3);
  CHECK(S.Slices[0].Groups == 3);
  CHECK(S.Slices[1].Groups == 2);
  CHECK(S.Slices[2].Groups == 5);
  CHECK(S.Slices[0].FirstGroup == 0);
  CHECK(S.Slices[1].FirstGroup == 3);
  CHECK(S.Slices[2].FirstGroup == 5);
}

TEST_CASE("ties go to the lower device index", "[rounding]") {
  Split S = roundShares({1.0, 1.0, 1.0}, 4);
  CHECK(S.Slices[0].Groups == 2);
  CHECK(S.Slices[1].Groups == 1);
  CHECK(S.Slices[2].Groups == 1);
}

TEST_CASE("a zero share gets no group, even when rounding leaves groups over", "[rounding]") {
  Split S = roundShares({0.5, 0.0, 0.5}, 3);
  CHECK(S.Slices[1].Groups == 0);
  CHECK(total(S) == 3);
  CHECK(S.Slices[1].FirstGroup == S.Slices[0].Groups);
}

TEST_CASE("shares are normalized; bad shares count as zero; all zero means uniform", "[rounding]") {
  Split Scaled = roundShares({2.0, 6.0}, 8);
  CHECK(Scaled.Slices[0].Groups == 2);
  CHECK(Scaled.Slices[1].Groups == 6);
  CHECK(Scaled.Shares[0] == Approx(0.25));

  double NaN = std::numeric_limits<double>::quiet_NaN();
  Split Bad = roundShares({NaN, -1.0, 1.0}, 5);
  CHECK(Bad.Slices[0].Groups == 0);
  CHECK(Bad.Slices[1].Groups == 0);
  CHECK(Bad.Slices[2].Groups == 5);

  Split Zero = roundShares({0.0, 0.0}, 7);
  CHECK(Zero.Slices[0].Groups == 4);
  CHECK(Zero.Slices[1].Groups == 3);
}

TEST_CASE("no groups and no devices are handled", "[rounding]") {
  Split None = roundShares({0.3, 0.7}, 0);
  CHECK(total(None) == 0);
  CHECK(roundShares({}, 10).Slices.empty());
}

TEST_CASE("random shares always sum exactly and stay within one group of exact", "[rounding]") {
  std::mt19937 Random(42);
  std::uniform_real_distribution<double> Share(0.0, 1.0);
  std::uniform_int_distribution<int> Devices(1, 8);
  std::uniform_int_distribution<std::uint64_t> Groups(0, 1u << 20);
  for (int Trial = 0; Trial < 2000; ++Trial) {
    std::vector<double> Shares(static_cast<std::size_t>(Devices(Random)));
    for (double &X : Shares)
      X = Trial % 3 == 0 ? std::pow(Share(Random), 8) : Share(Random);
    std::uint64_t N = Trial % 5 == 0 ? static_cast<std::uint64_t>(Trial % 7) : Groups(Random);
    Split S = roundShares(Shares, N);
    REQUIRE(total(S) == N);
    REQUIRE(contiguous(S));
    double Sum = std::accumulate(Shares.begin(), Shares.end(), 0.0);
    for (std::size_t I = 0; I < Shares.size() && Sum > 0.0; ++I)
      REQUIRE(std::fabs(static_cast<double>(S.Slices[I].Groups) -
                        Shares[I] / Sum * static_cast<double>(N)) < 1.0 + 1e-6);
  }
}

TEST_CASE("counts beyond double precision still sum exactly", "[rounding]") {
  std::uint64_t N = (std::uint64_t(1) << 60) + 12345;
  Split S = roundShares({1.0 / 3, 1.0 / 3, 1.0 / 3}, N);
  CHECK(total(S) == N);
  CHECK(contiguous(S));
}
