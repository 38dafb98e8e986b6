// A kernel's slices' regions kept across its launches (slice_regions.hpp): the plans of a
// launch priced with the memory are those priced without it, and a stencil's next launch of the
// same shape evaluates no slice again; another NDRange or scalar argument starts over.
#include "slice_regions.hpp"
#include "stencil_launch.hpp"

#include <catch2/catch.hpp>

using namespace libsplit;
using namespace libsplit::testing;

namespace {

bool samePlans(const std::map<Buffer *, BufferPlan> &A, const std::map<Buffer *, BufferPlan> &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[Root, P] : A) {
    const auto Other = B.find(Root);
    if (Other == B.end() || P.Need.size() != Other->second.Need.size() ||
        P.Merge != Other->second.Merge || P.Writes != Other->second.Writes)
      return false;
    for (std::size_t I = 0; I < P.Need.size(); ++I)
      if (!(P.Need[I] == Other->second.Need[I]) || !(P.Write[I] == Other->second.Write[I]))
        return false;
  }
  return true;
}

} // namespace

TEST_CASE("a kernel's slices' regions are evaluated once per launch shape", "[plan]") {
  StencilLaunch Launch(2, 4096, 64);
  const std::vector<Slice> Cut = Launch.slices({0, 20, 64});
  const auto Fresh = Launch.plan(Cut);
  SliceRegionMemo Memo;
  Launch.R.RegionMemo = &Memo;
  CHECK(samePlans(Launch.plan(Cut), Fresh));
  CHECK(Memo.evaluated() == 2);
  // The next launch, the same cut: from memory.
  CHECK(samePlans(Launch.plan(Cut), Fresh));
  CHECK(Memo.evaluated() == 2);
  // Another cut: its two slices.
  Launch.plan(Launch.slices({0, 32, 64}));
  CHECK(Memo.evaluated() == 4);
  // Another value of the scalar argument (the stencil's guard reads it): evaluated again, and
  // priced as without the memory.
  const auto N = static_cast<std::uint32_t>(2048);
  const auto *Raw = reinterpret_cast<const std::uint8_t *>(&N);
  Launch.R.Args[2].Value.assign(Raw, Raw + sizeof(N));
  const auto Smaller = Launch.plan(Cut);
  CHECK(Memo.evaluated() == 6);
  Launch.R.RegionMemo = nullptr;
  CHECK(samePlans(Smaller, Launch.plan(Cut)));
  CHECK_FALSE(samePlans(Smaller, Fresh));
  // Another NDRange: evaluated again.
  Launch.R.RegionMemo = &Memo;
  Launch.R.Local = {32, 1, 1};
  Launch.plan(Launch.slices({0, 40, 128}));
  CHECK(Memo.evaluated() == 8);
}
