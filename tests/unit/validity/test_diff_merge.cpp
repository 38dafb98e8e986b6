// The merge by diff after a split launch: every device started from one snapshot, and what each
// changed comes back into the host copy. Writes of different devices to different elements all
// survive; two devices writing one element (an app's race) leave one of the values written.
#include "diff_merge.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace libsplit;

namespace {

std::vector<std::uint8_t> bytesOf(const std::vector<float> &Values) {
  std::vector<std::uint8_t> Out(Values.size() * sizeof(float));
  std::memcpy(Out.data(), Values.data(), Out.size());
  return Out;
}

float floatAt(const std::vector<std::uint8_t> &Bytes, std::size_t Index) {
  float Value;
  std::memcpy(&Value, Bytes.data() + Index * sizeof(float), sizeof(float));
  return Value;
}

DiffCopy wholeCopy(const std::vector<std::uint8_t> &Bytes) {
  return {Bytes.data(), 0, RangeSet(0, Bytes.size())};
}

} // namespace

TEST_CASE("two devices writing one float leave one of the values written", "[merge]") {
  // The race an app had: work-items of both slices store to out[0], 1.0 from one device and 2.0
  // from the other; byte by byte, the merge combined them into 4.0.
  const std::vector<std::uint8_t> Snapshot = bytesOf({0.0f, 0.0f});
  const std::vector<std::uint8_t> First = bytesOf({1.0f, 0.0f});
  const std::vector<std::uint8_t> Second = bytesOf({2.0f, 0.0f});
  std::vector<std::uint8_t> Bytewise = Snapshot;
  mergeByDiff(Bytewise.data(), Snapshot.data(), {wholeCopy(First), wholeCopy(Second)}, {}, 1);
  CHECK(floatAt(Bytewise, 0) == 4.0f); // what byte granularity invents
  std::vector<std::uint8_t> Host = Snapshot;
  mergeByDiff(Host.data(), Snapshot.data(), {wholeCopy(First), wholeCopy(Second)}, {}, 4);
  CHECK(floatAt(Host, 0) == 2.0f); // the later device's value, whole
  CHECK(floatAt(Host, 1) == 0.0f);
}

TEST_CASE("writes of different devices to neighbouring elements all survive", "[merge]") {
  const std::vector<std::uint8_t> Snapshot = bytesOf({0.5f, 0.5f, 0.5f, 0.5f});
  const std::vector<std::uint8_t> First = bytesOf({7.0f, 0.5f, 9.0f, 0.5f});
  const std::vector<std::uint8_t> Second = bytesOf({0.5f, 8.0f, 0.5f, 0.5f});
  std::vector<std::uint8_t> Host = Snapshot;
  const RangeSet Merged =
      mergeByDiff(Host.data(), Snapshot.data(), {wholeCopy(First), wholeCopy(Second)}, {}, 4);
  CHECK(floatAt(Host, 0) == 7.0f);
  CHECK(floatAt(Host, 1) == 8.0f);
  CHECK(floatAt(Host, 2) == 9.0f);
  CHECK(floatAt(Host, 3) == 0.5f);
  CHECK(Merged.contains(0, Host.size()));
}

TEST_CASE("bytes written by different devices into one word all survive at byte size", "[merge]") {
  // A char array: each device writes its own bytes of the same 4-byte word.
  const std::vector<std::uint8_t> Snapshot(8, 0);
  std::vector<std::uint8_t> First = Snapshot, Second = Snapshot;
  First[0] = 'a';
  First[1] = 'b';
  Second[2] = 'c';
  Second[3] = 'd';
  std::vector<std::uint8_t> Host = Snapshot;
  mergeByDiff(Host.data(), Snapshot.data(), {wholeCopy(First), wholeCopy(Second)}, {}, 1);
  CHECK(std::string(Host.begin(), Host.begin() + 4) == "abcd");
}

TEST_CASE("only the bytes a slice may have written are compared", "[merge]") {
  // Outside its Written bytes a device's copy may be stale (a sub-buffer's neighbours, excluded
  // combined spans): never taken for a write.
  const std::vector<std::uint8_t> Snapshot = bytesOf({1.0f, 1.0f, 1.0f, 1.0f});
  const std::vector<std::uint8_t> Stale = bytesOf({5.0f, 6.0f, 7.0f, 8.0f});
  DiffCopy Partial{Stale.data(), 0, RangeSet(4, 12)};
  std::vector<std::uint8_t> Host = Snapshot;
  mergeByDiff(Host.data(), Snapshot.data(), {Partial}, RangeSet(8, 12), 4);
  CHECK(floatAt(Host, 0) == 1.0f);
  CHECK(floatAt(Host, 1) == 6.0f);
  CHECK(floatAt(Host, 2) == 1.0f); // excluded (combined elsewhere)
  CHECK(floatAt(Host, 3) == 1.0f);
  // A copy that starts later than the buffer: its bytes are found at their offset.
  const std::vector<std::uint8_t> Tail = bytesOf({3.0f, 4.0f});
  DiffCopy Late{Tail.data(), 8, RangeSet(8, 16)};
  std::vector<std::uint8_t> Again = Snapshot;
  mergeByDiff(Again.data(), Snapshot.data(), {Late}, {}, 4);
  CHECK(floatAt(Again, 2) == 3.0f);
  CHECK(floatAt(Again, 3) == 4.0f);
}

TEST_CASE("pointer argument types name their scalars' size", "[merge]") {
  CHECK(pointeeScalarBytes("float*") == 4);
  CHECK(pointeeScalarBytes("__global float*") == 4);
  CHECK(pointeeScalarBytes("uint4*") == 4);
  CHECK(pointeeScalarBytes("double2*") == 8);
  CHECK(pointeeScalarBytes("uchar16*") == 1);
  CHECK(pointeeScalarBytes("unsigned int*") == 4);
  CHECK(pointeeScalarBytes("half*") == 2);
  CHECK(pointeeScalarBytes("ulong *") == 8);
  CHECK(pointeeScalarBytes("struct Particle*") == 0);
  CHECK(pointeeScalarBytes("float") == 0);
  CHECK(pointeeScalarBytes("void*") == 0);
}
