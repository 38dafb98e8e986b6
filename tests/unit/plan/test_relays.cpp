// Relays (interpose/src/launch/relays.hpp, memory/relay.hpp) on the fake backend: which bytes a
// device gets relayed from another instead of through the host copy, that they arrive through a
// ring smaller than they are, what the relay costs in the split's price, and what stays on the
// host's way.
#include "link_probe.hpp"
#include "relays.hpp"
#include "stencil_launch.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace libsplit;

namespace {

// 16 MiB a buffer: relays of several MiB, pieces of a few MiB, more pieces than the ring's slots.
constexpr std::size_t Items = std::size_t{4} << 20, Local = 64;

// Device Holder's copy of B, filled with bytes that say where they are.
void fillOn(Buffer &B, ExecDevice &Holder, testing::FakeBackend &Backend) {
  cl_int Error = CL_SUCCESS;
  cl_mem Real = B.realOn(Holder, Error);
  REQUIRE(Real);
  std::uint8_t *Bytes = Backend.bytesOf(Real);
  for (std::size_t I = 0; I < B.size(); ++I)
    Bytes[I] = static_cast<std::uint8_t>(I * 7 + 3);
}

bool sameOn(Buffer &B, ExecDevice &Device, const RangeSet &Ranges, testing::FakeBackend &Backend) {
  cl_int Error = CL_SUCCESS;
  const std::uint8_t *Bytes = Backend.bytesOf(B.realOn(Device, Error));
  for (const Span &S : Ranges.spans())
    for (std::size_t I = S.Begin; I < S.End; ++I)
      if (Bytes[I] != static_cast<std::uint8_t>(I * 7 + 3))
        return false;
  return true;
}

} // namespace

TEST_CASE("bytes only another device holds, a MiB or more in few spans, are relayed to the "
          "lacking device") {
  testing::StencilLaunch S(2, Items, Local);
  auto &Backend = S.Home->Backend;
  ExecDevice &App = *S.Home->devices()[0], &Other = *S.Home->devices()[1];
  const std::size_t Bytes = S.Bytes;
  S.In->wroteOn(1, RangeSet(0, Bytes)); // device 1 alone holds the newest bytes
  fillOn(*S.In, Other, Backend);

  SECTION("five spans of 1.5 MiB through a ring of two 4 MiB slots") {
    RangeSet Missing;
    for (std::size_t I = 0; I < 5; ++I)
      Missing.add(I * (3 << 20), I * (3 << 20) + (3 << 19));
    RangeSet Off = Missing;
    CHECK(takeRelayParts(*S.In, App, Off, false).empty()); // LIBSPLIT_RELAY=0
    CHECK(Off == Missing);
    std::vector<LaunchRelay> Relays{{S.In.get(), &App, takeRelayParts(*S.In, App, Missing, true)}};
    REQUIRE(Relays[0].Parts.size() == 1);
    CHECK(Relays[0].Parts[0].From == &Other);
    CHECK(Missing.empty()); // nothing left for the host copy
    const RangeSet Relayed = Relays[0].Parts[0].Ranges;
    CHECK(Relayed.totalBytes() == 5 * (std::size_t{3} << 19));
    const std::uint64_t WrittenBefore = Backend.bytesWrittenTo(0);
    REQUIRE(runRelays(Relays) == CL_SUCCESS);
    CHECK(sameOn(*S.In, App, Relayed, Backend));
    CHECK(Backend.bytesReadFrom(1) == Relayed.totalBytes());
    CHECK(Backend.bytesWrittenTo(0) - WrittenBefore == Relayed.totalBytes());
    CHECK(Backend.liveEvents() == 0);
    CHECK(relaySecondsOf(Relays, App) >= 0.0);
    CHECK(relaySecondsOf(Relays, Other) == 0.0);
    CHECK_FALSE(S.In->validOnHost(Relayed)); // the host copy was not the way
  }
  SECTION("a span larger than the ring, in pieces") {
    RangeSet Missing(0, Bytes);
    std::vector<LaunchRelay> Relays{{S.In.get(), &App, takeRelayParts(*S.In, App, Missing, true)}};
    REQUIRE(runRelays(Relays) == CL_SUCCESS);
    CHECK(sameOn(*S.In, App, RangeSet(0, Bytes), Backend));
  }
  SECTION("what stays on the host's way") {
    RangeSet Small(0, Buffer::MinRelayBytes - 1); // a halo's few rows: tuned for latency
    CHECK(takeRelayParts(*S.In, App, Small, true).empty());
    RangeSet Rows; // a column's many rows: the host copy's rectangles
    for (std::size_t I = 0; I <= Buffer::MostRelaySpans; ++I)
      Rows.add(I * 65536, I * 65536 + 32768);
    REQUIRE(Rows.totalBytes() >= Buffer::MinRelayBytes);
    CHECK(takeRelayParts(*S.In, App, Rows, true).empty());
    S.Out->wroteOnHost(RangeSet(0, Bytes)); // the host holds it: sent from there, once
    RangeSet OnHost(0, Bytes);
    CHECK(takeRelayParts(*S.Out, App, OnHost, true).empty());
    Backend.offerRelayStaging(false); // no page-locked memory
    RangeSet All(0, Bytes);
    CHECK(takeRelayParts(*S.In, App, All, true).empty());
    CHECK(All.totalBytes() == Bytes);
  }
  SECTION("a failed transfer comes back as its error, nothing left waiting") {
    RangeSet Missing(0, Bytes);
    std::vector<LaunchRelay> Relays{{S.In.get(), &App, takeRelayParts(*S.In, App, Missing, true)}};
    Backend.failTransfer(2, CL_OUT_OF_RESOURCES);
    CHECK(runRelays(Relays) == CL_OUT_OF_RESOURCES);
    CHECK(Backend.liveEvents() == 0);
  }
}

TEST_CASE("relayed bytes are priced once: the ring's read and write overlap") {
  testing::StencilLaunch S(2, Items, Local);
  const std::size_t Half = S.Bytes / 2;
  for (Buffer *B : {S.In.get(), S.Out.get()}) {
    B->wroteOn(0, RangeSet(0, Half));
    B->wroteOn(1, RangeSet(Half, S.Bytes));
  }
  const auto Slices = S.slices({0, S.Groups / 2, S.Groups});
  const auto Plans = S.plan(Slices);
  ExecDevice &App = *S.Home->devices()[0];
  // The other half of both buffers (less the halos the app's device holds already): through the
  // host twice, relayed once.
  const double OtherHalves = double(Half + Half - 4);
  CHECK(priceBytes(Plans, Slices, App, true).Whole == 2.0 * OtherHalves);
  CHECK(priceBytes(Plans, Slices, App, true, {false, true}).Whole == OtherHalves);
  // Measured as a device opened (link_probe.hpp): at four times the assumed link's rate at the
  // slower end, a relayed byte costs a quarter of one sent from the host.
  const double Assumed = planner::GuardSettings{}.LinkBytesPerSecond;
  S.Home->devices()[1]->PageLockedBytesPerSecond = 4.0 * Assumed;
  CHECK(priceBytes(Plans, Slices, App, true, {false, true}).Whole == OtherHalves / 4.0);
  App.PageLockedBytesPerSecond = 8.0 * Assumed;
  CHECK(priceBytes(Plans, Slices, App, true, {false, true}).Whole == OtherHalves / 4.0);
  // A halo of a few bytes stays on the host's way, counted twice either way.
  CHECK(bytesPerSlice(Plans, Slices, {false, true}) == bytesPerSlice(Plans, Slices));
}

TEST_CASE("a device's page-locked rate is measured once as it opens, its scratch released") {
  testing::StencilLaunch S(3, 1024, 64);
  auto &Backend = S.Home->Backend;
  ExecDevice &Measured = *S.Home->devices()[1];
  const std::size_t Buffers = Backend.liveBuffers();
  const std::uint64_t Written = Backend.bytesWrittenTo(1), Read = Backend.bytesReadFrom(1);
  probePageLockedLink(Backend, Measured);
  CHECK(Measured.PageLockedBytesPerSecond > 0.0);
  CHECK(Backend.liveBuffers() == Buffers);
  CHECK(Backend.bytesWrittenTo(1) - Written == 2 * (std::size_t{16} << 20));
  CHECK(Backend.bytesReadFrom(1) - Read == 2 * (std::size_t{16} << 20));

  ExecDevice &Failing = *S.Home->devices()[2];
  Backend.failTransfer(1, CL_OUT_OF_RESOURCES);
  probePageLockedLink(Backend, Failing);
  CHECK(Failing.PageLockedBytesPerSecond == 0.0); // unmeasured: relays priced as the host's way
  CHECK(Backend.liveBuffers() == Buffers);

  ExecDevice &NoPageLocked = *S.Home->devices()[0];
  Backend.offerRelayStaging(false);
  probePageLockedLink(Backend, NoPageLocked);
  CHECK(NoPageLocked.PageLockedBytesPerSecond == 0.0);
}

TEST_CASE("relays that would drive one device from two threads run one after the other") {
  using Waves = std::vector<std::vector<std::size_t>>;
  CHECK(relayWaves({}).empty());
  // Two devices, each holding what the other lacks: each relay reads on one and writes on the
  // other, so they cannot run at once.
  CHECK(relayWaves({{0, 1}, {1, 0}}) == Waves{{0}, {1}});
  // Four devices, two pairs apart: at once.
  CHECK(relayWaves({{0, 1}, {2, 3}}) == Waves{{0, 1}});
  // A holder relaying to two devices, beside one apart and one sharing its second target.
  CHECK(relayWaves({{0, 1, 2}, {3, 4}, {5, 2}}) == Waves{{0, 1}, {2}});
}
