// Owner computes, the data-only part (no OpenCL call, no runtime: in the plan library,
// unit-tested on the fake backend, tests/unit/plan): where a split launch leaves each buffer it
// writes divided between two devices, the cut that keeps that division, and where a launch too
// small to split finds its data.
#pragma once

#include "launch_plan.hpp"

#include <map>
#include <optional>
#include <vector>

namespace libsplit {

// Where the launch about to run divides each buffer it writes (Buffer::splitEdge): the first
// byte its second slice writes, where it has two slices whose writes need no merge; else none.
// By: the launch's kernel. Data lock held.
void noteSplitEdges(const std::map<Buffer *, BufferPlan> &Plans, size_t SliceCount, const void *By);

// The cut of a two-device launch (Groups work-groups along Dim) at which its second slice starts
// writing where the last split of the buffer it writes most began (Buffer::splitEdge); none
// without such a buffer or cut. The balancer's cut (Proposed, planned in Plans: two slices, or
// one device alone, Proposed then 0 or Groups) is checked first: where it keeps the split
// already, one evaluation of the regions says so; else a bisection (planner::cutAtEdge). Only
// buffers whose split another kernel than NotBy made count, where NotBy is given. Data lock
// held.
std::optional<size_t> ownerCut(const CompiledKernel &Facts, const LaunchRequest &R,
                               const std::map<Buffer *, BufferPlan> &Plans,
                               const analysis::NDRange &Range, const analysis::LaunchArgs &Scalars,
                               cl_uint Dim, size_t Groups, size_t Proposed,
                               const void *NotBy = nullptr);

// Kernels that share buffers, each held at its own cut by its own balancer, move the bytes
// between their cuts at every launch: the cuts of a two-device launch (other than Proposed, the
// balancer's, planned in Plans) that keep the division of a buffer it only reads where another
// launch's split left it (Buffer::splitEdge): where its two parts' reads of that buffer meet at
// the edge. Empty where Proposed keeps every such division (one evaluation of the regions per
// buffer says so). Data lock held.
std::vector<size_t> readEdgeCuts(const CompiledKernel &Facts, const LaunchRequest &R,
                                 const std::map<Buffer *, BufferPlan> &Plans,
                                 const analysis::NDRange &Range,
                                 const analysis::LaunchArgs &Scalars, cl_uint Dim, size_t Groups,
                                 size_t Proposed);

// Whether Device holds every byte of R's buffer arguments.
bool heldWhollyOn(const LaunchRequest &R, const ExecDevice &Device);

// Where a launch too small to split runs: the device that lacks the fewest of the bytes it uses
// (a factorization's last steps, a one-work-group kernel between split ones, stay where the
// split kernels left their data), the app's device (Home, null) on a tie or where it holds every
// byte; never a CPU beside an app's GPU. Devices: those able to run R (its local size set).
// Data lock held.
ExecDevice *whereDataIs(const CompiledKernel &Facts, const LaunchRequest &R,
                        const std::vector<ExecDevice *> &Devices, ExecDevice &Home,
                        ByteRoutes Routes);

} // namespace libsplit
