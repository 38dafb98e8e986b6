#include "libsplit/analysis/interval_set.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <set>

using namespace libsplit::analysis;

TEST_CASE("ranges merge when they overlap or touch", "[analysis][intervals]") {
  IntervalSet S;
  S.add(10, 20);
  S.add(30, 40);
  S.add(20, 25); // touches the first
  REQUIRE(S.ranges().size() == 2);
  CHECK(S.ranges()[0] == ByteRange{10, 25});
  S.add(24, 31); // bridges both
  REQUIRE(S.ranges().size() == 1);
  CHECK(S.ranges()[0] == ByteRange{10, 40});
  S.add(5, 5); // empty
  CHECK(S.totalBytes() == 30);
  S.clampTo(12, 35);
  CHECK(S.ranges()[0] == ByteRange{12, 35});
}

TEST_CASE("intersection and containment", "[analysis][intervals]") {
  IntervalSet A, B;
  A.add(0, 10);
  A.add(20, 30);
  B.add(10, 20);
  CHECK_FALSE(A.intersects(B));
  B.add(29, 31);
  CHECK(A.intersects(B));
  CHECK(A.contains(21, 29));
  CHECK_FALSE(A.contains(5, 25));
}

TEST_CASE("a long list is fused into a superset of bounded length", "[analysis][intervals]") {
  std::mt19937 Rng(7);
  IntervalSet S;
  std::set<std::int64_t> Bytes;
  for (int I = 0; I < 500; ++I) {
    const std::int64_t Begin = Rng() % 100000, End = Begin + 1 + Rng() % 50;
    S.add(Begin, End);
    for (std::int64_t B = Begin; B < End; ++B)
      Bytes.insert(B);
    REQUIRE(S.ranges().size() <= IntervalSet::MaxRanges);
  }
  for (std::int64_t B : Bytes)
    REQUIRE(S.contains(B, B + 1));
  for (std::size_t I = 1; I < S.ranges().size(); ++I)
    REQUIRE(S.ranges()[I - 1].End < S.ranges()[I].Begin);
}
