// Owner computes (interpose/src/launch/owner_cut.*) on the fake backend: where a split leaves a
// buffer divided, the cut that keeps the division, where a launch too small to split runs.
#include "owner_cut.hpp"
#include "stencil_launch.hpp"

#include <catch2/catch.hpp>

using namespace libsplit;

namespace {

constexpr std::size_t AllItems = 4096, GroupItems = 64, Groups = AllItems / GroupItems,
                      Bytes = AllItems * 4;

struct Stencil : libsplit::testing::StencilLaunch {
  explicit Stencil(std::size_t Devices = 2, std::size_t N = AllItems, std::size_t L = GroupItems)
      : StencilLaunch(Devices, N, L) {
    REQUIRE(hasRegions(Facts, R));
  }
  ExecDevice &device(std::size_t I) const { return *Home->devices()[I]; }
  std::vector<size_t> readEdgeCutsAt(std::size_t Proposed) const {
    const auto Plans = plan(slices({0, Proposed, Groups}));
    return readEdgeCuts(Facts, R, Plans, ndrangeOf(R), scalarsOf(R), 0, Groups, Proposed);
  }
  std::optional<size_t> ownerCutAt(std::size_t Proposed) const {
    const auto Plans = plan(slices({0, Proposed, Groups}));
    return ownerCut(Facts, R, Plans, ndrangeOf(R), scalarsOf(R), 0, Groups, Proposed);
  }
  // One device alone: the first (Proposed = Groups) or the second (Proposed = 0).
  std::optional<size_t> ownerCutAlone(std::size_t Device, const void *NotBy = nullptr) const {
    const std::vector<Slice> Alone{{Home->devices()[Device].get(), 0, Groups}};
    const std::size_t Proposed = Device == 0 ? Groups : 0;
    return ownerCut(Facts, R, plan(Alone), ndrangeOf(R), scalarsOf(R), 0, Groups, Proposed, NotBy);
  }
};

} // namespace

// Which kernel made a split: an identity only.
const int ThisKernel = 1, OtherKernel = 2;

TEST_CASE("a two-slice split records where the second slice's writes begin in each buffer") {
  Stencil S;
  noteSplitEdges(S.plan(S.slices({0, Groups / 4, Groups})), 2, &ThisKernel);
  // out[i] for i in the second slice's items: from item Groups / 4 * Local on.
  REQUIRE(S.Out->splitEdge().has_value());
  CHECK(*S.Out->splitEdge() == Groups / 4 * GroupItems * 4);
  CHECK(S.Out->splitEdgeBy() == &ThisKernel);
  CHECK_FALSE(S.In->splitEdge().has_value()); // read only
  // A launch on one device (a probe, a held single device) ends the division.
  noteSplitEdges(S.plan(S.slices({0, Groups})), 1, &ThisKernel);
  CHECK_FALSE(S.Out->splitEdge().has_value());
  CHECK(S.Out->splitEdgeBy() == nullptr);
}

TEST_CASE("the owner's cut keeps the buffer's division, whatever the balancer proposes") {
  Stencil S;
  CHECK_FALSE(S.ownerCutAt(Groups / 2).has_value()); // no split recorded yet
  noteSplitEdges(S.plan(S.slices({0, 20, Groups})), 2, &ThisKernel);
  CHECK(S.ownerCutAt(20) == std::optional<size_t>(20)); // the balancer's keeps it already
  CHECK(S.ownerCutAt(Groups / 2) == std::optional<size_t>(20));
  CHECK(S.ownerCutAt(3) == std::optional<size_t>(20));
  CHECK(S.ownerCutAt(Groups - 1) == std::optional<size_t>(20));
}

TEST_CASE("one device alone is priced against the cut that keeps another kernel's division") {
  Stencil S;
  CHECK_FALSE(S.ownerCutAlone(0).has_value()); // nothing divided yet
  noteSplitEdges(S.plan(S.slices({0, 20, Groups})), 2, &OtherKernel);
  // Either device alone writes across the division: the cut that keeps it.
  CHECK(S.ownerCutAlone(0, &ThisKernel) == std::optional<size_t>(20));
  CHECK(S.ownerCutAlone(1, &ThisKernel) == std::optional<size_t>(20));
  // The division is the launch's own kernel's, from before the balancer found one device
  // faster alone: nothing to keep.
  CHECK_FALSE(S.ownerCutAlone(0, &OtherKernel).has_value());
  // A launch that keeps the division leaves it its maker's; one that moves it makes it its own.
  noteSplitEdges(S.plan(S.slices({0, 20, Groups})), 2, &ThisKernel);
  CHECK(S.Out->splitEdgeBy() == &OtherKernel);
  noteSplitEdges(S.plan(S.slices({0, 30, Groups})), 2, &ThisKernel);
  CHECK(S.Out->splitEdgeBy() == &ThisKernel);
  CHECK(S.ownerCutAlone(0, &OtherKernel) == std::optional<size_t>(30));
}

TEST_CASE("the cuts that keep the divisions of the buffers a launch only reads") {
  Stencil S;
  // Nothing divided yet: nothing to keep.
  CHECK(S.readEdgeCutsAt(Groups / 2).empty());
  // Another kernel's split left in divided at work-group 20's first item.
  S.In->setSplitEdge(20 * GroupItems * 4);
  // The balancer's cut at 20 keeps it: its parts' reads (with the halo on each side) meet there.
  CHECK(S.readEdgeCutsAt(20).empty());
  CHECK(S.readEdgeCutsAt(Groups / 2) == std::vector<size_t>{20});
  CHECK(S.readEdgeCutsAt(3) == std::vector<size_t>{20});
  CHECK(S.readEdgeCutsAt(21) == std::vector<size_t>{20});
  // A buffer the launch writes is the owner's cut's (ownerCut), not this one's.
  S.Out->setSplitEdge(40 * GroupItems * 4);
  CHECK(S.readEdgeCutsAt(Groups / 2) == std::vector<size_t>{20});
}

TEST_CASE("a launch too small to split runs where its data is, moving only its regions' bytes") {
  // One work-group of 64 items over buffers of 4096 items: it uses items 0..64 of in.
  Stencil S(2, AllItems, AllItems);
  S.R.Global = {64, 1, 1};
  S.R.Local = {64, 1, 1};
  std::vector<ExecDevice *> Devices{&S.device(0), &S.device(1)};
  ExecDevice &App = S.device(0);

  SECTION("everything on the host or the app's device: the app's device") {
    CHECK(whereDataIs(S.Facts, S.R, Devices, App, {}) == nullptr);
    for (Buffer *B : {S.In.get(), S.Out.get()})
      B->wroteOn(0, RangeSet(0, Bytes));
    CHECK(heldWhollyOn(S.R, App));
    CHECK(whereDataIs(S.Facts, S.R, Devices, App, {}) == nullptr);
  }
  SECTION("its items last written on the other device: there") {
    for (Buffer *B : {S.In.get(), S.Out.get()}) {
      B->wroteOn(1, RangeSet(0, Bytes / 2));
      B->wroteOn(0, RangeSet(Bytes / 2, Bytes));
    }
    CHECK_FALSE(heldWhollyOn(S.R, App));
    CHECK(whereDataIs(S.Facts, S.R, Devices, App, {}) == &S.device(1));
  }
  SECTION("the app's device holds its items though not the buffers: the app's device") {
    for (Buffer *B : {S.In.get(), S.Out.get()}) {
      B->wroteOn(0, RangeSet(0, Bytes / 2));
      B->wroteOn(1, RangeSet(Bytes / 2, Bytes));
    }
    CHECK_FALSE(heldWhollyOn(S.R, App));
    CHECK(whereDataIs(S.Facts, S.R, Devices, App, {}) == nullptr);
  }
}
