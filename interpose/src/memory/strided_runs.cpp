#include "strided_runs.hpp"

namespace libsplit {

std::vector<StridedRun> stridedRuns(const RangeSet &Set) {
  std::vector<StridedRun> Runs;
  for (const Span &S : Set.spans()) {
    if (!Runs.empty()) {
      StridedRun &Last = Runs.back();
      const std::size_t Pitch = S.Begin - (Last.Begin + (Last.Count - 1) * Last.Pitch);
      if (S.size() == Last.Bytes && (Last.Count == 1 || Pitch == Last.Pitch)) {
        Last.Pitch = Pitch;
        ++Last.Count;
        continue;
      }
    }
    Runs.push_back({S.Begin, S.size(), S.size(), 1});
  }
  return Runs;
}

} // namespace libsplit
