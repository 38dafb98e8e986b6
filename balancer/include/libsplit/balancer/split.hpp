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

// A first guess of relative speeds (Balancer::propose's FirstWeights): devices of the app's
// device's kind (a device type bit mask: GPU, CPU...) count as equals, the others as nothing:
// they start dropped and a probe (one work-group first) measures them. Two GPUs then start
// evenly, while a CPU 100-3000 times slower per work-group than a GPU does not hold a GPU app's
// first launch (even 1/1024 of Monte Carlo's groups took the CPU three times what the H200's
// took for the rest); an app on the CPU keeps its first launch, as natively. No device
// of the app's kind: equal weights.
inline constexpr double UnlikeWeight = 0.0;
std::vector<double> weightsByKind(const std::vector<unsigned long> &Kinds, unsigned long AppKind);

} // namespace libsplit::balancer
