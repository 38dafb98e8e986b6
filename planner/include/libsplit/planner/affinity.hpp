//===- affinity.hpp - Split cuts that leave the data where it is ----------===//
//
// Data affinity: where the balancer's cut of a two-device split would move much data (an
// LU-style factorization whose NDRange shrinks every step re-cuts its trailing matrix each time,
// and its kernels cut rows at different granularities), other cuts are priced too and the
// cheapest taken: each device's work-groups at its seconds per work-group, plus the bytes it
// lacks for them over the link. Cuts where the devices already hold their parts' data move
// little (owner computes) and win unless the balance they lose costs more.
//
// Pure: no OpenCL, no clock. The caller prices each cut with the bytes each device lacks for its
// part (from the regions and the validity) and each device's seconds per work-group measured on
// this kernel's earlier slices.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace libsplit::planner {

// Each device's part of a launch (in the launch's device order, contiguous from work-group 0):
// its work-groups, and the bytes it lacks for them.
struct CutCandidate {
  std::vector<std::size_t> Groups;
  std::vector<double> Bytes;
  // What running it costs beyond its devices' parts: a split priced against one device alone
  // pays for its second device's launch and the wait for both.
  double FixedSeconds = 0.0;
};

struct AffinitySettings {
  // Other cuts are priced only where the balancer's cut moves data for at least this part of
  // its kernel time (pricing a cut costs the launch its plan again).
  double MovedShare = 0.1;
  // Cuts tried besides the balancer's: evenly spaced through the launch.
  std::size_t Grid = 8;
  // Another cut replaces the balancer's only this much cheaper.
  double Margin = 0.02;
  // The owner's cut wins unless another is this much cheaper: what keeping the data where it is
  // saves later (the next kernels over the buffer, the next steps) is not in its price, and
  // where the cuts' prices are that close the measured rates' noise decides between them.
  double OwnerMargin = 0.1;
};

// The seconds of a candidate: its slowest device's work-groups at SecondsPerGroup, plus its
// bytes over LinkBytesPerSecond, plus its FixedSeconds.
double predictedSeconds(const CutCandidate &C, const std::vector<double> &SecondsPerGroup,
                        double LinkBytesPerSecond);

// Whether the balancer's cut (Proposed) moves enough to price others: every device with work
// has a known rate (> 0), and its bytes' seconds are at least MovedShare of its kernel seconds
// and at least PricingSeconds (what pricing the other cuts costs the launch's host time).
bool worthOtherCuts(const CutCandidate &Proposed, const std::vector<double> &SecondsPerGroup,
                    double LinkBytesPerSecond, double PricingSeconds,
                    const AffinitySettings &Settings = {});

// The cuts to price for a two-device launch of Groups work-groups (the first device's part's
// work-groups): Proposed, then Settings.Grid evenly spaced ones, each strictly inside the launch,
// without repeats.
std::vector<std::size_t> cutsToTry(std::size_t Groups, std::size_t Proposed,
                                   const AffinitySettings &Settings = {});

// Owner computes: the cut between two devices that leaves a buffer divided where its data
// already is. Edge is the byte where the second device's writes began in the buffer's last split;
// RightStart(cut) the lowest byte the second device's part writes when it starts at cut (never
// lower for a larger cut; SIZE_MAX when it writes nothing there). Returns the smallest cut in
// [Lowest, Highest] whose part starts at or past Edge, none where no cut there does; a bisection
// of about log2(Highest - Lowest) calls.
std::optional<std::size_t> cutAtEdge(std::size_t Lowest, std::size_t Highest, std::size_t Edge,
                                     const std::function<std::size_t(std::size_t)> &RightStart);

// Owner computes, priced over more than one launch: what a device lacks at another cut beyond
// what it lacks at the cut that keeps the buffers' split (Candidates[Owner]) crosses that split,
// and comes back when the next launch over those buffers keeps it (an LU step's second kernel
// cut where its first did not, or the other way round). Those bytes count twice in every
// candidate but the owner's.
void chargeReturnTrips(std::vector<CutCandidate> &Candidates, std::size_t Owner);

// A balancer's probe (one device alone, or a dropped device's small part), priced before it runs:
// the bytes its devices lack beyond what they lack at the held split (ProbeBytes and HeldBytes,
// summed over the devices) cross over for the probe, and come back at the next held launch.
// Seconds over LinkBytesPerSecond; 0 when it moves no more than the held split.
double probeSeconds(double ProbeBytes, double HeldBytes, double LinkBytesPerSecond);

// Which of Candidates (the balancer's first) to run: the cheapest by predictedSeconds where it
// is Margin cheaper than the first, else 0; but Owner (the owner's cut, when one is priced)
// wherever no candidate is OwnerMargin cheaper than it.
std::size_t cheapestCut(const std::vector<CutCandidate> &Candidates,
                        const std::vector<double> &SecondsPerGroup, double LinkBytesPerSecond,
                        const AffinitySettings &Settings = {},
                        std::optional<std::size_t> Owner = std::nullopt);

} // namespace libsplit::planner
