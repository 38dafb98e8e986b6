#include "libsplit/analysis/interval_set.hpp"

#include <algorithm>
#include <limits>

namespace libsplit::analysis {

void IntervalSet::add(std::int64_t Begin, std::int64_t End) {
  if (Begin >= End)
    return;
  if (Ranges.empty() || Begin > Ranges.back().End) { // runs come in order: append
    Ranges.push_back(ByteRange{Begin, End});
    if (Ranges.size() > MaxRanges)
      fuseClosestPair();
    return;
  }
  // First range that ends at or after Begin: everything before it stays untouched.
  auto First = std::lower_bound(Ranges.begin(), Ranges.end(), Begin,
                                [](const ByteRange &R, std::int64_t B) { return R.End < B; });
  auto Last = First;
  while (Last != Ranges.end() && Last->Begin <= End) {
    Begin = std::min(Begin, Last->Begin);
    End = std::max(End, Last->End);
    ++Last;
  }
  First = Ranges.erase(First, Last);
  Ranges.insert(First, ByteRange{Begin, End});
  if (Ranges.size() > MaxRanges)
    fuseClosestPair();
}

void IntervalSet::add(const IntervalSet &Other) {
  for (const ByteRange &R : Other.Ranges)
    add(R.Begin, R.End);
}

void IntervalSet::fuseClosestPair() {
  std::size_t Best = 0;
  std::int64_t BestGap = std::numeric_limits<std::int64_t>::max();
  for (std::size_t I = 0; I + 1 < Ranges.size(); ++I) {
    std::int64_t Gap = Ranges[I + 1].Begin - Ranges[I].End;
    if (Gap < BestGap) {
      BestGap = Gap;
      Best = I;
    }
  }
  Ranges[Best].End = Ranges[Best + 1].End;
  Ranges.erase(Ranges.begin() + static_cast<std::ptrdiff_t>(Best) + 1);
}

void IntervalSet::clampTo(std::int64_t Begin, std::int64_t End) {
  std::vector<ByteRange> Clamped;
  for (const ByteRange &R : Ranges) {
    ByteRange C{std::max(R.Begin, Begin), std::min(R.End, End)};
    if (C.Begin < C.End)
      Clamped.push_back(C);
  }
  Ranges.swap(Clamped);
}

bool IntervalSet::intersects(const IntervalSet &Other) const {
  auto A = Ranges.begin(), B = Other.Ranges.begin();
  while (A != Ranges.end() && B != Other.Ranges.end()) {
    if (A->End <= B->Begin)
      ++A;
    else if (B->End <= A->Begin)
      ++B;
    else
      return true;
  }
  return false;
}

bool IntervalSet::contains(std::int64_t Begin, std::int64_t End) const {
  if (Begin >= End)
    return true;
  for (const ByteRange &R : Ranges)
    if (R.Begin <= Begin && End <= R.End)
      return true;
  return false;
}

std::int64_t IntervalSet::totalBytes() const {
  std::int64_t Total = 0;
  for (const ByteRange &R : Ranges)
    Total += R.End - R.Begin;
  return Total;
}

} // namespace libsplit::analysis
