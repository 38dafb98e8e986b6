// What one device's slice of a pipelined split launch added to the run (the split guard's
// measure of a split). Pure: times in seconds, on that device's profiling clock where known.
#pragma once

#include <optional>

namespace libsplit::planner {

// A slice of a split launch the executor left running (it moved on once the slice's commands
// were queued).
struct PipelinedSlice {
  double HostBefore = 0.0; // host work from the launch's start to the slice's first enqueue
  double Kernels = 0.0;    // the slice's kernels' profiled time
  // On the device's clock: the launch's start (its first command's queueing less HostBefore),
  // the end of the device's previous split slice (of any launch), when this slice's first
  // kernel started, and this slice's end.
  std::optional<double> LaunchBegan, PreviousEnd, FirstStart, End;
};

// From the later of the launch's start and the device's previous slice's end to this slice's
// end: what the slice kept the device from running the next launch. The host work before it
// plus its kernels bounds it: that measure, all there is where the clock's times are unknown,
// also counts a wait for an earlier launch's kernels on the other devices (a halo's source)
// which the earlier launch's own measure counted already. No less than the kernels. A previous
// end after this slice's first kernel started is another queue's later slice, told first: not
// the one this slice waited behind (the device runs its queue in order).
double pipelinedSliceSeconds(const PipelinedSlice &Slice);

} // namespace libsplit::planner
