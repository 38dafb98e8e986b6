//===- atomic_combine.hpp - Combining devices' copies of atomically updated bytes --===//
//
// Every device ran its slice on a copy of the same snapshot S; each copy D_i holds S updated by
// that slice's atomics. Per element of the combination's width (little-endian, as the devices
// and the host share):
//   Sum        S + sum_i (D_i - S), wrapping at the element width (add, sub, inc, dec)
//   Min, Max   the least / greatest D_i, compared signed or unsigned
//   And, Or    the and / or of the D_i (each D_i only clears / sets bits of S)
//   Xor        S ^ xor_i (D_i ^ S)
// which is what one device running every work-item would have left, in any order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/analysis/atomic_merge.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace libsplit::analysis {

// Combines Bytes bytes: Result holds the snapshot S on entry and the combination on return;
// Copies[i] points to device i's bytes at the same offset. A tail shorter than one element
// (no atomic can update it) keeps S.
void combineCopies(const Combine &How, std::uint8_t *Result,
                   const std::vector<const std::uint8_t *> &Copies, std::size_t Bytes);

} // namespace libsplit::analysis
