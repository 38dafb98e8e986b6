// Data affinity for a split's cut: whether another cut of a two-device split moves less for the
// balance it gives up (planner/affinity.hpp), from the kernel's history of slices.
#pragma once

#include "kernel.hpp"
#include "launch_plan.hpp"

namespace libsplit {

// How preferCheaperCut may choose: SeparateHardware, the devices share no hardware (a grid of
// cuts is priced too); ProbesAlone, one device alone is the balancer's probe, which runs as
// proposed; Quiet, a trial whose choice may not run (nothing logged).
struct CutChoice {
  bool SeparateHardware = true;
  bool ProbesAlone = false;
  bool Quiet = false;
};

// Data affinity: where the balancer's cut of a two-device split (Slices, Plans) moves much data
// for its kernel time, other cuts are priced with the bytes each device lacks for its part and
// the kernel's seconds per work-group on each device, and the cheapest replaces it
// (planner/affinity.hpp): where each device's data ends, and, on devices that share no hardware,
// a grid of cuts too; PlanSeconds: what planning the balancer's cut took, the price of pricing
// another. One device alone (Slices has one, of a launch two devices can run) is priced the same
// way against the owner's cut, unless it is the balancer's probe. Returns what the balancer's
// proposal would have moved beyond the cut chosen, in seconds there and back
// (planner::probeSeconds); 0 where it stands. Data lock held.
double preferCheaperCut(Kernel &K, const LaunchRequest &R, const CompiledKernel &Facts,
                        const std::vector<ExecDevice *> &Devices, cl_uint Dim, size_t Groups,
                        bool Regions, const analysis::NDRange &Range,
                        const analysis::LaunchArgs &Scalars, std::vector<Slice> &Slices,
                        std::map<Buffer *, BufferPlan> &Plans, double PlanSeconds,
                        const CutChoice &How);

} // namespace libsplit
