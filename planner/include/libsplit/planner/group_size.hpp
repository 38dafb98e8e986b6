// The work-group size of a launch whose app left it to the implementation (a null local size),
// where libsplit must fix one: slices and chunks are counted in work-groups.
#pragma once

#include <cstddef>

namespace libsplit::planner {

// The largest divisor of Global no larger than Limit (at least 1), Limit being the smallest of
// DeviceLimit (what every device and the kernel allow there; 0: none known) and the size wanted:
// 256 work-items where every device is a GPU (a GPU runs a short kernel of 64-item groups several
// times slower than one of 256 or more: bench/results/2026-11-26-a3a6496-h100x2-host-cost), 64
// where a CPU device takes part (more groups are finer slices, and a CPU's group is a loop on one
// core).
std::size_t implicitGroupSize(std::size_t Global, bool AllGpus, std::size_t DeviceLimit);

} // namespace libsplit::planner
