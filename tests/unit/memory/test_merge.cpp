// A split launch's merge (memory/merge.cpp) on a fake backend: each device's slice changed its
// own copy of a buffer that every device received whole; the merge reads back what each may
// have written and brings the changes, and the combined atomic updates, into the host copy.
#include "buffer.hpp"
#include "merge.hpp"
#include "test_home.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace libsplit;
using libsplit::testing::TestHome;

namespace {

// A root buffer of Count 32-bit values 0, 1, 2, ... valid on the host and on every device: each
// device's copy as a split launch's slices start from it.
std::shared_ptr<Buffer> everywhere(TestHome &Home, const std::shared_ptr<TestHome> &Owner,
                                   std::size_t Count) {
  auto B = std::make_shared<Buffer>(Owner, CL_MEM_READ_WRITE, Count * 4, nullptr);
  REQUIRE(B->initialize() == CL_SUCCESS);
  std::vector<std::int32_t> Values(Count);
  for (std::size_t I = 0; I < Count; ++I)
    Values[I] = static_cast<std::int32_t>(I);
  B->write(0, Count * 4, Values.data(), Buffer::HostSource::App);
  for (auto &D : Home.devices()) {
    const RangeSet All(0, Count * 4);
    REQUIRE(D->Worker != nullptr);
    cl_int Error = CL_SUCCESS;
    REQUIRE(B->pushOnWorker(*D, All) == CL_SUCCESS);
    REQUIRE(Home.Backend.finish(D->RealQueue) == CL_SUCCESS);
    B->markValidOn(D->Index, All);
    REQUIRE(B->realOn(*D, Error));
  }
  return B;
}

std::int32_t *copyOn(TestHome &Home, Buffer &B, std::size_t Device) {
  cl_int Error = CL_SUCCESS;
  return reinterpret_cast<std::int32_t *>(
      Home.Backend.bytesOf(B.realOn(*Home.devices()[Device], Error)));
}

std::vector<std::uint8_t> hostBytes(Buffer &B) {
  return std::vector<std::uint8_t>(B.hostData(), B.hostData() + B.size());
}

std::int32_t hostValue(Buffer &B, std::size_t Index) {
  std::int32_t Value = 0;
  std::memcpy(&Value, B.hostData() + Index * 4, 4);
  return Value;
}

} // namespace

TEST_CASE("a merge by diff takes each device's changes within what its slice may write") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = everywhere(*Home, Home, 64);
  const std::vector<std::uint8_t> Snapshot = hostBytes(*B);
  std::int32_t *First = copyOn(*Home, *B, 0), *Second = copyOn(*Home, *B, 1);
  for (int I = 0; I < 32; I += 2)
    First[I] = -I - 1; // every other element of its half
  Second[40] = 4000;
  Second[3] = 999; // outside what its slice may write: a stale byte, never taken

  std::vector<MergeSlice> Slices(2);
  Slices[0].Device = Home->devices()[0].get();
  Slices[0].Written = RangeSet(0, 128);
  Slices[1].Device = Home->devices()[1].get();
  Slices[1].Written = RangeSet(128, 256);
  REQUIRE(mergeIntoHost(*B, Snapshot, Slices, {}, 4) == CL_SUCCESS);

  for (int I = 0; I < 64; ++I) {
    INFO("element " << I);
    const std::int32_t Expected = I < 32 && I % 2 == 0 ? -I - 1 : I == 40 ? 4000 : I;
    CHECK(hostValue(*B, static_cast<std::size_t>(I)) == Expected);
  }
  CHECK(Slices[0].BytesOut == 128); // each read back its slice's bytes only
  CHECK(Slices[1].BytesOut == 128);
  // The merged bytes are the host's alone now: a device that needs them again gets them sent.
  CHECK(B->validOnHost(RangeSet(0, 256)));
  CHECK(!B->missingOn(1, RangeSet(0, 128)).empty());
  CHECK(!B->missingOn(0, RangeSet(160, 164)).empty());
}

TEST_CASE("a merge combines atomically updated values: each device's deltas add up") {
  auto Home = std::make_shared<TestHome>(3);
  auto B = everywhere(*Home, Home, 8);
  const std::vector<std::uint8_t> Snapshot = hostBytes(*B);
  // Element 2 is a counter every slice incremented; element 5, a maximum each slice raised.
  copyOn(*Home, *B, 0)[2] += 3;
  copyOn(*Home, *B, 1)[2] += 5;
  copyOn(*Home, *B, 2)[2] += 7;
  copyOn(*Home, *B, 1)[5] = 50;
  copyOn(*Home, *B, 2)[5] = 70;
  copyOn(*Home, *B, 0)[6] = -6; // a plain write, merged by diff beside the combined ones

  std::vector<MergeSlice> Slices(3);
  for (std::size_t I = 0; I < 3; ++I) {
    Slices[I].Device = Home->devices()[I].get();
    Slices[I].Written = RangeSet(0, 32);
  }
  analysis::Combine Sum, Max;
  Max.Op = analysis::CombineOp::Max;
  Max.Signed = true;
  const std::vector<CombineSpan> Combines = {{Span{8, 12}, Sum}, {Span{20, 24}, Max}};
  REQUIRE(mergeIntoHost(*B, Snapshot, Slices, Combines, 4) == CL_SUCCESS);
  CHECK(hostValue(*B, 2) == 2 + 3 + 5 + 7);
  CHECK(hostValue(*B, 5) == 70);
  CHECK(hostValue(*B, 6) == -6);
  CHECK(hostValue(*B, 7) == 7);
}

TEST_CASE("a merge whose read back fails returns the device's error and merges nothing") {
  auto Home = std::make_shared<TestHome>(2);
  auto B = everywhere(*Home, Home, 16);
  const std::vector<std::uint8_t> Snapshot = hostBytes(*B);
  copyOn(*Home, *B, 1)[9] = 90;
  std::vector<MergeSlice> Slices(2);
  Slices[0].Device = Home->devices()[0].get();
  Slices[0].Written = RangeSet(0, 32);
  Slices[1].Device = Home->devices()[1].get();
  Slices[1].Written = RangeSet(32, 64);
  Home->Backend.failTransfer(0, CL_OUT_OF_RESOURCES);
  CHECK(mergeIntoHost(*B, Snapshot, Slices, {}, 4) == CL_OUT_OF_RESOURCES);
  CHECK(hostBytes(*B) == Snapshot);
}
