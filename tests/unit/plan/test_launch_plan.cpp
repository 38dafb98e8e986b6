// A split's plan on a fake backend: a 1-D three-point stencil (in -> out) cut in two, its
// regions from a summary as libsplit-cc writes them, the buffers' validity made up per case.
#include "peer_copies.hpp"
#include "stencil_launch.hpp"

#include <catch2/catch.hpp>

using namespace libsplit;

namespace {

constexpr std::size_t StencilItems = 4096, StencilLocal = 64, Groups = StencilItems / StencilLocal,
                      Bytes = StencilItems * 4;

struct Stencil : libsplit::testing::StencilLaunch {
  explicit Stencil(std::size_t Devices, bool SharedContext = false)
      : StencilLaunch(Devices, StencilItems, StencilLocal, SharedContext) {
    REQUIRE(hasRegions(Facts, R));
  }
};

} // namespace

TEST_CASE("a stencil's slices need their items and one halo element each side, write their own") {
  Stencil S(2);
  const auto Slices = S.slices({0, Groups / 2, Groups});
  auto Plans = S.plan(Slices);
  REQUIRE(Plans.size() == 2);
  const BufferPlan &In = Plans.at(S.In.get()), &Out = Plans.at(S.Out.get());
  const std::size_t Half = Bytes / 2;
  CHECK_FALSE(In.Writes);
  CHECK(In.Need[0].contains(0, Half + 4));
  CHECK(In.Need[0].totalBytes() == Half + 4); // items 0 .. n/2, the last one the halo
  CHECK(In.Need[1].contains(Half - 4, Bytes));
  CHECK(In.Need[1].totalBytes() == Half + 4);
  CHECK(Out.Writes);
  CHECK_FALSE(Out.Merge);                       // disjoint writes stay where they were made
  CHECK(Out.Write[0].totalBytes() == Half - 4); // item 0 is not written
  CHECK(Out.Write[1].totalBytes() == Half - 4); // nor item n - 1
  CHECK(Out.Write[0].intersection(Out.Write[1]).empty());
  CHECK(Out.Need[0].contains(4, Half)); // a written region's old bytes come first (guards)
}

TEST_CASE("a split prices only what each device lacks, the host round trip counted twice") {
  Stencil S(2);
  const auto Slices = S.slices({0, Groups / 2, Groups});
  ExecDevice &App = *S.Home->devices()[0];
  const std::size_t Half = Bytes / 2;

  SECTION("everything on the host: each device receives its part, the app's device all") {
    const planner::PricedBytes Priced = priceBytes(S.plan(Slices), Slices, App, true);
    CHECK(Priced.Split == double((Half + 4) + (Half - 4))); // in's part, out's written part
    CHECK(Priced.Whole == double(Bytes + Bytes - 8));       // all of in, out but its ends
    CHECK(Priced.LargestShare == Approx(0.5));
  }
  SECTION("each half already on its device (the split before): only the halos move") {
    for (Buffer *B : {S.In.get(), S.Out.get()}) {
      B->wroteOn(0, RangeSet(0, Half));
      B->wroteOn(1, RangeSet(Half, Bytes));
    }
    const auto Plans = S.plan(Slices);
    // Each halo element lives on the other device only: read back and sent, 8 bytes.
    CHECK(bytesPerSlice(Plans, Slices) == std::vector<double>{8.0, 8.0});
    // Whole on the app's device: the other half of both buffers, through the host.
    CHECK(priceBytes(Plans, Slices, App, true).Whole == double(2 * (Half + Half - 4)));
  }
  SECTION("a cut away from where the data is moves what changes hands") {
    for (Buffer *B : {S.In.get(), S.Out.get()}) {
      B->wroteOn(0, RangeSet(0, Half));
      B->wroteOn(1, RangeSet(Half, Bytes));
    }
    const auto Shifted = S.slices({0, Groups / 4, Groups});
    const std::vector<double> Moved = bytesPerSlice(S.plan(Shifted), Shifted);
    CHECK(Moved[0] == 0.0);         // device 0 needs less than it holds, halo included
    CHECK(Moved[1] > double(Half)); // device 1 takes a quarter of both buffers, twice counted
  }
}

TEST_CASE("bytes a peer of the same context holds are priced once: they go device to device") {
  Stencil S(2, true);
  const auto Slices = S.slices({0, Groups / 2, Groups});
  const std::size_t Half = Bytes / 2;
  for (Buffer *B : {S.In.get(), S.Out.get()}) {
    B->wroteOn(0, RangeSet(0, Half));
    B->wroteOn(1, RangeSet(Half, Bytes));
  }
  const auto Plans = S.plan(Slices);
  CHECK(bytesPerSlice(Plans, Slices, {true, false}) == std::vector<double>{4.0, 4.0});
  CHECK(bytesPerSlice(Plans, Slices, {false, false}) == std::vector<double>{8.0, 8.0});
  ExecDevice &App = *S.Home->devices()[0];
  CHECK(priceBytes(Plans, Slices, App, true, {true, false}).Whole == double(Half + Half - 4));
}

TEST_CASE("one slice writes in place, overlapping writes merge") {
  Stencil S(3);
  auto One = S.plan(S.slices({0, Groups}));
  CHECK_FALSE(One.at(S.Out.get()).Merge);
  // A summary whose write regions overlap between neighbouring slices must merge.
  analysis::ProgramSummary Program;
  std::string Error;
  REQUIRE(analysis::parseSummary(R"(libsplit-summary 2
kernel stencil splittable
arg 0 global - in
  access read bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 1 global - out
  access write bytes (mul (sub gid0 1) 4) (add (mul (add gid0 1) 4) 3)
arg 2 scalar u32 n
end
)",
                                 Program, Error));
  S.Facts.Regions = *Program.find("stencil");
  auto Three = S.plan(S.slices({0, Groups / 3, 2 * Groups / 3, Groups}));
  CHECK(Three.at(S.Out.get()).Merge);
  CHECK_FALSE(Three.at(S.In.get()).Writes);
}

TEST_CASE("a launch's peer parts: staged on each holder, released with the launch") {
  Stencil S(3, true);
  const std::size_t Half = Bytes / 2;
  // Device 1 wrote the first half of in, device 2 the second: device 0 takes both from them.
  S.In->wroteOn(1, RangeSet(0, Half));
  S.In->wroteOn(2, RangeSet(Half, Bytes));
  ExecDevice &Target = *S.Home->devices()[0];
  std::size_t Staging = 0; // live buffers while the launch holds its staging buffers
  {
    PeerMarkers Markers(S.Home->Backend);
    RangeSet Missing(0, Bytes);
    RangeSet Off = Missing;
    CHECK(takePeerParts(*S.In, Target, Off, Markers, false).empty()); // LIBSPLIT_PEER_COPY=0
    CHECK(Off.totalBytes() == Bytes);
    const std::vector<Buffer::PeerPart> Parts =
        takePeerParts(*S.In, Target, Missing, Markers, true);
    REQUIRE(Parts.size() == 2);
    CHECK(Missing.empty());                   // nothing left for the host to send
    CHECK(S.Home->Backend.liveEvents() == 2); // a marker per holder
    Staging = S.Home->Backend.liveBuffers();
    CHECK(S.Home->Backend.bytesCopiedTo(1) + S.Home->Backend.bytesCopiedTo(2) == Bytes);
    cl_int Result = CL_SUCCESS;
    Target.Worker->runHere([&] { Result = copyPeerParts(*S.In, Target, Parts); });
    REQUIRE(Result == CL_SUCCESS);
    CHECK(S.Home->Backend.bytesCopiedTo(0) == Bytes);
  }
  CHECK(S.Home->Backend.liveEvents() == 0);
  CHECK(S.Home->Backend.liveBuffers() + 2 == Staging); // a staging buffer per span, released
}
