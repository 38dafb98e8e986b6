// Data affinity for a split's cut: whether another cut of a two-device split moves less for the
// balance it gives up (planner/affinity.hpp), from the kernel's history of slices.
#pragma once

#include "kernel.hpp"
#include "launch_plan.hpp"

namespace libsplit {

// Data affinity: where the balancer's cut of a two-device split (Slices, Plans) moves much data
// for its kernel time, other cuts are priced with the bytes each device lacks for its part and
// the kernel's seconds per work-group on each device, and the cheapest replaces it
// (planner/affinity.hpp): where each device's data ends, and, on devices that share no hardware
// (SeparateHardware), a grid of cuts too; PlanSeconds: what planning the balancer's cut took,
// the price of pricing another. Data lock held.
void preferCheaperCut(Kernel &K, const LaunchRequest &R, const CompiledKernel &Facts,
                      const std::vector<ExecDevice *> &Devices, cl_uint Dim, size_t Groups,
                      bool Regions, const analysis::NDRange &Range,
                      const analysis::LaunchArgs &Scalars, std::vector<Slice> &Slices,
                      std::map<Buffer *, BufferPlan> &Plans, double PlanSeconds,
                      bool SeparateHardware);

// Whether Device holds every byte of R's buffer arguments.
bool heldWhollyOn(const LaunchRequest &R, const ExecDevice &Device);

// Where a launch too small to split runs: the device that lacks the fewest of the bytes it uses
// (a factorization's last steps, a one-work-group kernel between split ones, stay where the
// split kernels left their data), the app's device (Home, null) on a tie or where it holds every
// byte; never a CPU beside an app's GPU. Devices: those able to run R (its local size set).
// Data lock held.
ExecDevice *whereDataIs(const CompiledKernel &Facts, const LaunchRequest &R,
                        const std::vector<ExecDevice *> &Devices, ExecDevice &Home, bool PeerCopy);

// Where the launch about to run divides each buffer it writes (Buffer::splitEdge): the first
// byte its second slice writes, where it has two slices whose writes need no merge; else none.
// Data lock held.
void noteSplitEdges(const std::map<Buffer *, BufferPlan> &Plans, size_t SliceCount);

} // namespace libsplit
