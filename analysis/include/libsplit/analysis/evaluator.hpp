//===- evaluator.hpp - Regions of one slice of one launch -----------------===//
//
// At each launch the runtime knows the scalar arguments and the NDRange; for each device's slice
// (a half-open range of work-groups along the split dimension) this computes the byte ranges of
// every buffer argument that the slice may read and write. Expressions are evaluated with
// interval arithmetic over the slice's box of work-item ids, which over-approximates and so is
// sound; anything that cannot be bounded (overflow, division by a range holding zero, an Unknown
// access) yields the whole buffer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/analysis/interval_set.hpp"
#include "libsplit/analysis/summary.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace libsplit::analysis {

struct NDRange {
  std::uint32_t WorkDim = 1;
  std::array<std::uint64_t, 3> Global = {1, 1, 1};
  std::array<std::uint64_t, 3> Local = {1, 1, 1};  // as launched (never NULL here)
  std::array<std::uint64_t, 3> Offset = {0, 0, 0}; // the app's own global offset
  std::uint64_t numGroups(std::uint32_t Dim) const { return Global[Dim] / Local[Dim]; }
};

// Work-groups [FirstGroup, EndGroup) along SplitDim; every group of the other dimensions.
struct Slice {
  std::uint32_t SplitDim = 0;
  std::uint64_t FirstGroup = 0;
  std::uint64_t EndGroup = 0;
};

struct LaunchArgs {
  // Raw bytes of each argument as given to clSetKernelArg (empty for buffers and locals).
  std::vector<std::vector<std::uint8_t>> ScalarBytes;
};

struct ArgRegions {
  IntervalSet Read;
  IntervalSet Write;      // plain stores
  IntervalSet Atomic;     // atomic read-modify-writes
  bool ReadWhole = false; // an unknown or unbounded read: assume the whole buffer
  bool WriteWhole = false;
  bool AtomicWhole = false;
  std::uint32_t AtomicKinds = 0; // bit (1 << AccessKind) per atomic operation seen
};

// Regions per argument (index = argument index; non-buffer arguments stay empty).
std::vector<ArgRegions> evaluateSlice(const KernelSummary &Kernel, const NDRange &Range,
                                      const LaunchArgs &Args, const Slice &S);

// True when no byte written (plainly) by one slice may be touched by the other: the slices can
// run on separate devices with no merge.
bool writesDisjoint(const std::vector<ArgRegions> &A, const std::vector<ArgRegions> &B);

// Dimensions along which cutting this launch into halves gives disjoint writes.
std::vector<std::uint32_t> disjointWriteDims(const KernelSummary &Kernel, const NDRange &Range,
                                             const LaunchArgs &Args);
// The same with each slice's regions from Evaluate (a caller that keeps them across launches).
std::vector<std::uint32_t>
disjointWriteDims(const NDRange &Range,
                  const std::function<std::vector<ArgRegions>(const Slice &)> &Evaluate);

} // namespace libsplit::analysis
