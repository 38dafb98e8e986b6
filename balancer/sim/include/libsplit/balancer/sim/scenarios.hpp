//===- scenarios.hpp - The simulated cases of the balancer's tests -------===//
//
// Each case isolates one source of imbalance named in the paper (speed, granularity, offset,
// time) or one situation the balancer must recognize (noise, splitting that does not pay).
// Times are in seconds; one work-group takes Unit seconds on a device of speed 1.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/balancer/sim/simulator.hpp"

namespace libsplit::balancer::sim {

inline constexpr double Unit = 1e-5;

// Per-group time Unit / Speeds[i], independent of offset and launch.
Scenario linearRatios(const std::string &Name, const std::vector<double> &Speeds,
                      std::uint64_t NumGroups = 1000);

// A GPU (4x) whose per-group time falls in steps every 128 groups as its slice grows
// (occupancy), and a CPU (1x): time is not even monotone in the groups.
Scenario granularitySteps();

// SpMV with denser rows at the end: group g costs 1 + 6 g / (N - 1) units (7x at the end);
// two devices of equal speed.
Scenario denseRowsAtEnd();

// A 2x device and a 1x device that pays a fixed 0.35 N units of transfer whenever it runs:
// costs per group depend strongly on the split, so the fixed point is slow and Broyden is not.
Scenario launchOverhead();

// N-body with non-uniform masses: a heavy region (5x cost) moves back and forth along the
// groups with a period of 120 launches; devices 2x and 1x.
Scenario nbodyDrift();

// 2x and 1x until launch At, then 0.5x and 1x (another process takes the fast device).
Scenario speedFlip(std::uint64_t At);

// The slow device (0.5x) pays a fixed transfer of TransferUnits * N units whenever it runs.
// At 1.2 no split beats the fast device alone; at 0.6 the split gains 13%.
Scenario slowDeviceTransfer(double TransferUnits);

// A memory-bound kernel on a GPU and a CPU 300x slower whose every slice moves data costing 8
// times the GPU's whole launch: once dropped, each probe of the CPU costs about 9 launches.
Scenario probeMovesData();

// Splitting makes every device merge the written array (0.6 N units each), as for writes whose
// regions are unknown: a balanced split exists but is 27% slower than the fast device alone.
Scenario mergeCost();

Scenario withNoise(Scenario S, double Noise, std::uint32_t Seed);
// Shared: machine load common to all devices of a launch; Own: each device's own noise.
Scenario withSharedNoise(Scenario S, double Shared, double Own, std::uint32_t Seed);

// Every case above with its canonical parameters, for the tests and the table tool.
std::vector<Scenario> catalog();

} // namespace libsplit::balancer::sim
