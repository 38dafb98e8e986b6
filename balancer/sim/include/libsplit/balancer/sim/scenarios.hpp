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

// A stencil on two equal GPUs: each launch writes the grid, so a device that runs a group takes
// its data from the other, at MigrationUnits units per group (memory-bound: moving a group costs
// more than computing it). The held 50/50 split moves only its halos (0.2 N units a device, which
// keeps one device alone, 1.43 times the split's time, a candidate to measure); a probe of one
// device alone moves half the grid there, and the next split moves it back.
Scenario stencilOnEqualDevices(double MigrationUnits);

Scenario withNoise(Scenario S, double Noise, std::uint32_t Seed);
// Shared: machine load common to all devices of a launch; Own: each device's own noise.
Scenario withSharedNoise(Scenario S, double Shared, double Own, std::uint32_t Seed);

// Every case above with its canonical parameters, for the tests and the table tool.
std::vector<Scenario> catalog();

// Scaling to many GPUs: identical GPUs, optionally a CPU, one slower GPU, a drifting load.
// Whatever the group count, one GPU runs the whole NDRange in ScalingGroups units (an EP-like
// compute-bound launch of about 41 ms), so that fewer groups only make each group bigger.
inline constexpr std::uint64_t ScalingGroups = 4096;

struct GpuFleet {
  unsigned Gpus = 8;
  bool WithCpu = false;      // a CPU after the GPUs
  double LastGpuSpeed = 1.0; // the last GPU's speed relative to the others (0.7: 30% slower)
  // Launches per back and forth of N-body's heavy region along the groups (nbodyDrift: 120);
  // 0: every group costs the same, at every launch.
  double DriftPeriod = 0;
  std::uint64_t NumGroups = ScalingGroups;
  // The runtime's default first split (by device type: the GPUs, not the CPU); false: equal
  // shares on every device, the paper's start.
  bool FirstSplitByType = true;
};

// The fleet's devices, named gpu0... and cpu. Every GPU pays a fixed per-launch transfer and the
// CPU a fixed start per launch (see scenarios.cpp for the figures and why).
Scenario gpuFleet(const std::string &Name, const GpuFleet &Fleet);

struct ScalingCase {
  Scenario Case;
  unsigned Gpus = 0;
  std::size_t ReferenceGpu = 0; // speedups are over this GPU alone
};

// The scaling cases (1 to 8 GPUs, a CPU, a slower GPU, drift, noise, few groups). Kept apart from
// catalog(): its tests hold every case to properties (2% of the best single device over launches
// 100-400) that a drifting load over nine devices is not meant to meet.
std::vector<ScalingCase> scalingCatalog();

} // namespace libsplit::balancer::sim
