// A buffer's data path on a fake backend: host writes, launches on devices, reads, sub-buffers,
// device errors. What is checked is the bytes themselves, against a model of what the app wrote
// and its kernels changed, and the bytes each device was sent.
#include "buffer.hpp"
#include "test_home.hpp"

#include <catch2/catch.hpp>

#include <deque>
#include <functional>
#include <random>
#include <tuple>

using namespace libsplit;
using libsplit::testing::TestHome;

namespace {

using Bytes = std::vector<std::uint8_t>;

// What a whole launch on Device does to a buffer argument (launch/launch.cpp, runWhole): the
// bytes of Need the device lacks are made valid on the host (from whichever device holds them)
// and sent from there on the device's worker; the kernel then runs on the device's copy (after
// the transfers: one in-order queue) and changes Writes (root coordinates both). Kernel gets the
// device's copy of B (its first byte is B's first byte, a sub-buffer's origin in its root).
cl_int runKernel(TestHome &Home, Buffer &B, std::size_t Device, const RangeSet &Need,
                 const RangeSet &Writes, const std::function<void(std::uint8_t *)> &Kernel) {
  ExecDevice &On = *Home.devices()[Device];
  RangeSet Missing = B.missingOn(Device, Need);
  if (B.neverWritten()) {
    B.markValidOn(Device, Missing);
    Missing.clear();
  }
  if (cl_int Error = B.fetchToHost(Missing); Error != CL_SUCCESS)
    return Error;
  cl_int Result = CL_SUCCESS;
  cl_mem Real = nullptr;
  On.Worker->runHere([&] {
    if ((Result = B.pushOnWorker(On, Missing)) != CL_SUCCESS)
      return;
    if ((Real = B.realOn(On, Result)))
      Result = Home.Backend.finish(On.RealQueue);
  });
  if (Result != CL_SUCCESS)
    return Result;
  B.markValidOn(Device, Missing);
  Kernel(Home.Backend.bytesOf(Real));
  B.wroteOn(Device, Writes);
  return CL_SUCCESS;
}

Bytes readAll(Buffer &B) {
  Bytes Out(B.size());
  REQUIRE(B.read(0, B.size(), Out.data()) == CL_SUCCESS);
  return Out;
}

Bytes pattern(std::size_t Size, std::uint8_t Seed) {
  Bytes Out(Size);
  for (std::size_t I = 0; I < Size; ++I)
    Out[I] = static_cast<std::uint8_t>(Seed + I * 7);
  return Out;
}

} // namespace

TEST_CASE("a device gets what its kernel needs, once, and its writes reach the app's reads") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 1024, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  Bytes Truth = pattern(1024, 1);
  B->write(0, 1024, Truth.data(), Buffer::HostSource::App);
  CHECK(Home->Backend.bytesWrittenTo(0) == 0); // nothing travels before a launch needs it

  const RangeSet Front(0, 512);
  REQUIRE(runKernel(*Home, *B, 1, Front, RangeSet(100, 200), [&](std::uint8_t *Device) {
            CHECK(Bytes(Device, Device + 512) == Bytes(Truth.begin(), Truth.begin() + 512));
            for (std::size_t I = 100; I < 200; ++I)
              Truth[I] = Device[I] = static_cast<std::uint8_t>(~Device[I]);
          }) == CL_SUCCESS);
  CHECK(Home->Backend.bytesWrittenTo(1) == 512);
  // Again on the same bytes: the device holds them all, nothing moves.
  REQUIRE(runKernel(*Home, *B, 1, Front, RangeSet(), [](std::uint8_t *) {}) == CL_SUCCESS);
  CHECK(Home->Backend.bytesWrittenTo(1) == 512);

  CHECK(readAll(*B) == Truth);
  CHECK(Home->Backend.bytesReadFrom(1) == 100); // only what the kernel wrote came back
  CHECK(!B->validOnHost(RangeSet(100, 200)));   // a read into the app's memory leaves it there

  // Device 0 needs bytes device 1 wrote: they come by the host.
  REQUIRE(runKernel(*Home, *B, 0, RangeSet(0, 1024), RangeSet(), [&](std::uint8_t *Device) {
            CHECK(Bytes(Device, Device + 1024) == Truth);
          }) == CL_SUCCESS);
  CHECK(B->validOnHost(RangeSet(0, 1024)));
}

TEST_CASE("the buffer's bytes are the model's through random writes, launches and reads") {
  std::mt19937 Random(20261126);
  std::size_t Strided = 0;
  for (int Sequence = 0; Sequence < 60; ++Sequence) {
    const std::size_t Devices = 2 + Sequence % 2, Size = 4096;
    auto Home = std::make_shared<TestHome>(Devices);
    auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, Size, nullptr);
    REQUIRE(B->initialize() == CL_SUCCESS);
    Bytes Truth = pattern(Size, static_cast<std::uint8_t>(Sequence));
    B->write(0, Size, Truth.data(), Buffer::HostSource::App);
    std::deque<Bytes> Sources; // of the writes left running
    auto range = [&] {
      std::size_t Begin = Random() % Size, End = Random() % Size;
      if (Begin > End)
        std::swap(Begin, End);
      return RangeSet(Begin, End + 1);
    };
    // A column of a row-major matrix and the like: equal spans at one pitch, which go to and
    // from the devices as strided transfers.
    auto strided = [&] {
      const std::size_t Length = 1 + Random() % 16, Pitch = Length + 1 + Random() % 64;
      const std::size_t Count = 2 + Random() % 40, Begin = Random() % 256;
      RangeSet Set;
      for (std::size_t I = 0; I < Count && Begin + I * Pitch + Length <= Size; ++I)
        Set.add(Begin + I * Pitch, Begin + I * Pitch + Length);
      return Set;
    };
    auto noise = [&](std::size_t Length) {
      Bytes Out(Length);
      for (std::uint8_t &Byte : Out)
        Byte = static_cast<std::uint8_t>(Random());
      return Out;
    };
    for (int Step = 0; Step < 50; ++Step) {
      INFO("sequence " << Sequence << " step " << Step);
      const std::size_t Device = Random() % Devices;
      switch (Random() % 6) {
      case 0:
      case 1: { // a host write: kept on the host, sent to the app's device, or where used
        const Span S = range().spans().front();
        const Bytes From = noise(S.size());
        std::copy(From.begin(), From.end(), Truth.begin() + S.Begin);
        HostUpload To;
        if (Random() % 3 == 1)
          To.AppDevice = &Home->primary();
        else if (Random() % 3 == 2)
          To.WhereUsed = true;
        // A non-blocking write of the app's, left running on the app device's queue: its source
        // stays as it is until later commands there have run.
        const bool Leave = To.AppDevice && !To.WhereUsed && Random() % 2;
        const Bytes &Source = Leave ? Sources.emplace_back(From) : From;
        CHECK(B->write(S.Begin, S.size(), Source.data(), Buffer::HostSource::App, To, Leave) ==
              Leave);
        break;
      }
      case 2:
      case 3: { // a launch: reads Need, writes Writes (within it or not: an output)
        const RangeSet Need = Random() % 3 ? range() : strided();
        const RangeSet Writes = Random() % 2 ? (Random() % 3 ? range() : strided()) : Need;
        const Bytes New = noise(Size);
        REQUIRE(runKernel(*Home, *B, Device, Need, Writes, [&](std::uint8_t *Copy) {
                  for (const Span &S : Need.spans())
                    REQUIRE(Bytes(Copy + S.Begin, Copy + S.End) ==
                            Bytes(Truth.begin() + S.Begin, Truth.begin() + S.End));
                  for (const Span &S : Writes.spans())
                    for (std::size_t I = S.Begin; I < S.End; ++I)
                      Truth[I] = Copy[I] = New[I];
                }) == CL_SUCCESS);
        break;
      }
      case 4: { // the app reads
        const Span S = range().spans().front();
        Bytes Out(S.size());
        REQUIRE(B->read(S.Begin, S.size(), Out.data()) == CL_SUCCESS);
        REQUIRE(Out == Bytes(Truth.begin() + S.Begin, Truth.begin() + S.End));
        break;
      }
      default: { // libsplit's own code reads the host copy
        const RangeSet Wanted = range();
        REQUIRE(B->holdOnHost(Wanted) == CL_SUCCESS);
        const Span S = Wanted.spans().front();
        REQUIRE(Bytes(B->hostData() + S.Begin, B->hostData() + S.End) ==
                Bytes(Truth.begin() + S.Begin, Truth.begin() + S.End));
      }
      }
    }
    REQUIRE(readAll(*B) == Truth);
    Strided += Home->Backend.stridedTransfers();
  }
  CHECK(Strided > 20); // columns went and came back as strided transfers
}

TEST_CASE("a copy between buffers runs on the device that holds its source, else not at all") {
  auto Home = std::make_shared<TestHome>(2);
  auto A = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 1024, nullptr);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 1024, nullptr);
  REQUIRE(A->initialize() == CL_SUCCESS);
  REQUIRE(B->initialize() == CL_SUCCESS);
  const Bytes Truth = pattern(1024, 7);
  HostUpload ToApp;
  ToApp.AppDevice = &Home->primary();
  A->write(0, 1024, Truth.data(), Buffer::HostSource::App, ToApp);
  B->write(0, 1024, pattern(1024, 9).data(), Buffer::HostSource::App);
  cl_int Error = CL_SUCCESS;
  // Device 1 holds none of A: nothing is done there.
  CHECK_FALSE(B->copyOnDevice(*A, 256, 0, 512, *Home->devices()[1], Error));
  CHECK(Home->Backend.bytesCopiedTo(1) == 0);
  // The app's device holds it all: copied there, device side, and B's bytes are valid there alone.
  REQUIRE(B->copyOnDevice(*A, 256, 100, 512, Home->primary(), Error));
  CHECK(Error == CL_SUCCESS);
  CHECK(Home->Backend.bytesCopiedTo(0) == 512);
  Bytes Expected = pattern(1024, 9);
  std::copy(Truth.begin() + 256, Truth.begin() + 768, Expected.begin() + 100);
  CHECK(readAll(*B) == Expected);
}

TEST_CASE("a fill runs on the device, its bytes valid there alone, the rest where it was") {
  auto Home = std::make_shared<TestHome>(2);
  auto Root = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 1024, nullptr);
  REQUIRE(Root->initialize() == CL_SUCCESS);
  auto Sub = std::make_shared<Buffer>(Root, CL_MEM_READ_WRITE, 256, 512);
  Bytes Truth = pattern(1024, 5);
  Root->write(0, 1024, Truth.data(), Buffer::HostSource::App);
  // Device 1 holds none of the buffer: the fill needs none of it there.
  const std::vector<std::uint8_t> Pattern = {1, 2, 3, 4};
  REQUIRE(Sub->fillOnDevice(Pattern, 64, 128, *Home->devices()[1]) == CL_SUCCESS);
  CHECK(Home->Backend.bytesWrittenTo(1) == 0);
  for (std::size_t At = 256 + 64; At < 256 + 64 + 128; ++At)
    Truth[At] = Pattern[At % 4];
  const RangeSet Filled(320, 448);
  CHECK(Root->missingOn(1, Filled).empty());
  CHECK(Root->missingOnHost(Filled) == Filled);
  CHECK(readAll(*Root) == Truth);
  // A pattern that does not divide the range is the device's error, and changes nothing.
  CHECK(Sub->fillOnDevice(Pattern, 2, 128, Home->primary()) == CL_INVALID_VALUE);
  CHECK(readAll(*Root) == Truth);
}

TEST_CASE("a sub-buffer's launch moves its own bytes only, in its root's coordinates") {
  auto Home = std::make_shared<TestHome>(2);
  auto Root = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 4096, nullptr);
  REQUIRE(Root->initialize() == CL_SUCCESS);
  auto Sub = std::make_shared<Buffer>(Root, CL_MEM_READ_WRITE, 1024, 512);
  Bytes Truth = pattern(4096, 3);
  Root->write(0, 4096, Truth.data(), Buffer::HostSource::App);
  const RangeSet Own(1024, 1536);
  REQUIRE(runKernel(*Home, *Sub, 1, Own, Own, [&](std::uint8_t *Copy) {
            // The sub-buffer's copy starts at its own first byte.
            CHECK(Bytes(Copy, Copy + 512) == Bytes(Truth.begin() + 1024, Truth.begin() + 1536));
            for (std::size_t I = 0; I < 512; ++I)
              Truth[1024 + I] = Copy[I] = static_cast<std::uint8_t>(I);
          }) == CL_SUCCESS);
  CHECK(Home->Backend.bytesWrittenTo(1) == 512);
  CHECK(readAll(*Root) == Truth);
  Bytes Middle(16);
  REQUIRE(Sub->read(500, 16, Middle.data()) == CL_SUCCESS);
  CHECK(Middle == Bytes(Truth.begin() + 1524, Truth.begin() + 1540));
}

TEST_CASE("a host write to the app's device goes straight there from the app's memory") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 256, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  const Bytes Truth = pattern(256, 9);
  HostUpload To;
  To.AppDevice = &Home->primary();
  B->write(0, 256, Truth.data(), Buffer::HostSource::App, To);
  CHECK(Home->Backend.bytesWrittenTo(0) == 256);
  CHECK(!B->validOnHost(RangeSet(0, 256))); // the device alone holds them, as natively
  CHECK(B->missingOn(0, RangeSet(0, 256)).empty());
  CHECK(readAll(*B) == Truth);
}

TEST_CASE("a device error comes back as its code, and the bytes stay where they were") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 256, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  Bytes Truth = pattern(256, 5);
  B->write(0, 256, Truth.data(), Buffer::HostSource::App);
  REQUIRE(runKernel(*Home, *B, 1, RangeSet(0, 256), RangeSet(0, 64), [&](std::uint8_t *Copy) {
            for (std::size_t I = 0; I < 64; ++I)
              Truth[I] = Copy[I] = 0;
          }) == CL_SUCCESS);

  Home->Backend.failTransfer(0, CL_OUT_OF_RESOURCES);
  Bytes Out(256);
  CHECK(B->read(0, 256, Out.data()) == CL_OUT_OF_RESOURCES);
  Home->Backend.failTransfer(0, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  CHECK(B->fetchToHost(RangeSet(0, 256)) == CL_MEM_OBJECT_ALLOCATION_FAILURE);
  CHECK(!B->validOnHost(RangeSet(0, 64)));
  CHECK(readAll(*B) == Truth);

  Home->Backend.failTransfer(0, CL_OUT_OF_HOST_MEMORY);
  CHECK(runKernel(*Home, *B, 0, RangeSet(0, 256), RangeSet(), [](std::uint8_t *) {}) ==
        CL_OUT_OF_HOST_MEMORY);
  CHECK(!B->missingOn(0, RangeSet(0, 256)).empty()); // not taken as sent
  REQUIRE(runKernel(*Home, *B, 0, RangeSet(0, 256), RangeSet(), [&](std::uint8_t *Copy) {
            CHECK(Bytes(Copy, Copy + 256) == Truth);
          }) == CL_SUCCESS);
}

TEST_CASE("a buffer registers itself alive and releases its device copies when it goes") {
  auto Home = std::make_shared<TestHome>(3);
  const void *Handle = nullptr;
  {
    auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 128, nullptr);
    REQUIRE(B->initialize() == CL_SUCCESS);
    Handle = static_cast<_cl_mem *>(B.get());
    CHECK(Home->Live.contains(Handle));
    cl_int Error = CL_SUCCESS;
    for (auto &D : Home->devices())
      REQUIRE(B->realOn(*D, Error));
    CHECK(Home->Backend.liveBuffers() == 3);
  }
  CHECK(Home->Backend.liveBuffers() == 0);
  CHECK(!Home->Live.contains(Handle));
}

TEST_CASE("bytes another device of the same context holds go device to device, not by the host") {
  auto Home = std::make_shared<TestHome>(3, config::DeferMode::Copy, true);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 1024, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  Bytes Truth = pattern(1024, 7);
  B->write(0, 1024, Truth.data(), Buffer::HostSource::App);
  // Device 1 writes the first half, device 2 a quarter after it: the host holds neither.
  for (const auto &[Device, Begin, End] :
       {std::tuple<std::size_t, std::size_t, std::size_t>{1, 0, 512}, {2, 512, 768}})
    REQUIRE(runKernel(*Home, *B, Device, RangeSet(Begin, End), RangeSet(Begin, End),
                      [&, Begin = Begin, End = End](std::uint8_t *Copy) {
                        for (std::size_t I = Begin; I < End; ++I)
                          Truth[I] = Copy[I] = static_cast<std::uint8_t>(I * 3);
                      }) == CL_SUCCESS);
  const std::uint64_t ReadBefore = Home->Backend.bytesReadFrom(1) + Home->Backend.bytesReadFrom(2);

  ExecDevice &Target = *Home->devices()[0];
  std::vector<Buffer::PeerPart> Parts = B->peerParts(Target, RangeSet(0, 1024));
  REQUIRE(Parts.size() == 2);
  CHECK(Parts[0].Peer == Home->devices()[1].get());
  CHECK(Parts[0].Ranges.totalBytes() == 512);
  CHECK(Parts[1].Peer == Home->devices()[2].get());
  CHECK(Parts[1].Ranges.totalBytes() == 256); // the last quarter is on the host: not a peer's

  // Each holder copies its bytes into staging buffers of its own, then device 0 from those.
  const std::size_t BuffersBefore = Home->Backend.liveBuffers();
  for (Buffer::PeerPart &Part : Parts) {
    REQUIRE(B->stageOnPeer(Part) == CL_SUCCESS);
    CHECK(Part.Stages.size() == Part.Ranges.spans().size());
    REQUIRE(Home->Backend.marker(Part.Peer->RealQueue, Part.Staged) == CL_SUCCESS);
  }
  CHECK(Home->Backend.bytesCopiedTo(1) == 512);
  CHECK(Home->Backend.bytesCopiedTo(2) == 256);
  cl_int Result = CL_SUCCESS;
  Target.Worker->runHere([&] {
    for (const Buffer::PeerPart &Part : Parts)
      if (Result == CL_SUCCESS)
        Result = B->copyFromPeerOnWorker(Target, Part);
  });
  REQUIRE(Result == CL_SUCCESS);
  for (Buffer::PeerPart &Part : Parts) {
    Home->Backend.releaseEvent(Part.Staged);
    for (cl_mem Stage : Part.Stages)
      Home->Backend.release(Stage);
    B->markValidOn(0, Part.Ranges);
  }
  CHECK(Home->Backend.bytesCopiedTo(0) == 768);
  CHECK(Home->Backend.liveEvents() == 0);
  CHECK(Home->Backend.liveBuffers() == BuffersBefore);
  REQUIRE(runKernel(*Home, *B, 0, RangeSet(0, 1024), RangeSet(), [&](std::uint8_t *Copy) {
            CHECK(Bytes(Copy, Copy + 1024) == Truth);
          }) == CL_SUCCESS);
  CHECK(Home->Backend.bytesReadFrom(1) + Home->Backend.bytesReadFrom(2) == ReadBefore);

  // Devices of separate contexts have no peers.
  auto Apart = std::make_shared<TestHome>(2);
  auto C = std::make_shared<Buffer>(Apart, CL_MEM_READ_WRITE, 64, nullptr);
  REQUIRE(C->initialize() == CL_SUCCESS);
  const Bytes Some = pattern(64, 1);
  C->write(0, 64, Some.data(), Buffer::HostSource::App);
  REQUIRE(runKernel(*Apart, *C, 1, RangeSet(0, 64), RangeSet(0, 64), [](std::uint8_t *) {}) ==
          CL_SUCCESS);
  CHECK(C->peerParts(*Apart->devices()[0], RangeSet(0, 64)).empty());
}

TEST_CASE("a fetch in steps: reads queued, the host's bytes valid only once they are marked") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 1024, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  Bytes Truth = pattern(1024, 3);
  B->write(0, 1024, Truth.data(), Buffer::HostSource::App);
  // Device 0 writes [0, 256), device 1 [512, 640): a halo from each is wanted on the host.
  for (const auto &[Device, Begin, End] :
       {std::tuple<std::size_t, std::size_t, std::size_t>{0, 0, 256}, {1, 512, 640}})
    REQUIRE(runKernel(*Home, *B, Device, RangeSet(Begin, End), RangeSet(Begin, End),
                      [&, Begin = Begin, End = End](std::uint8_t *Copy) {
                        for (std::size_t I = Begin; I < End; ++I)
                          Truth[I] = Copy[I] = static_cast<std::uint8_t>(I * 5 + 1);
                      }) == CL_SUCCESS);
  RangeSet Wanted(240, 256);
  Wanted.add(512, 530);
  Wanted.add(700, 720); // already on the host: no read
  std::vector<Buffer::HostFetch> Parts;
  REQUIRE(B->planFetchToHost(Wanted, Parts) == CL_SUCCESS);
  REQUIRE(Parts.size() == 2);
  CHECK(Parts[0].Device == Home->devices()[0].get());
  CHECK(Parts[0].Ranges.totalBytes() == 16);
  CHECK(Parts[1].Ranges.totalBytes() == 18);
  std::vector<cl_event> Markers;
  for (Buffer::HostFetch &Part : Parts) {
    REQUIRE(Buffer::enqueueFetches({&Part}) == CL_SUCCESS);
    CHECK(Part.Staged);                       // a halo goes through the read staging
    CHECK_FALSE(B->validOnHost(Part.Ranges)); // not before the caller waited
    Markers.emplace_back();
    REQUIRE(Home->Backend.marker(Part.Device->RealQueue, Markers.back()) == CL_SUCCESS);
  }
  for (cl_event Done : Markers) {
    REQUIRE(Home->Backend.wait(Done) == CL_SUCCESS);
    Home->Backend.releaseEvent(Done);
  }
  B->fetchedToHost(Wanted, Parts);
  CHECK(B->validOnHost(Wanted));
  for (const Span &S : Wanted.spans())
    CHECK(Bytes(B->hostData() + S.Begin, B->hostData() + S.End) ==
          Bytes(Truth.begin() + S.Begin, Truth.begin() + S.End));
  CHECK(Home->Backend.bytesReadFrom(0) + Home->Backend.bytesReadFrom(1) == 34);
  CHECK(Home->Backend.liveEvents() == 0);
}

TEST_CASE("bytes sent staged arrive as they were when sent, whatever the host copy becomes") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, 4096, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  const Bytes Truth = pattern(4096, 9);
  B->write(0, 4096, Truth.data(), Buffer::HostSource::App);
  REQUIRE(B->holdOnHost(RangeSet(0, 4096)) == CL_SUCCESS); // the host copy itself holds them
  ExecDevice &On = *Home->devices()[1];
  RangeSet Halo(1000, 1016);
  Halo.add(3000, 3100);
  std::deque<Bytes> Staging;
  cl_int Result = CL_SUCCESS;
  cl_mem Real = nullptr;
  On.Worker->runHere([&] { Result = B->sendStagedOnWorker(On, Halo, Staging); });
  REQUIRE(Result == CL_SUCCESS);
  REQUIRE(Staging.size() == 1);
  CHECK(Staging.front().size() == 116);
  // The fake queue runs the writes only at its finish: the host copy changed meanwhile.
  std::fill(B->hostData(), B->hostData() + 4096, std::uint8_t{0});
  On.Worker->runHere([&] {
    if ((Real = B->realOn(On, Result)))
      Result = Home->Backend.finish(On.RealQueue);
  });
  REQUIRE(Result == CL_SUCCESS);
  const std::uint8_t *Copy = Home->Backend.bytesOf(Real);
  for (const Span &S : Halo.spans())
    CHECK(Bytes(Copy + S.Begin, Copy + S.End) ==
          Bytes(Truth.begin() + S.Begin, Truth.begin() + S.End));
  CHECK(Home->Backend.bytesWrittenTo(1) == 116);

  // Many spans go as pushOnWorker sends them, waited for: nothing staged.
  RangeSet Rows;
  for (std::size_t Row = 0; Row < 32; ++Row)
    Rows.add(Row * 64, Row * 64 + 8);
  On.Worker->runHere([&] { Result = B->sendStagedOnWorker(On, Rows, Staging); });
  REQUIRE(Result == CL_SUCCESS);
  CHECK(Staging.size() == 1);
  CHECK(Home->Backend.bytesWrittenTo(1) == 116 + 32 * 8);
}
