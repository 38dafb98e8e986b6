#include "range_set.hpp"

#include <algorithm>

namespace libsplit {

void RangeSet::add(std::size_t Begin, std::size_t End) {
  if (Begin >= End)
    return;
  auto First = std::lower_bound(Spans.begin(), Spans.end(), Begin,
                                [](const Span &S, std::size_t B) { return S.End < B; });
  auto Last = First;
  while (Last != Spans.end() && Last->Begin <= End) {
    Begin = std::min(Begin, Last->Begin);
    End = std::max(End, Last->End);
    ++Last;
  }
  First = Spans.erase(First, Last);
  Spans.insert(First, Span{Begin, End});
}

void RangeSet::add(const RangeSet &Other) {
  for (const Span &S : Other.Spans)
    add(S.Begin, S.End);
}

void RangeSet::subtract(std::size_t Begin, std::size_t End) {
  if (Begin >= End)
    return;
  std::vector<Span> Kept;
  Kept.reserve(Spans.size() + 1);
  for (const Span &S : Spans) {
    if (S.End <= Begin || S.Begin >= End) {
      Kept.push_back(S);
      continue;
    }
    if (S.Begin < Begin)
      Kept.push_back({S.Begin, Begin});
    if (S.End > End)
      Kept.push_back({End, S.End});
  }
  Spans.swap(Kept);
}

void RangeSet::subtract(const RangeSet &Other) {
  for (const Span &S : Other.Spans)
    subtract(S.Begin, S.End);
}

bool RangeSet::contains(std::size_t Begin, std::size_t End) const {
  if (Begin >= End)
    return true;
  auto It = std::upper_bound(Spans.begin(), Spans.end(), Begin,
                             [](std::size_t B, const Span &S) { return B < S.End; });
  return It != Spans.end() && It->Begin <= Begin && End <= It->End;
}

bool RangeSet::intersects(std::size_t Begin, std::size_t End) const {
  if (Begin >= End)
    return false;
  auto It = std::upper_bound(Spans.begin(), Spans.end(), Begin,
                             [](std::size_t B, const Span &S) { return B < S.End; });
  return It != Spans.end() && It->Begin < End;
}

std::size_t RangeSet::totalBytes() const {
  std::size_t Total = 0;
  for (const Span &S : Spans)
    Total += S.size();
  return Total;
}

RangeSet RangeSet::missingFrom(std::size_t Begin, std::size_t End) const {
  RangeSet Missing(Begin, End);
  for (const Span &S : Spans) {
    if (S.End <= Begin)
      continue;
    if (S.Begin >= End)
      break;
    Missing.subtract(S.Begin, S.End);
  }
  return Missing;
}

RangeSet RangeSet::intersection(const RangeSet &Other) const {
  RangeSet Result;
  auto A = Spans.begin(), B = Other.Spans.begin();
  while (A != Spans.end() && B != Other.Spans.end()) {
    const std::size_t Begin = std::max(A->Begin, B->Begin), End = std::min(A->End, B->End);
    if (Begin < End)
      Result.Spans.push_back({Begin, End});
    if (A->End < B->End)
      ++A;
    else
      ++B;
  }
  return Result;
}

} // namespace libsplit
