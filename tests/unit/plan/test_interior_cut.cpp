// A slice's interior (interior_cut.hpp): the groups that can run before the bytes their device
// lacks arrive, found by trimming the slice's ends, checked on the stencil's regions.
#include "interior_cut.hpp"
#include "stencil_launch.hpp"

#include <catch2/catch.hpp>

using namespace libsplit;

TEST_CASE("an interior trims the fewest groups at the ends that need what is missing") {
  // Groups below Low and from High on need missing bytes.
  auto needsFrom = [](std::size_t Low, std::size_t High, int &Asked) {
    return [=, &Asked](const GroupSpan &Part) {
      ++Asked;
      return Part.First >= Low && Part.End <= High;
    };
  };
  int Asked = 0;
  CHECK(interiorOf(0, 64, needsFrom(0, 63, Asked)) == GroupSpan{0, 63});    // the high end alone
  CHECK(interiorOf(10, 74, needsFrom(11, 74, Asked)) == GroupSpan{11, 74}); // the low end
  CHECK(interiorOf(0, 64, needsFrom(1, 63, Asked)) == GroupSpan{1, 63});    // both
  CHECK(interiorOf(0, 64, needsFrom(3, 64, Asked)) == GroupSpan{4, 64});    // 3 groups: 4 go
  CHECK(interiorOf(0, 64, needsFrom(0, 40, Asked)) == GroupSpan{0, 32});    // half is kept
  CHECK(interiorOf(0, 64, needsFrom(0, 20, Asked)).empty());                // less is not worth it
  CHECK(interiorOf(0, 3, needsFrom(1, 3, Asked)) == GroupSpan{1, 3});
  CHECK(interiorOf(5, 6, needsFrom(0, 100, Asked)).empty()); // one group: nothing to trim
  Asked = 0;
  CHECK(interiorOf(0, 64, needsFrom(100, 0, Asked)).empty());
  CHECK(Asked == 6 * 2 + 5); // trims of 1 to 32 groups at one end, of 1 to 16 at both
}

TEST_CASE("a stencil slice's interior avoids the halo its device lacks, and is kept") {
  libsplit::testing::StencilLaunch S(2, 4096, 64);
  REQUIRE(hasRegions(S.Facts, S.R));
  const std::size_t Half = S.Groups / 2, HalfBytes = S.Bytes / 2;
  const analysis::NDRange Range = ndrangeOf(S.R);
  const analysis::LaunchArgs Scalars = scalarsOf(S.R);
  // Device 1 runs the upper half and lacks in's element below it (its halo), device 0 the one
  // above its lower half.
  const std::map<Buffer *, RangeSet> UpperLacks{{S.In.get(), RangeSet(HalfBytes - 4, HalfBytes)}};
  const std::map<Buffer *, RangeSet> LowerLacks{{S.In.get(), RangeSet(HalfBytes, HalfBytes + 4)}};
  int Asked = 0;
  auto avoids = [&](const std::map<Buffer *, RangeSet> &Missing) {
    return [&](const GroupSpan &Part) {
      ++Asked;
      return avoidsMissing(S.Facts, S.R, Range, Scalars, 0, Part, Missing);
    };
  };
  CHECK_FALSE(avoids(UpperLacks)({Half, S.Groups}));
  CHECK(interiorOf(Half, S.Groups, avoids(UpperLacks)) == GroupSpan{Half + 1, S.Groups});
  CHECK(interiorOf(0, Half, avoids(LowerLacks)) == GroupSpan{0, Half - 1});
  // Bytes lacking in the middle of the slice leave no interior.
  const std::map<Buffer *, RangeSet> Middle{
      {S.In.get(), RangeSet(HalfBytes / 2, HalfBytes / 2 + 4)}};
  CHECK(interiorOf(0, Half, avoids(Middle)).empty());
  // Out's old bytes are needed too (its guards): lacking them counts.
  const std::map<Buffer *, RangeSet> OutLacks{
      {S.Out.get(), RangeSet(HalfBytes + 1024, HalfBytes + 1028)}};
  CHECK_FALSE(avoids(OutLacks)({Half + 1, S.Groups}));

  InteriorMemo Memo;
  Asked = 0;
  CHECK(Memo.interior(1, {Half, S.Groups}, avoids(UpperLacks)) == GroupSpan{Half + 1, S.Groups});
  const int Searched = Asked;
  CHECK(Memo.interior(1, {Half, S.Groups}, avoids(UpperLacks)) == GroupSpan{Half + 1, S.Groups});
  CHECK(Asked == Searched + 1); // the kept interior checked once
  // Lacking more than the kept interior avoids: searched again.
  const std::map<Buffer *, RangeSet> Wider{{S.In.get(), RangeSet(HalfBytes - 4, HalfBytes + 256)}};
  CHECK(Memo.interior(1, {Half, S.Groups}, avoids(Wider)) == GroupSpan{Half + 2, S.Groups});
  // A slice with none is not searched again while its bounds stay.
  CHECK(Memo.interior(0, {0, Half}, avoids(Middle)).empty());
  Asked = 0;
  CHECK(Memo.interior(0, {0, Half}, avoids(Middle)).empty());
  CHECK(Asked == 0);
}

TEST_CASE("a kernel's overlap choice: always, off, or its trial over held launches only") {
  using Clock = std::chrono::steady_clock;
  OverlapChoice Choice;
  const Clock::time_point Start = Clock::now();
  CHECK(Choice.next(config::OverlapPolicy::Always, false, Start));
  CHECK_FALSE(Choice.next(config::OverlapPolicy::Off, true, Start));
  // A split still searched neither overlaps nor advances the trial: the trial's first block,
  // without, starts at the first held launch.
  for (int I = 0; I < 20; ++I)
    CHECK_FALSE(Choice.next(config::OverlapPolicy::Auto, false, Start));
  std::vector<bool> Ways;
  Clock::time_point Now = Start;
  for (std::size_t I = 0; I < planner::OverlapTrial::TrialLaunches; ++I) {
    Ways.push_back(Choice.next(config::OverlapPolicy::Auto, true, Now));
    Now += std::chrono::microseconds(Ways.back() ? 800 : 1000);
  }
  for (std::size_t I = 0; I < Ways.size(); ++I)
    CHECK(Ways[I] == ((I / planner::OverlapTrial::Block) % 2 == 1));
  CHECK(Choice.next(config::OverlapPolicy::Auto, true, Now)); // the shorter steps won
}
