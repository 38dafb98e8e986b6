// The spans of a set of bytes as runs of equal spans at one stride (a column of a row-major
// matrix, a block of its rows narrower than a row): each run goes to or from a device as one
// rectangular transfer rather than one command per span.
#pragma once

#include "range_set.hpp"

#include <cstddef>
#include <vector>

namespace libsplit {

struct StridedRun {
  std::size_t Begin = 0; // first byte of the first span
  std::size_t Bytes = 0; // length of each span
  std::size_t Pitch = 0; // from one span's first byte to the next's (Bytes where Count is 1)
  std::size_t Count = 0;
};

// Consecutive spans of Set grouped greedily: a run continues while the next span has its length
// at its pitch.
std::vector<StridedRun> stridedRuns(const RangeSet &Set);

} // namespace libsplit
