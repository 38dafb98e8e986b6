// The merge by diff of a split launch's written bytes (merge.hpp), on host memory alone: which
// bytes each device's copy changed relative to the snapshot every device started from, taken
// element by element, so that two devices writing the same element (an app's race) leave one of
// the values written, as natively, never bytes of both. No OpenCL: unit-tested as it is.
#pragma once

#include "range_set.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace libsplit {

// One device's copy for a merge: its bytes of the root buffer from Begin on, and the root bytes
// its slice may have written (the copy covers them).
struct DiffCopy {
  const std::uint8_t *Bytes = nullptr;
  std::size_t Begin = 0;
  RangeSet Written;
};

// Merges into Host (which holds Snapshot wherever a copy may have written) every change the
// copies made outside Excluded, in order: a later copy's change to an element wins over an
// earlier one's. ElementBytes (1 when unknown) is the size of the elements the kernel writes,
// aligned in root coordinates: an element any byte of which a copy changed is taken whole from
// that copy, so a race between devices on one element never yields a value nobody wrote.
// Returns the bytes the copies may have written (their Written, Excluded included).
RangeSet mergeByDiff(std::uint8_t *Host, const std::uint8_t *Snapshot,
                     const std::vector<DiffCopy> &Copies, const RangeSet &Excluded,
                     std::size_t ElementBytes);

// The size in bytes of the scalars a pointer argument of this OpenCL C type points to
// ("float*", "uint4*", "__global double*"), 0 when not a pointer to a built-in scalar or vector
// type (a struct, void).
std::size_t pointeeScalarBytes(std::string_view TypeName);

} // namespace libsplit
