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

Scenario mergeCost() {
  Scenario S;
  S.Name = "merge-no-pay";
  S.NumGroups = 1000;
  TimeModel Merge = [N = S.NumGroups](std::uint64_t Groups, std::uint64_t, std::uint64_t) {
    return Groups > 0 && Groups < N ? 0.6 * static_cast<double>(N) * Unit : 0.0;
  };
  S.Devices.push_back({"fast", linear(1.0), Merge});
  S.Devices.push_back({"slow", linear(0.5), Merge});
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
