#include "libsplit/planner/pipelined_cost.hpp"

#include <algorithm>

namespace libsplit::planner {

double pipelinedSliceSeconds(const PipelinedSlice &Slice) {
  const double Measured = Slice.HostBefore + Slice.Kernels;
  if (!Slice.LaunchBegan || !Slice.End)
    return Measured;
  const bool Behind =
      Slice.PreviousEnd && (!Slice.FirstStart || *Slice.PreviousEnd <= *Slice.FirstStart);
  const double From =
      Behind ? std::max(*Slice.LaunchBegan, *Slice.PreviousEnd) : *Slice.LaunchBegan;
  return std::clamp(*Slice.End - From, Slice.Kernels, std::max(Measured, Slice.Kernels));
}

} // namespace libsplit::planner
