//===- interval_set.hpp - A short, sorted list of byte ranges -------------===//
#pragma once

#include <cstdint>
#include <vector>

namespace libsplit::analysis {

// Half-open byte range [Begin, End).
struct ByteRange {
  std::int64_t Begin = 0;
  std::int64_t End = 0;
  bool operator==(const ByteRange &Other) const { return Begin == Other.Begin && End == Other.End; }
};

// Sorted, disjoint, non-adjacent ranges. Kept short on purpose: past MaxRanges the two ranges
// with the smallest gap are fused (a superset, so still sound), because every range costs work
// at launch time (transfers of equal runs at one stride go as one command).
class IntervalSet {
public:
  static constexpr std::size_t MaxRanges = 1024;

  void add(std::int64_t Begin, std::int64_t End);
  void add(const IntervalSet &Other);
  void clampTo(std::int64_t Begin, std::int64_t End);
  void clear() { Ranges.clear(); }

  bool empty() const { return Ranges.empty(); }
  bool intersects(const IntervalSet &Other) const;
  bool contains(std::int64_t Begin, std::int64_t End) const;
  std::int64_t totalBytes() const;
  const std::vector<ByteRange> &ranges() const { return Ranges; }

private:
  void fuseClosestPair();
  std::vector<ByteRange> Ranges;
};

} // namespace libsplit::analysis
