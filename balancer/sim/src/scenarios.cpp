//===- scenarios.cpp - The simulated cases of the balancer's tests -------===//
#include "libsplit/balancer/sim/scenarios.hpp"

#include <cmath>

namespace libsplit::balancer::sim {

static TimeModel linear(double Speed) {
  return [Speed](std::uint64_t Groups, std::uint64_t, std::uint64_t) {
    return static_cast<double>(Groups) * Unit / Speed;
  };
}

Scenario linearRatios(const std::string &Name, const std::vector<double> &Speeds,
                      std::uint64_t NumGroups) {
  Scenario S;
  S.Name = Name;
  S.NumGroups = NumGroups;
  for (std::size_t I = 0; I < Speeds.size(); ++I)
    S.Devices.push_back({"dev" + std::to_string(I), linear(Speeds[I]), {}});
  return S;
}

Scenario granularitySteps() {
  Scenario S;
  S.Name = "granularity-steps";
  S.NumGroups = 1000;
  S.Devices.push_back({"gpu",
                       [](std::uint64_t Groups, std::uint64_t, std::uint64_t) {
                         // Each further 128 groups fill the device better.
                         double Steps = std::ceil(static_cast<double>(Groups) / 128.0);
                         return static_cast<double>(Groups) * Unit / 4.0 * (1.0 + 2.0 / Steps);
                       },
                       {}});
  S.Devices.push_back({"cpu", linear(1.0), {}});
  return S;
}

Scenario denseRowsAtEnd() {
  Scenario S;
  S.Name = "dense-rows-at-end";
  S.NumGroups = 1000;
  double Slope = 6.0 / static_cast<double>(S.NumGroups - 1);
  TimeModel Rows = [Slope](std::uint64_t Groups, std::uint64_t First, std::uint64_t) {
    // Sum over g in [First, First + Groups) of (1 + Slope * g).
    auto N = static_cast<double>(Groups);
    auto A = static_cast<double>(First);
    return Unit * (N + Slope * (2.0 * A + N - 1.0) * N / 2.0);
  };
  S.Devices.push_back({"dev0", Rows, {}});
  S.Devices.push_back({"dev1", Rows, {}});
  return S;
}

static TimeModel fixedTransfer(double Seconds) {
  return [Seconds](std::uint64_t Groups, std::uint64_t, std::uint64_t) {
    return Groups ? Seconds : 0.0;
  };
}

Scenario launchOverhead() {
  Scenario S;
  S.Name = "launch-overhead";
  S.NumGroups = 1000;
  S.Devices.push_back({"fast", linear(2.0), {}});
  S.Devices.push_back({"slow", linear(1.0), fixedTransfer(0.35 * 1000 * Unit)});
  return S;
}

// N-body's heavy region (5x cost at its centre) moving back and forth along NumGroups groups,
// once every Period launches, on a device of speed Speed.
static TimeModel movingHeavyRegion(std::uint64_t NumGroups, double Speed, double Period) {
  return [N = static_cast<double>(NumGroups), Speed,
          Period](std::uint64_t Groups, std::uint64_t First, std::uint64_t Launch) {
    constexpr double Pi = 3.14159265358979323846;
    constexpr double Width = 0.08;
    double Center =
        0.15 + 0.7 * (0.5 - 0.5 * std::cos(2.0 * Pi * static_cast<double>(Launch) / Period));
    double A = static_cast<double>(First) / N;
    double B = static_cast<double>(First + Groups) / N;
    // Integral over [A, B] of 1 + 4 exp(-((u - Center) / Width)^2), in groups.
    double Bump = 4.0 * Width * std::sqrt(Pi) / 2.0 *
                  (std::erf((B - Center) / Width) - std::erf((A - Center) / Width));
    return N * ((B - A) + Bump) * Unit / Speed;
  };
}

Scenario nbodyDrift() {
  Scenario S;
  S.Name = "nbody-drift";
  S.NumGroups = 1000;
  S.TimeVarying = true;
  S.Devices.push_back({"fast", movingHeavyRegion(S.NumGroups, 2.0, 120), {}});
  S.Devices.push_back({"slow", movingHeavyRegion(S.NumGroups, 1.0, 120), {}});
  return S;
}

Scenario speedFlip(std::uint64_t At) {
  Scenario S;
  S.Name = "speed-flip";
  S.NumGroups = 1000;
  S.TimeVarying = true;
  S.Devices.push_back({"shared",
                       [At](std::uint64_t Groups, std::uint64_t, std::uint64_t Launch) {
                         return static_cast<double>(Groups) * Unit / (Launch < At ? 2.0 : 0.5);
                       },
                       {}});
  S.Devices.push_back({"other", linear(1.0), {}});
  return S;
}

Scenario slowDeviceTransfer(double TransferUnits) {
  Scenario S;
  S.Name = TransferUnits >= 1.0 ? "transfer-no-pay" : "transfer-pays";
  S.NumGroups = 1000;
  S.Devices.push_back({"fast", linear(1.0), {}});
  S.Devices.push_back({"slow", linear(0.5), fixedTransfer(TransferUnits * 1000 * Unit)});
  return S;
}

Scenario probeMovesData() {
  Scenario S;
  S.Name = "probe-moves-data";
  S.NumGroups = 1000;
  S.Devices.push_back({"gpu", linear(1.0), {}});
  S.Devices.push_back({"cpu", linear(1.0 / 300.0), fixedTransfer(8.0 * 1000 * Unit)});
  return S;
}

// A cost each device pays only when the launch of NumGroups is split: Units units per group of
// the whole launch (a merge, a halo's exchange).
static TimeModel whenSplit(std::uint64_t NumGroups, double Units) {
  return [NumGroups, Units](std::uint64_t Groups, std::uint64_t, std::uint64_t) {
    return Groups > 0 && Groups < NumGroups ? Units * static_cast<double>(NumGroups) * Unit : 0.0;
  };
}

Scenario mergeCost() {
  Scenario S;
  S.Name = "merge-no-pay";
  S.NumGroups = 1000;
  TimeModel Merge = whenSplit(S.NumGroups, 0.6);
  S.Devices.push_back({"fast", linear(1.0), Merge});
  S.Devices.push_back({"slow", linear(0.5), Merge});
  return S;
}

Scenario stencilOnEqualDevices(double MigrationUnits) {
  Scenario S;
  S.Name = "stencil-equal-devices";
  S.NumGroups = 1000;
  // Split, each device also exchanges its halo and waits for the other's: 0.2 N units.
  TimeModel Halo = whenSplit(S.NumGroups, 0.2);
  S.Devices.push_back({"gpu0", linear(1.0), Halo});
  S.Devices.push_back({"gpu1", linear(1.0), Halo});
  S.MigrationPerGroup = MigrationUnits * Unit;
  S.WritesMoveData = true;
  S.SeparateHardware = true;
  return S;
}

Scenario withNoise(Scenario S, double Noise, std::uint32_t Seed) {
  S.Name += "+noise" + std::to_string(static_cast<int>(std::lround(Noise * 100))) + "%";
  S.Noise = Noise;
  S.Seed = Seed;
  return S;
}

Scenario withSharedNoise(Scenario S, double Shared, double Own, std::uint32_t Seed) {
  S = withNoise(S, Own, Seed);
  S.Name += "+shared" + std::to_string(static_cast<int>(std::lround(Shared * 100))) + "%";
  S.SharedNoise = Shared;
  return S;
}

// A GPU's transfer per launch whatever its slice: a small argument write and result read over
// PCIe, about 10 us of latency each.
constexpr double GpuLaunchTransferSeconds = 20e-6;
// A CPU's kernel start per launch whatever its slice: PoCL's pthread driver waking its workers.
constexpr double CpuLaunchStartSeconds = 50e-6;
// A CPU's time per group over a GPU's, near the fastest ratio the runs in bench/results showed
// (most CPUs were far slower, and then worth no share at all). Its ideal share beside 8 GPUs,
// 1 / (8 x 20 + 1) = 0.62%, stays above DropShare (0.5%), so the CPU is a ninth device worth
// keeping, if barely; from 25x on it would not be.
constexpr double CpuSlowdown = 20.0;

static TimeModel plusFixed(TimeModel Model, double Seconds) {
  return [Model = std::move(Model), Seconds](std::uint64_t Groups, std::uint64_t First,
                                             std::uint64_t Launch) {
    return Groups ? Model(Groups, First, Launch) + Seconds : 0.0;
  };
}

Scenario gpuFleet(const std::string &Name, const GpuFleet &Fleet) {
  Scenario S;
  S.Name = Name;
  S.NumGroups = Fleet.NumGroups;
  S.TimeVarying = Fleet.DriftPeriod > 0;
  // Only the CPU shares hardware with anything (the host), and with no other device.
  S.SeparateHardware = true;
  // Speed 1 runs a group in Unit: a GPU runs ScalingGroups units whatever the group count.
  double GroupScale = static_cast<double>(Fleet.NumGroups) / static_cast<double>(ScalingGroups);
  auto kernel = [&](double Speed) {
    return Fleet.DriftPeriod > 0
               ? movingHeavyRegion(Fleet.NumGroups, Speed * GroupScale, Fleet.DriftPeriod)
               : linear(Speed * GroupScale);
  };
  for (unsigned I = 0; I < Fleet.Gpus; ++I) {
    double Speed = I + 1 == Fleet.Gpus ? Fleet.LastGpuSpeed : 1.0;
    S.Devices.push_back(
        {"gpu" + std::to_string(I), kernel(Speed), fixedTransfer(GpuLaunchTransferSeconds)});
    S.FirstWeights.push_back(1.0);
  }
  if (Fleet.WithCpu) {
    S.Devices.push_back({"cpu", plusFixed(kernel(1.0 / CpuSlowdown), CpuLaunchStartSeconds), {}});
    S.FirstWeights.push_back(0.0);
  }
  if (!Fleet.FirstSplitByType)
    S.FirstWeights.clear();
  return S;
}

std::vector<ScalingCase> scalingCatalog() {
  auto fleet = [](const std::string &Name, const GpuFleet &Fleet) {
    return ScalingCase{gpuFleet(Name, Fleet), Fleet.Gpus, 0};
  };
  GpuFleet Eight;
  GpuFleet EightCpu;
  EightCpu.WithCpu = true;
  GpuFleet EightSlow;
  EightSlow.LastGpuSpeed = 0.7;
  GpuFleet EightCpuDrift = EightCpu;
  EightCpuDrift.DriftPeriod = 120;
  // The issue's case: 8 GPUs, one 30% slower, a CPU and a drifting load.
  GpuFleet Issue = EightCpuDrift;
  Issue.LastGpuSpeed = 0.7;
  // Five times slower: the heavy region crosses a GPU's slice in about 50 launches, not 10.
  GpuFleet IssueSlowDrift = Issue;
  IssueSlowDrift.DriftPeriod = 600;
  GpuFleet IssueEqualStart = Issue;
  IssueEqualStart.FirstSplitByType = false;
  GpuFleet EightCpuEqualStart = EightCpu;
  EightCpuEqualStart.FirstSplitByType = false;
  GpuFleet EightCpuSlow = EightCpu;
  EightCpuSlow.LastGpuSpeed = 0.7;
  // Few groups: 32 or 8 per GPU, where one group is 3% or 12% of a GPU's slice.
  GpuFleet Groups256 = EightCpuSlow;
  Groups256.NumGroups = 256;
  GpuFleet Groups64 = EightCpuSlow;
  Groups64.NumGroups = 64;
  GpuFleet Groups64Equal = Groups64;
  Groups64Equal.FirstSplitByType = false;

  std::vector<ScalingCase> Cases;
  for (unsigned Gpus : {1u, 2u, 4u}) {
    GpuFleet Fleet;
    Fleet.Gpus = Gpus;
    Cases.push_back(fleet("gpus" + std::to_string(Gpus), Fleet));
  }
  Cases.push_back(fleet("gpus8", Eight));
  Cases.push_back(fleet("gpus8+cpu", EightCpu));
  Cases.push_back(fleet("gpus8+cpu-equal-start", EightCpuEqualStart));
  Cases.push_back(fleet("gpus8-slow", EightSlow));
  Cases.push_back(fleet("gpus8+cpu-slow", EightCpuSlow));
  Cases.push_back(fleet("gpus8+cpu-drift", EightCpuDrift));
  Cases.push_back(fleet("gpus8+cpu-slow-drift", Issue));
  Cases.push_back(fleet("gpus8+cpu-slow-drift-equal-start", IssueEqualStart));
  Cases.push_back(fleet("gpus8+cpu-slow-drift600", IssueSlowDrift));
  // A GPU's kernel times repeat within a few percent; 10% is the catalog's harsh case.
  ScalingCase Noisy = fleet("gpus8+cpu-slow-drift", Issue);
  Noisy.Case = withNoise(Noisy.Case, 0.03, 3);
  Cases.push_back(Noisy);
  ScalingCase VeryNoisy = fleet("gpus8+cpu-slow", EightCpuSlow);
  VeryNoisy.Case = withNoise(VeryNoisy.Case, 0.10, 7);
  Cases.push_back(VeryNoisy);
  Cases.push_back(fleet("gpus8+cpu-slow-g256", Groups256));
  Cases.push_back(fleet("gpus8+cpu-slow-g64", Groups64));
  Cases.push_back(fleet("gpus8+cpu-slow-g64-equal-start", Groups64Equal));
  return Cases;
}

std::vector<Scenario> catalog() {
  return {linearRatios("linear-2:1", {2, 1}),
          linearRatios("linear-4:2:1", {4, 2, 1}),
          linearRatios("linear-100:1", {100, 1}),
          granularitySteps(),
          denseRowsAtEnd(),
          launchOverhead(),
          nbodyDrift(),
          speedFlip(40),
          withNoise(linearRatios("linear-2:1", {2, 1}), 0.10, 7),
          withNoise(linearRatios("linear-4:2:1", {4, 2, 1}), 0.10, 11),
          slowDeviceTransfer(1.2),
          slowDeviceTransfer(0.6),
          mergeCost()};
}

} // namespace libsplit::balancer::sim
