// RangeSet, the exact byte sets behind buffer validity: every operation against a bitmap of the
// same bytes, over random sequences, and the representation's invariant (sorted, disjoint,
// non-adjacent spans: validity must never be over-approximated, and equal sets must compare
// equal span for span).
#include "range_set.hpp"
#include "strided_runs.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace libsplit;

namespace {

constexpr std::size_t Universe = 96;

std::vector<bool> bitmapOf(const RangeSet &Set) {
  std::vector<bool> Bits(Universe, false);
  for (const Span &S : Set.spans())
    for (std::size_t B = S.Begin; B < S.End; ++B)
      Bits[B] = true;
  return Bits;
}

bool wellFormed(const RangeSet &Set) {
  const std::vector<Span> &Spans = Set.spans();
  for (std::size_t I = 0; I < Spans.size(); ++I) {
    if (Spans[I].Begin >= Spans[I].End)
      return false; // an empty span
    if (I && Spans[I - 1].End >= Spans[I].Begin)
      return false; // overlapping or adjacent: should have been one span
  }
  return true;
}

} // namespace

TEST_CASE("range sets agree with a bitmap under random operations", "[rangeset]") {
  std::mt19937 Random(20261126);
  std::uniform_int_distribution<std::size_t> Position(0, Universe);
  for (int Round = 0; Round < 200; ++Round) {
    RangeSet Set;
    std::vector<bool> Bits(Universe, false);
    for (int Step = 0; Step < 30; ++Step) {
      std::size_t Begin = Position(Random), End = Position(Random);
      if (Begin > End)
        std::swap(Begin, End);
      const bool Add = Random() % 3 != 0;
      if (Add)
        Set.add(Begin, End);
      else
        Set.subtract(Begin, End);
      for (std::size_t B = Begin; B < End; ++B)
        Bits[B] = Add;
      REQUIRE(wellFormed(Set));
      REQUIRE(bitmapOf(Set) == Bits);
      // Queries over another random range.
      std::size_t QBegin = Position(Random), QEnd = Position(Random);
      if (QBegin > QEnd)
        std::swap(QBegin, QEnd);
      bool All = true, Any = false;
      std::size_t Count = 0;
      for (std::size_t B = 0; B < Universe; ++B)
        Count += Bits[B];
      for (std::size_t B = QBegin; B < QEnd; ++B) {
        All = All && Bits[B];
        Any = Any || Bits[B];
      }
      CHECK(Set.contains(QBegin, QEnd) == All);
      CHECK(Set.intersects(QBegin, QEnd) == Any);
      CHECK(Set.totalBytes() == Count);
      const RangeSet Missing = Set.missingFrom(QBegin, QEnd);
      REQUIRE(wellFormed(Missing));
      const std::vector<bool> MissingBits = bitmapOf(Missing);
      for (std::size_t B = 0; B < Universe; ++B)
        CHECK(MissingBits[B] == (B >= QBegin && B < QEnd && !Bits[B]));
    }
  }
}

TEST_CASE("set operations between range sets match the bitmaps'", "[rangeset]") {
  std::mt19937 Random(7);
  std::uniform_int_distribution<std::size_t> Position(0, Universe);
  auto randomSet = [&] {
    RangeSet Set;
    for (int I = 0; I < 6; ++I) {
      std::size_t Begin = Position(Random), End = Position(Random);
      if (Begin > End)
        std::swap(Begin, End);
      Set.add(Begin, End);
    }
    return Set;
  };
  for (int Round = 0; Round < 300; ++Round) {
    const RangeSet A = randomSet(), B = randomSet();
    const std::vector<bool> BitsA = bitmapOf(A), BitsB = bitmapOf(B);
    RangeSet Union = A;
    Union.add(B);
    RangeSet Difference = A;
    Difference.subtract(B);
    const RangeSet Common = A.intersection(B);
    REQUIRE(wellFormed(Union));
    REQUIRE(wellFormed(Difference));
    REQUIRE(wellFormed(Common));
    const std::vector<bool> U = bitmapOf(Union), D = bitmapOf(Difference), C = bitmapOf(Common);
    for (std::size_t Byte = 0; Byte < Universe; ++Byte) {
      CHECK(U[Byte] == (BitsA[Byte] || BitsB[Byte]));
      CHECK(D[Byte] == (BitsA[Byte] && !BitsB[Byte]));
      CHECK(C[Byte] == (BitsA[Byte] && BitsB[Byte]));
    }
  }
}

TEST_CASE("touching ranges fuse into one span, empty ones add nothing", "[rangeset]") {
  RangeSet Set(0, 4);
  Set.add(4, 8);
  CHECK(Set.spans().size() == 1);
  Set.add(10, 10);
  CHECK(Set.spans().size() == 1);
  Set.subtract(2, 6);
  CHECK(Set.spans().size() == 2);
  CHECK(Set.totalBytes() == 4);
  Set.clear();
  CHECK(Set.empty());
}

TEST_CASE("set operations between sets of many short spans match the bitmaps'", "[rangeset]") {
  // Columns of a matrix and their complements: the operations walk both sets once.
  std::mt19937 Random(11);
  std::uniform_int_distribution<std::size_t> Position(0, Universe - 1), Length(1, 3);
  auto randomSet = [&] {
    RangeSet Set;
    for (int I = 0; I < 20; ++I) {
      const std::size_t Begin = Position(Random);
      Set.add(Begin, std::min(Universe, Begin + Length(Random)));
    }
    return Set;
  };
  for (int Round = 0; Round < 300; ++Round) {
    const RangeSet A = randomSet(), B = randomSet();
    const std::vector<bool> BitsA = bitmapOf(A), BitsB = bitmapOf(B);
    RangeSet Union = A, Difference = A;
    Union.add(B);
    Difference.subtract(B);
    REQUIRE(wellFormed(Union));
    REQUIRE(wellFormed(Difference));
    const std::vector<bool> U = bitmapOf(Union), D = bitmapOf(Difference);
    for (std::size_t Byte = 0; Byte < Universe; ++Byte) {
      CHECK(U[Byte] == (BitsA[Byte] || BitsB[Byte]));
      CHECK(D[Byte] == (BitsA[Byte] && !BitsB[Byte]));
    }
  }
}

TEST_CASE("strided runs cover a set's spans exactly, equal spans at one pitch as one run",
          "[rangeset]") {
  RangeSet Column;
  for (std::size_t Row = 0; Row < 5; ++Row)
    Column.add(Row * 16 + 4, Row * 16 + 8); // a float column of a 4-wide row-major matrix
  Column.add(90, 92);                       // and something else
  const std::vector<StridedRun> Runs = stridedRuns(Column);
  REQUIRE(Runs.size() == 2);
  CHECK(Runs[0].Begin == 4);
  CHECK(Runs[0].Bytes == 4);
  CHECK(Runs[0].Pitch == 16);
  CHECK(Runs[0].Count == 5);
  CHECK(Runs[1].Begin == 90);
  CHECK(Runs[1].Count == 1);

  std::mt19937 Random(3);
  std::uniform_int_distribution<std::size_t> Position(0, Universe - 1), Length(1, 4);
  for (int Round = 0; Round < 300; ++Round) {
    RangeSet Set;
    for (int I = 0; I < 12; ++I) {
      const std::size_t Begin = Position(Random);
      Set.add(Begin, std::min(Universe, Begin + Length(Random)));
    }
    RangeSet Covered;
    std::size_t Pieces = 0;
    for (const StridedRun &R : stridedRuns(Set)) {
      REQUIRE(R.Count >= 1);
      CHECK(R.Pitch >= R.Bytes);
      for (std::size_t I = 0; I < R.Count; ++I)
        Covered.add(R.Begin + I * R.Pitch, R.Begin + I * R.Pitch + R.Bytes);
      Pieces += R.Count;
    }
    CHECK(Covered == Set);
    CHECK(Pieces == Set.spans().size());
  }
}
