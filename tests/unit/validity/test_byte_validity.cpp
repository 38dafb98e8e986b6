// Which bytes of a buffer are valid where (ByteValidity): a split launch's life, then random
// sequences of copies and writes against a bitmap per place of the same bytes.
#include "byte_validity.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using namespace libsplit;

TEST_CASE("a buffer's bytes through a split launch", "[validity]") {
  ByteValidity V(2, 4096, false);
  const RangeSet Whole(0, 4096), Low(0, 2048), High(2048, 4096);
  // Only the host copy (zeros) at first, never written.
  CHECK(V.validOnHost(Whole));
  CHECK(V.missingOn(0, Whole) == Whole);
  CHECK_FALSE(V.everWritten());
  CHECK_FALSE(V.onlyOn(0, 0, 4096));
  // Each device gets what its slice reads: valid there too.
  V.markValidOn(0, Whole);
  V.markValidOn(1, High);
  CHECK(V.missingOn(0, Whole).empty());
  CHECK(V.missingOn(1, Whole) == Low);
  // Each slice writes its half: valid there alone.
  V.wroteOn(0, Low);
  V.wroteOn(1, High);
  CHECK(V.everWritten());
  CHECK(V.missingOnHost(Whole) == Whole);
  CHECK(V.missingOn(0, Whole) == High);
  CHECK(V.onlyOn(0, 0, 2048));
  CHECK(V.onlyOn(1, 2048, 4096));
  CHECK_FALSE(V.onlyOn(0, 0, 4096));
  // A read gathers both halves on the host: valid there as well.
  V.markValidOnHost(Whole);
  CHECK(V.validOnHost(Whole));
  CHECK_FALSE(V.onlyOn(0, 0, 2048));
  // The app writes a few bytes: the devices' copies of them are stale.
  V.wroteOnHost(RangeSet(100, 200));
  CHECK(V.missingOn(0, Low) == RangeSet(100, 200));
  CHECK(V.wholeOn(1, 2048, 4096));
  CHECK_FALSE(V.wholeOn(0, 0, 2048));
}

TEST_CASE("bytes marked valid for a copy that never ran are forgotten there alone", "[validity]") {
  ByteValidity V(2, 4096, false);
  const RangeSet Whole(0, 4096), Low(0, 2048), High(2048, 4096);
  V.wroteOn(0, Whole);
  V.markValidOn(1, Whole);
  const std::uint64_t Before = V.generation();
  V.forgetOn(1, High);
  CHECK(V.generation() != Before);
  CHECK(V.missingOn(1, Whole) == High);
  CHECK(V.wholeOn(0, 0, 4096));
  CHECK(V.onlyOn(0, 2048, 4096));
  // Nothing there to forget: nothing changes.
  const std::uint64_t After = V.generation();
  V.forgetOn(1, High);
  CHECK(V.generation() == After);
}

TEST_CASE("the app's data counts as written from the start", "[validity]") {
  ByteValidity V(1, 64, true);
  CHECK(V.everWritten());
  CHECK(V.validOnHost(RangeSet(0, 64)));
}

TEST_CASE("validity follows random copies and writes exactly", "[validity]") {
  constexpr std::size_t Bytes = 256, Devices = 3;
  std::mt19937 Random(7);
  for (int Round = 0; Round < 200; ++Round) {
    ByteValidity V(Devices, Bytes, false);
    // Place Devices is the host.
    std::vector<std::vector<bool>> Model(Devices + 1, std::vector<bool>(Bytes, false));
    Model[Devices].assign(Bytes, true);
    std::size_t Begin = 0, End = 1, Place = 0;
    bool Write = false;
    for (int Step = 0; Step < 40; ++Step) {
      // One step in four does the last one again (a loop's launches: nothing changes).
      if (Step == 0 || Random() % 4 != 0) {
        Begin = Random() % Bytes;
        End = Random() % Bytes;
        if (Begin > End)
          std::swap(Begin, End);
        if (Begin == End)
          ++End;
        Place = Random() % (Devices + 1);
        Write = Random() % 2;
      }
      const RangeSet Ranges(Begin, End);
      // Every change moves the generation on (a repeated launch trusts an unchanged one); a
      // call that changes nothing, and questions, leave it.
      const std::uint64_t Before = V.generation();
      const auto ModelBefore = Model;
      const bool WrittenBefore = V.everWritten();
      if (Write) {
        for (std::size_t P = 0; P <= Devices; ++P)
          for (std::size_t B = Begin; B < End; ++B)
            Model[P][B] = P == Place;
        Place == Devices ? V.wroteOnHost(Ranges) : V.wroteOn(Place, Ranges);
      } else {
        for (std::size_t B = Begin; B < End; ++B)
          Model[Place][B] = true;
        Place == Devices ? V.markValidOnHost(Ranges) : V.markValidOn(Place, Ranges);
      }
      const std::uint64_t Changed = V.generation();
      REQUIRE((Changed != Before) == (Model != ModelBefore || V.everWritten() != WrittenBefore));
      for (std::size_t P = 0; P <= Devices; ++P) {
        const RangeSet Missing =
            P == Devices ? V.missingOnHost(RangeSet(0, Bytes)) : V.missingOn(P, RangeSet(0, Bytes));
        for (std::size_t B = 0; B < Bytes; ++B)
          REQUIRE(Missing.contains(B, B + 1) == !Model[P][B]);
      }
      // onlyOn agrees with the model for the step's range, a range asked at every step of the
      // round (an answer remembered from before this step's change must not stand) and a part
      // of it (asked right after the whole: remembered), on each device.
      auto only = [&](std::size_t D, std::size_t From, std::size_t To) {
        bool Only = true;
        for (std::size_t B = From; B < To; ++B)
          for (std::size_t P = 0; P <= Devices; ++P)
            Only = Only && Model[P][B] == (P == D);
        return Only && V.everWritten();
      };
      for (std::size_t D = 0; D < Devices; ++D) {
        REQUIRE(V.onlyOn(D, Begin, End) == only(D, Begin, End));
        REQUIRE(V.onlyOn(D, Bytes / 4, Bytes / 2) == only(D, Bytes / 4, Bytes / 2));
        REQUIRE(V.onlyOn(D, Bytes / 4 + 8, Bytes / 2 - 8) == only(D, Bytes / 4 + 8, Bytes / 2 - 8));
      }
      REQUIRE(V.generation() == Changed);
      const ByteValidity Copy = V;
      REQUIRE(Copy.generation() == Changed);
    }
  }
}
