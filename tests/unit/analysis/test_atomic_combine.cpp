#include "libsplit/analysis/atomic_combine.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>

using namespace libsplit::analysis;

namespace {

// Bytes of an array of T, as a device's copy or the host's snapshot.
template <typename T> std::vector<std::uint8_t> bytesOf(const std::vector<T> &Values) {
  std::vector<std::uint8_t> Bytes(Values.size() * sizeof(T));
  std::memcpy(Bytes.data(), Values.data(), Bytes.size());
  return Bytes;
}

template <typename T> std::vector<T> valuesOf(const std::vector<std::uint8_t> &Bytes) {
  std::vector<T> Values(Bytes.size() / sizeof(T));
  std::memcpy(Values.data(), Bytes.data(), Values.size() * sizeof(T));
  return Values;
}

// Combines device copies of a snapshot the way the runtime does and returns the result.
template <typename T>
std::vector<T> combined(const Combine &How, const std::vector<T> &Snapshot,
                        const std::vector<std::vector<T>> &Devices) {
  std::vector<std::uint8_t> Result = bytesOf(Snapshot);
  std::vector<std::vector<std::uint8_t>> Copies;
  for (const std::vector<T> &D : Devices)
    Copies.push_back(bytesOf(D));
  std::vector<const std::uint8_t *> Pointers;
  for (const auto &C : Copies)
    Pointers.push_back(C.data());
  combineCopies(How, Result.data(), Pointers, Result.size());
  return valuesOf<T>(Result);
}

constexpr Combine Sum32{CombineOp::Sum, 4, false};
constexpr Combine Sum64{CombineOp::Sum, 8, false};

} // namespace

TEST_CASE("sums add the devices' deltas, wrapping at the element width", "[analysis][atomics]") {
  // 10 + (13 - 10) + (7 - 10) + (10 - 10): +3 on one device, -3 on another, nothing on a third.
  CHECK(combined<std::int32_t>(Sum32, {10, 0}, {{13, 5}, {7, 0}, {10, -2}}) ==
        std::vector<std::int32_t>{10, 3});
  // Unsigned counters past 2^32 - 1 wrap like one device's atomic_inc would.
  const std::uint32_t Max32 = std::numeric_limits<std::uint32_t>::max();
  CHECK(combined<std::uint32_t>(Sum32, {Max32 - 1}, {{Max32}, {0}}) ==
        std::vector<std::uint32_t>{1}); // +1 and +2 from 2^32 - 2
  // Signed overflow wraps too (two's complement, as the devices do).
  const std::int32_t Top = std::numeric_limits<std::int32_t>::max();
  CHECK(combined<std::int32_t>(Sum32, {Top}, {{Top}, {std::numeric_limits<std::int32_t>::min()}}) ==
        std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min()});
  // 64-bit elements carry across the 32-bit halves.
  CHECK(combined<std::uint64_t>(Sum64, {0xFFFFFFFFull}, {{0x100000000ull}, {0x1FFFFFFFEull}}) ==
        std::vector<std::uint64_t>{0x1FFFFFFFFull}); // +1 and +0xFFFFFFFF
  CHECK(combined<std::int64_t>(Sum64, {-1}, {{std::numeric_limits<std::int64_t>::max()}, {-1}}) ==
        std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()});
  // atomic_dec below zero on both devices.
  CHECK(combined<std::uint32_t>(Sum32, {1}, {{0}, {Max32}}) ==
        std::vector<std::uint32_t>{Max32 - 1});
}

TEST_CASE("minima and maxima compare with the element's signedness", "[analysis][atomics]") {
  // -1 is the least int but the greatest uint: the same bytes combine differently. (From 5,
  // atomic_min(-1) on one device and atomic_min(3) on the other; an unsigned comparison would
  // have kept 3.)
  const std::vector<std::int32_t> Snapshot = {5, 5};
  CHECK(combined<std::int32_t>({CombineOp::Min, 4, true}, Snapshot, {{-1, 5}, {3, 5}}) ==
        std::vector<std::int32_t>{-1, 5});
  CHECK(combined<std::int32_t>({CombineOp::Min, 4, false}, Snapshot, {{5, 5}, {3, 5}}) ==
        std::vector<std::int32_t>{3, 5});
  // atomic_max((uint)-1) and atomic_max(7) from 5: 0xFFFFFFFF unsigned, 7 signed.
  CHECK(combined<std::int32_t>({CombineOp::Max, 4, false}, Snapshot, {{-1, 5}, {7, 5}}) ==
        std::vector<std::int32_t>{-1, 5});
  CHECK(combined<std::int32_t>({CombineOp::Max, 4, true}, Snapshot, {{5, 5}, {7, 5}}) ==
        std::vector<std::int32_t>{7, 5});
  CHECK(combined<std::int32_t>({CombineOp::Max, 4, true}, Snapshot, {{-1, 5}, {7, 5}}) ==
        std::vector<std::int32_t>{7, 5}); // the same bytes, compared signed
  // 64 bits: a value that is negative only as a 64-bit number.
  const std::int64_t Low = std::numeric_limits<std::int64_t>::min();
  CHECK(combined<std::int64_t>({CombineOp::Min, 8, true}, {0}, {{Low}, {7}}) ==
        std::vector<std::int64_t>{Low});
  CHECK(combined<std::int64_t>({CombineOp::Max, 8, false}, {0}, {{Low}, {7}}) ==
        std::vector<std::int64_t>{Low});
  CHECK(combined<std::int64_t>({CombineOp::Max, 8, true}, {0}, {{Low}, {7}}) ==
        std::vector<std::int64_t>{7});
  CHECK(combined<std::uint64_t>({CombineOp::Min, 8, false}, {100}, {{0x100000000ull}, {99}}) ==
        std::vector<std::uint64_t>{99});
}

TEST_CASE("bit operations combine bit by bit", "[analysis][atomics]") {
  const Combine And{CombineOp::And, 4, false}, Or{CombineOp::Or, 4, false},
      Xor{CombineOp::Xor, 4, false};
  CHECK(combined<std::uint32_t>(And, {0xFF}, {{0xF0}, {0x3C}, {0xFF}}) ==
        std::vector<std::uint32_t>{0x30});
  CHECK(combined<std::uint32_t>(Or, {0x01}, {{0x11}, {0x81}, {0x01}}) ==
        std::vector<std::uint32_t>{0x91});
  // Each device's own flips, applied once: 0x0F ^ 0x03 ^ 0x30 ^ 0x33 (device 3 flipped both).
  CHECK(combined<std::uint32_t>(Xor, {0x0F}, {{0x0F ^ 0x03}, {0x0F ^ 0x30}, {0x0F ^ 0x33}}) ==
        std::vector<std::uint32_t>{0x0F});
  CHECK(combined<std::uint64_t>({CombineOp::Xor, 8, false}, {1ull << 63},
                                {{(1ull << 63) | 1}, {(1ull << 63) | (1ull << 40)}}) ==
        std::vector<std::uint64_t>{(1ull << 63) | (1ull << 40) | 1});
  CHECK(combined<std::uint64_t>({CombineOp::Or, 8, false}, {0}, {{1ull << 33}, {1}}) ==
        std::vector<std::uint64_t>{(1ull << 33) | 1});
  CHECK(combined<std::uint64_t>({CombineOp::And, 8, false}, {~0ull}, {{~(1ull << 33)}, {~1ull}}) ==
        std::vector<std::uint64_t>{~((1ull << 33) | 1)});
}

TEST_CASE("no device, one device, and a short tail", "[analysis][atomics]") {
  for (CombineOp Op : {CombineOp::Sum, CombineOp::Min, CombineOp::Max, CombineOp::And,
                       CombineOp::Or, CombineOp::Xor}) {
    const Combine How{Op, 4, true};
    CHECK(combined<std::int32_t>(How, {42, -7}, {}) == std::vector<std::int32_t>{42, -7});
    // One device's copy is the answer for every operation (what that device computed alone).
    CHECK(combined<std::int32_t>(How, {42, 7}, {{Op == CombineOp::Max ? 50 : 40, 7}}) ==
          std::vector<std::int32_t>{Op == CombineOp::Max ? 50 : 40, 7});
  }
  // 6 bytes of 4-byte elements: the last 2 keep the snapshot.
  std::vector<std::uint8_t> Result = {1, 0, 0, 0, 9, 9};
  const std::vector<std::uint8_t> A = {2, 0, 0, 0, 7, 7}, B = {3, 0, 0, 0, 8, 8};
  combineCopies(Sum32, Result.data(), {A.data(), B.data()}, Result.size());
  CHECK(Result == std::vector<std::uint8_t>{4, 0, 0, 0, 9, 9});
}

// The combination equals running every update on one device, whatever the split: random
// updates of each kind, spread over 1 to 4 devices.
TEST_CASE("combining per-device runs equals one device running all", "[analysis][atomics]") {
  std::mt19937_64 Rng(2024);
  const CombineOp Ops[] = {CombineOp::Sum, CombineOp::Min, CombineOp::Max,
                           CombineOp::And, CombineOp::Or,  CombineOp::Xor};
  for (int Round = 0; Round < 400; ++Round) {
    const CombineOp Op = Ops[Round % 6];
    const bool Signed = (Round / 6) % 2 == 0;
    const Combine How{Op, 8, (Op == CombineOp::Min || Op == CombineOp::Max) && Signed};
    const std::size_t Elements = 1 + Rng() % 5, DeviceCount = 1 + Rng() % 4;
    std::vector<std::uint64_t> Snapshot(Elements);
    for (auto &V : Snapshot)
      V = Rng();
    std::vector<std::uint64_t> One = Snapshot;
    std::vector<std::vector<std::uint64_t>> Devices(DeviceCount, Snapshot);
    auto apply = [&](std::uint64_t &Target, std::uint64_t Operand) {
      switch (Op) {
      case CombineOp::Sum:
        Target += Operand;
        break;
      case CombineOp::Min:
        Target = How.Signed
                     ? static_cast<std::uint64_t>(std::min(static_cast<std::int64_t>(Target),
                                                           static_cast<std::int64_t>(Operand)))
                     : std::min(Target, Operand);
        break;
      case CombineOp::Max:
        Target = How.Signed
                     ? static_cast<std::uint64_t>(std::max(static_cast<std::int64_t>(Target),
                                                           static_cast<std::int64_t>(Operand)))
                     : std::max(Target, Operand);
        break;
      case CombineOp::And:
        Target &= Operand;
        break;
      case CombineOp::Or:
        Target |= Operand;
        break;
      case CombineOp::Xor:
        Target ^= Operand;
        break;
      }
    };
    for (int Update = 0; Update < 20; ++Update) {
      const std::size_t Element = Rng() % Elements, Device = Rng() % DeviceCount;
      // Sparse bit patterns, so that and/or do not saturate at once.
      const std::uint64_t Operand = Op == CombineOp::And  ? ~(1ull << (Rng() % 64))
                                    : Op == CombineOp::Or ? 1ull << (Rng() % 64)
                                                          : Rng();
      apply(One[Element], Operand);
      apply(Devices[Device][Element], Operand);
    }
    INFO("round " << Round);
    CHECK(combined<std::uint64_t>(How, Snapshot, Devices) == One);
  }
}
