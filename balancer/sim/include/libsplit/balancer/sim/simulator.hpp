//===- simulator.hpp - Simulated devices for exercising the balancer -----===//
//
// A scenario is a set of devices whose times are functions of the slice they run and of the
// launch index; running a Balancer against it records, launch by launch, the split chosen, its
// true (noise-free) makespan and the best makespan any split could have had.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/balancer/balancer.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace libsplit::balancer::sim {

// Seconds for Groups work-groups starting at FirstGroup, on launch Launch (from 0). Must be 0
// for 0 groups.
using TimeModel =
    std::function<double(std::uint64_t Groups, std::uint64_t FirstGroup, std::uint64_t Launch)>;

struct SimDevice {
  std::string Name;
  TimeModel Kernel;
  TimeModel Transfer; // transfers the launch causes for this device; empty: none
};

struct Scenario {
  std::string Name;
  std::uint64_t NumGroups = 0;
  std::vector<SimDevice> Devices;
  // Every measured time is multiplied by 1 + u, u uniform in [-Noise, Noise], drawn from a
  // generator seeded with Seed: runs are reproducible.
  double Noise = 0.0;
  // Every measured time of a launch is also multiplied by one common 1 + v, v uniform in
  // [-SharedNoise, SharedNoise]: load on the machine that slows every device alike.
  double SharedNoise = 0.0;
  // Seconds per work-group whose data a device does not hold yet (it never ran that group), added
  // to the device's transfers: the one-off move when a slice changes hands, as for an input the
  // runtime sends each device only for the slices it ran. Not part of makespan(): it is not paid
  // by a split held from launch to launch.
  double MigrationPerGroup = 0.0;
  // With MigrationPerGroup: each launch writes its groups' data, so a device that runs a group
  // takes it from every other (a stencil's grid), instead of every device keeping what it got.
  bool WritesMoveData = false;
  // With MigrationPerGroup: each probe is priced before it runs, as the runtime prices it
  // (Balancer::postponeProbe): the groups its devices lack beyond what the held split's lack,
  // moved there and back.
  bool PriceProbes = false;
  std::uint32_t Seed = 1;
  bool TimeVarying = false;      // the optimum differs from launch to launch
  bool SeparateHardware = false; // told to the balancer (Balancer::propose)
  // Passed to Balancer::propose as the first split's weights; empty: equal shares. The runtime
  // passes 1 for devices of the app's device's type and 0 for the others.
  std::vector<double> FirstWeights;
};

// What a probe split costs beyond the held one when a group a device lacks costs
// MigrationPerGroup there and as much back (Scenario::PriceProbes); Holds[device][group].
double probePrice(const Scenario &S, const std::vector<std::vector<bool>> &Holds,
                  const Split &Probe, const Split &Held);

// Noise-free time of the slowest device; Groups in device order, slices contiguous from 0.
double makespan(const Scenario &S, const std::vector<std::uint64_t> &Groups, std::uint64_t Launch);

struct Optimum {
  double Makespan = 0.0;
  std::vector<std::uint64_t> Groups;
};

// The best split by exhaustive search for up to 3 devices (any time model); for more devices,
// by bisection on the makespan.
Optimum optimum(const Scenario &S, std::uint64_t Launch);
// Every split of up to 3 devices: O(N^(devices - 1)).
Optimum optimumExhaustive(const Scenario &S, std::uint64_t Launch);
// Bisection on the makespan, each device in order taking as many groups as fit: exact when a
// device's time never decreases as its slice grows at either end.
Optimum optimumByBisection(const Scenario &S, std::uint64_t Launch);

// The fastest device alone.
Optimum bestSingle(const Scenario &S, std::uint64_t Launch);

// Noise-free time of device Device running every group alone.
double aloneMakespan(const Scenario &S, std::size_t Device, std::uint64_t Launch);

// 1 / sum_i (1 / T_i), T_i each device's time alone: the makespan if work were divisible at no
// cost. Below the optimum when groups are few (rounding) or devices pay fixed costs per launch.
double idealMakespan(const Scenario &S, std::uint64_t Launch);

struct LaunchRecord {
  std::uint64_t Launch = 0;
  std::vector<std::uint64_t> Groups;
  LaunchPurpose Purpose = LaunchPurpose::Balance;
  std::string State; // the balancer's state name when it proposed this split
  double TrueMakespan = 0.0;
  double MeasuredMakespan = 0.0;
  double OptimalMakespan = 0.0;
  double SingleMakespan = 0.0; // best single device
};

struct Run {
  std::vector<LaunchRecord> Launches;
  bool GroupsAlwaysSummed = true; // every proposed split covered exactly the NDRange
  bool SlicesContiguous = true;   // and its slices followed device order without gaps
};

// Runs Launches launches of one key against the scenario.
Run simulate(const Scenario &S, Balancer &B, unsigned Launches);

// 1-based index of the first launch from which the true makespan stays within (1 + Tolerance)
// of the optimum for Hold more balancing launches (probes are not counted); empty if never.
// Launches before From are skipped (the index still counts from launch 0).
std::optional<unsigned> launchesToConverge(const Run &R, double Tolerance = 0.05, unsigned Hold = 5,
                                           unsigned From = 0);

// Balancing launches in [From, To) whose split differs from the previous balancing launch.
unsigned splitChanges(const Run &R, unsigned From, unsigned To);

// Probe launches in [From, To).
unsigned probes(const Run &R, unsigned From, unsigned To);

// Mean over [From, To) of true makespan / reference (the optimum, or the best single device).
double meanOverOptimum(const Run &R, unsigned From, unsigned To);
double meanOverSingle(const Run &R, unsigned From, unsigned To);

// How a run scales against one device (Reference, a GPU) over launches [From, To), probes
// included: they are part of what the steady state costs.
struct ScalingFigures {
  double MeanOverIdeal = 0.0;   // mean of true makespan / idealMakespan
  double Speedup = 0.0;         // sum of Reference's times alone / sum of true makespans
  double Capacity = 0.0;        // sum of Reference's times alone / sum of ideal makespans
  double Efficiency = 0.0;      // Speedup / Capacity
  double WithinTolerance = 0.0; // fraction of launches within (1 + Tolerance) of the optimum
};
ScalingFigures scalingFigures(const Scenario &S, const Run &R, std::size_t Reference, unsigned From,
                              unsigned To, double Tolerance = 0.05);

} // namespace libsplit::balancer::sim
