// An exact set of byte ranges: which bytes of a buffer are valid in one place. Unlike the
// analysis' IntervalSet (a short superset, fine for "what may be touched"), validity must never
// be over-approximated, so nothing is ever fused here.
#pragma once

#include <cstdint>
#include <vector>

namespace libsplit {

struct Span {
  std::size_t Begin = 0;
  std::size_t End = 0; // exclusive
  std::size_t size() const { return End - Begin; }
  bool operator==(const Span &Other) const { return Begin == Other.Begin && End == Other.End; }
};

class RangeSet {
public:
  RangeSet() = default;
  RangeSet(std::size_t Begin, std::size_t End) { add(Begin, End); }

  void add(std::size_t Begin, std::size_t End);
  void add(const RangeSet &Other);
  void subtract(std::size_t Begin, std::size_t End);
  void subtract(const RangeSet &Other);
  void clear() { Spans.clear(); }

  bool empty() const { return Spans.empty(); }
  bool contains(std::size_t Begin, std::size_t End) const;
  // Whether any byte of [Begin, End) is in the set.
  bool intersects(std::size_t Begin, std::size_t End) const;
  std::size_t totalBytes() const;
  const std::vector<Span> &spans() const { return Spans; }
  // The same bytes (the spans are kept merged and sorted: the same spans).
  bool operator==(const RangeSet &Other) const { return Spans == Other.Spans; }

  // The parts of [Begin, End) that are NOT in this set.
  RangeSet missingFrom(std::size_t Begin, std::size_t End) const;
  // The parts of Other that are also in this set.
  RangeSet intersection(const RangeSet &Other) const;

private:
  std::vector<Span> Spans; // sorted, disjoint, non-adjacent
};

} // namespace libsplit
