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

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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

// An access whose bytes are a few runs of a larger hull (a column of a row-major matrix) adds
// each run, up to this many, rather than the hull; not for a hull under MinExactHullBytes, which
// moves in about the time of one transfer command (and whose runs would cost the launch more
// to evaluate and track than they save).
constexpr std::int64_t MaxRunsPerAccess = 128;
constexpr std::int64_t MinExactHullBytes = 16 * 1024;

struct ArgRegions {
  IntervalSet Read;
  IntervalSet Write;      // plain stores
  IntervalSet Atomic;     // atomic read-modify-writes
  bool ReadWhole = false; // an unknown or unbounded read: assume the whole buffer
  bool WriteWhole = false;
  bool AtomicWhole = false;
  std::uint32_t AtomicKinds = 0; // bit (1 << AccessKind) per atomic operation seen
};

// An expression's value as Constant + sum of Coef[V] * variable V: V = 3 * kind + dim for the
// global (kind 0), local (1) and group (2) ids, 9 + N for loop N's counter. Exact wherever
// interval arithmetic bounds every step of the expression over the variables' box (no step
// overflowed there), and so over any box inside it.
constexpr std::size_t AffineVariables = 9 + MaxSummaryLoops;
struct Affine {
  std::int64_t Constant = 0;
  std::array<std::int64_t, AffineVariables> Coef{};
  bool constant() const {
    return std::all_of(Coef.begin(), Coef.end(), [](std::int64_t C) { return C == 0; });
  }
};

// One access's expressions as affine forms over the whole launch, or none each: its first and
// last byte, each guard's bounds (the summary's order).
struct AccessForm {
  std::optional<Affine> First, Last;
  std::vector<std::pair<std::optional<Affine>, std::optional<Affine>>> Guards;
};
// Per argument, per access. Computed once per launch shape (accessForms), they hold for each of
// its slices, which then take their bounds from them (the least and greatest values of a form
// over the slice's box: exact, and no expression evaluated) and enumerate their runs.
struct AccessForms {
  std::vector<std::vector<AccessForm>> PerArg;
};
AccessForms accessForms(const KernelSummary &Kernel, const NDRange &Range, const LaunchArgs &Args);

// Regions per argument (index = argument index; non-buffer arguments stay empty). Forms: the
// launch's accessForms, where the caller keeps them (else each access's are computed here).
std::vector<ArgRegions> evaluateSlice(const KernelSummary &Kernel, const NDRange &Range,
                                      const LaunchArgs &Args, const Slice &S,
                                      const AccessForms *Forms = nullptr);

// True when no byte written (plainly) by one slice may be touched by the other: the slices can
// run on separate devices with no merge.
bool writesDisjoint(const std::vector<ArgRegions> &A, const std::vector<ArgRegions> &B);

// Dimensions along which cutting this launch into halves gives disjoint writes.
std::vector<std::uint32_t> disjointWriteDims(const KernelSummary &Kernel, const NDRange &Range,
                                             const LaunchArgs &Args);
// A slice's regions, shared where a caller keeps them (unchanged once made).
using SharedRegions = std::shared_ptr<const std::vector<ArgRegions>>;
// The same with each slice's regions from Evaluate (a caller that keeps them across launches).
std::vector<std::uint32_t>
disjointWriteDims(const NDRange &Range,
                  const std::function<SharedRegions(const Slice &)> &Evaluate);

} // namespace libsplit::analysis
