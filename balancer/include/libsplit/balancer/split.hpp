//===- split.hpp - Shares rounded to whole work-groups -------------------===//
//
// The solvers work on real-valued shares; a launch needs whole work-groups whose sum is exactly
// the NDRange's, with slices laid out in device order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

namespace libsplit::balancer {

struct DeviceSlice {
  std::uint64_t FirstGroup = 0;
  std::uint64_t Groups = 0; // 0: the device does not take part in this launch
};

// Why the balancer chose this split; probes are single launches that test an alternative.
enum class LaunchPurpose {
  Balance,     // the balancer's current best guess
  ProbeDevice, // a small share for a dropped device, to see whether it should come back
  ProbeSingle, // everything on one device, to see whether splitting pays at all
};

struct Split {
  std::vector<DeviceSlice> Slices; // one per device, in device order, contiguous from group 0
  std::vector<double> Shares;      // the shares the slices were rounded from (sum 1)
  LaunchPurpose Purpose = LaunchPurpose::Balance;
};

// Largest-remainder rounding: every device gets floor(share * NumGroups), then the groups left
// over go to the largest fractional parts (ties to the lower device index), so the sum is exact
// and no device is off by more than one group. Shares need not be normalized; negative and
// non-finite shares count as zero; all-zero shares mean uniform.
Split roundShares(const std::vector<double> &Shares, std::uint64_t NumGroups);

} // namespace libsplit::balancer
