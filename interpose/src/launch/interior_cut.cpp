#include "interior_cut.hpp"

#include <optional>

namespace libsplit {

GroupSpan interiorOf(std::size_t First, std::size_t End,
                     const std::function<bool(const GroupSpan &)> &AvoidsMissing) {
  const std::size_t Size = End > First ? End - First : 0;
  for (std::size_t Trim = 1; Trim <= Size / 2; Trim *= 2) {
    if (AvoidsMissing({First + Trim, End}))
      return {First + Trim, End};
    if (AvoidsMissing({First, End - Trim}))
      return {First, End - Trim};
    if (2 * Trim <= Size / 2 && AvoidsMissing({First + Trim, End - Trim}))
      return {First + Trim, End - Trim};
  }
  return {};
}

bool avoidsMissing(const CompiledKernel &Facts, const LaunchRequest &R,
                   const analysis::NDRange &Range, const analysis::LaunchArgs &Scalars, cl_uint Dim,
                   const GroupSpan &Part, const std::map<Buffer *, RangeSet> &Missing) {
  const std::vector<Slice> One{Slice{nullptr, Part.First, Part.End}};
  const std::map<Buffer *, BufferPlan> Plans =
      planBuffers(Facts, R, One, true, Range, Scalars, Dim);
  for (const auto &[Root, Lacking] : Missing) {
    if (Lacking.empty())
      continue;
    const auto P = Plans.find(Root);
    if (P != Plans.end() && !P->second.Need.front().intersection(Lacking).empty())
      return false;
  }
  return true;
}

GroupSpan InteriorMemo::interior(std::size_t Device, const GroupSpan &Slice,
                                 const std::function<bool(const GroupSpan &)> &AvoidsMissing) {
  const auto Key = std::make_tuple(Device, Slice.First, Slice.End);
  std::optional<GroupSpan> Known;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (const auto Found = Kept.find(Key); Found != Kept.end())
      Known = Found->second;
  }
  if (Known && (Known->empty() || AvoidsMissing(*Known)))
    return *Known;
  const GroupSpan Found = interiorOf(Slice.First, Slice.End, AvoidsMissing);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Kept.size() >= MaxKept)
    Kept.clear();
  Kept[Key] = Found;
  return Found;
}

bool OverlapChoice::next(config::OverlapPolicy Policy, bool Held,
                         std::chrono::steady_clock::time_point Now) {
  if (Policy != config::OverlapPolicy::Auto)
    return Policy == config::OverlapPolicy::Always;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Held) {
    Last.reset();
    return false;
  }
  std::optional<double> Interval;
  if (Last)
    Interval = std::chrono::duration<double>(Now - *Last).count();
  Last = Now;
  return Trial.next(Interval);
}

} // namespace libsplit
