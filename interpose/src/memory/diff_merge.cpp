#include "diff_merge.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace libsplit {

RangeSet mergeByDiff(std::uint8_t *Host, const std::uint8_t *Snapshot,
                     const std::vector<DiffCopy> &Copies, const RangeSet &Excluded,
                     std::size_t ElementBytes) {
  const std::size_t Width = std::max<std::size_t>(ElementBytes, 1);
  RangeSet Merged;
  for (const DiffCopy &Copy : Copies) {
    RangeSet Diffed = Copy.Written;
    Diffed.subtract(Excluded);
    for (const Span &S : Diffed.spans()) {
      const std::uint8_t *From = Copy.Bytes + (S.Begin - Copy.Begin);
      if (Width == 1) {
        for (std::size_t B = S.Begin; B < S.End; ++B, ++From)
          if (*From != Snapshot[B])
            Host[B] = *From;
        continue;
      }
      // Element by element (clipped to the span where it starts or ends inside an element).
      for (std::size_t Element = S.Begin - S.Begin % Width; Element < S.End; Element += Width) {
        const std::size_t Low = std::max(Element, S.Begin);
        const std::size_t High = std::min(Element + Width, S.End);
        const std::uint8_t *Mine = From + (Low - S.Begin);
        if (std::memcmp(Mine, Snapshot + Low, High - Low) != 0)
          std::memcpy(Host + Low, Mine, High - Low);
      }
    }
    Merged.add(Copy.Written);
  }
  return Merged;
}

std::size_t pointeeScalarBytes(std::string_view TypeName) {
  // The pointee: what precedes the '*', without qualifiers or address spaces.
  const std::size_t Star = TypeName.find('*');
  if (Star == std::string_view::npos)
    return 0;
  std::string_view Base = TypeName.substr(0, Star);
  while (!Base.empty() && Base.back() == ' ')
    Base.remove_suffix(1);
  if (const std::size_t Space = Base.rfind(' '); Space != std::string_view::npos)
    Base = Base.substr(Space + 1);
  // A vector's element: "float4" -> "float", "uchar16" -> "uchar".
  while (!Base.empty() && Base.back() >= '0' && Base.back() <= '9')
    Base.remove_suffix(1);
  static constexpr std::pair<std::string_view, std::size_t> Sizes[] = {
      {"char", 1}, {"uchar", 1}, {"bool", 1},  {"short", 2}, {"ushort", 2}, {"half", 2},
      {"int", 4},  {"uint", 4},  {"float", 4}, {"long", 8},  {"ulong", 8},  {"double", 8}};
  for (const auto &[Name, Bytes] : Sizes)
    if (Base == Name)
      return Bytes;
  return 0;
}

} // namespace libsplit
