// A balancer's probe priced before it runs, as a plan is priced: the bytes it
// moves beyond the held split, there and back, at the rate the kernel's fetches ran at; a probe
// the key's probe credit does not cover is postponed (Balancer::postponeProbe).
#pragma once

#include "balancing.hpp"
#include "kernel.hpp"
#include "launch_plan.hpp"

namespace libsplit {

// The slices of a balancer's split over Devices (its device order), devices without work left
// out.
std::vector<Slice> slicesOf(const balancer::Split &Split, const std::vector<ExecDevice *> &Devices);

// Where Proposal is a probe: prices it against the held split of Key (planned the same way as
// Plans were for Slices) and tells the balancer. Returns whether it was postponed, in which case
// Slices and Plans are the held split's. Data lock held.
bool postponeCostlyProbe(Kernel &K, LaunchBalancer &Balancer, const balancer::LaunchKey &Key,
                         const balancer::Split &Proposal, const LaunchRequest &R,
                         const CompiledKernel &Facts, const std::vector<ExecDevice *> &Devices,
                         cl_uint Dim, size_t Groups, bool Regions, const analysis::NDRange &Range,
                         const analysis::LaunchArgs &Scalars, ByteRoutes Routes,
                         std::vector<Slice> &Slices, std::map<Buffer *, BufferPlan> &Plans);

} // namespace libsplit
