#include "range_set.hpp"

#include <algorithm>
#include <iterator>

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

// The set operations on two sets walk both once: a column of a matrix is hundreds of spans.
void RangeSet::add(const RangeSet &Other) {
  if (Other.Spans.size() <= 2) {
    for (const Span &S : Other.Spans)
      add(S.Begin, S.End);
    return;
  }
  std::vector<Span> Merged;
  Merged.reserve(Spans.size() + Other.Spans.size());
  auto A = Spans.cbegin(), B = Other.Spans.cbegin();
  while (A != Spans.cend() || B != Other.Spans.cend()) {
    const bool TakeA = B == Other.Spans.cend() || (A != Spans.cend() && A->Begin < B->Begin);
    const Span Next = TakeA ? *A++ : *B++;
    if (!Merged.empty() && Next.Begin <= Merged.back().End)
      Merged.back().End = std::max(Merged.back().End, Next.End);
    else
      Merged.push_back(Next);
  }
  Spans.swap(Merged);
}

void RangeSet::subtract(std::size_t Begin, std::size_t End) {
  if (Begin >= End)
    return;
  // The spans that overlap [Begin, End): from the first ending after Begin.
  auto First = std::upper_bound(Spans.begin(), Spans.end(), Begin,
                                [](std::size_t B, const Span &S) { return B < S.End; });
  auto Last = First;
  while (Last != Spans.end() && Last->Begin < End)
    ++Last;
  if (First == Last)
    return;
  const Span Head{First->Begin, Begin}, Tail{End, std::prev(Last)->End};
  First = Spans.erase(First, Last);
  if (Tail.Begin < Tail.End)
    First = Spans.insert(First, Tail);
  if (Head.Begin < Head.End)
    Spans.insert(First, Head);
}

void RangeSet::subtract(const RangeSet &Other) {
  if (Other.Spans.size() <= 2) {
    for (const Span &S : Other.Spans)
      subtract(S.Begin, S.End);
    return;
  }
  std::vector<Span> Kept;
  Kept.reserve(Spans.size() + Other.Spans.size());
  auto B = Other.Spans.begin();
  for (Span S : Spans) {
    while (B != Other.Spans.end() && B->End <= S.Begin)
      ++B;
    for (auto C = B; C != Other.Spans.end() && C->Begin < S.End; ++C) {
      if (C->Begin > S.Begin)
        Kept.push_back({S.Begin, C->Begin});
      S.Begin = std::max(S.Begin, C->End);
      if (S.Begin >= S.End)
        break;
    }
    if (S.Begin < S.End)
      Kept.push_back(S);
  }
  Spans.swap(Kept);
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
  RangeSet Missing;
  if (Begin >= End)
    return Missing;
  auto It = std::upper_bound(Spans.begin(), Spans.end(), Begin,
                             [](std::size_t B, const Span &S) { return B < S.End; });
  for (; It != Spans.end() && It->Begin < End; ++It) {
    if (It->Begin > Begin)
      Missing.Spans.push_back({Begin, It->Begin});
    Begin = std::max(Begin, It->End);
  }
  if (Begin < End)
    Missing.Spans.push_back({Begin, End});
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
