//===- balancer_sim_main.cpp - Convergence table over simulated cases ----===//
//
// libsplit-balancer-sim [LAUNCHES] [CASE [STRATEGY]]
// Runs every strategy on every case of the catalog and prints, per case and strategy, the
// launches needed to stay within 5% of the optimal makespan, the split changes and probes after
// that, and the mean makespan over the optimum and over the best single device.
// With CASE (of the catalog or of the scaling catalog), also prints that case's launches one per
// line (for STRATEGY only, if given).
//
// libsplit-balancer-sim --scaling [LAUNCHES [STEADY_FROM]]
// Runs every strategy on every case of the scaling catalog and prints CSV, one row per case and
// strategy: convergence as above, then over launches [STEADY_FROM, LAUNCHES) (default 600 and
// 100) the makespan over the optimum and over the ideal, the speedup over one GPU and the
// efficiency (speedup over the devices' capacity in GPUs). balancer/sim/scaling_table.py makes
// a Markdown table of it.
//
// libsplit-balancer-sim --host-cost [LAUNCHES]
// The balancer's host time per launch (propose and observe, with the simulator's own device
// model, which is cheaper) against the device count: CSV, one row per strategy and count (2 to
// 16 devices of speeds 1 to 2, noise 2%, 4096 groups), LAUNCHES launches each (default 2000),
// the median of five runs.
//
//===----------------------------------------------------------------------===//
#include "libsplit/balancer/sim/scenarios.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;

namespace {

constexpr Strategy Strategies[] = {Strategy::Uniform, Strategy::FixedPoint, Strategy::Broyden};

Run runStrategy(const Scenario &S, Strategy Kind, unsigned Launches) {
  BalancerConfig Config;
  Config.Kind = Kind;
  Balancer B(Config);
  return simulate(S, B, Launches);
}

std::string convergeText(std::optional<unsigned> Converge) {
  return Converge ? std::to_string(*Converge) : "never";
}

void printLaunches(const Run &R) {
  for (const LaunchRecord &L : R.Launches) {
    std::printf("  %3llu %-13s", static_cast<unsigned long long>(L.Launch), L.State.c_str());
    for (std::uint64_t G : L.Groups)
      std::printf(" %5llu", static_cast<unsigned long long>(G));
    std::printf("  true/opt %.4f measured %.3g\n", L.TrueMakespan / L.OptimalMakespan,
                L.MeasuredMakespan);
  }
}

unsigned activeDevices(const Run &R) {
  for (auto It = R.Launches.rbegin(); It != R.Launches.rend(); ++It)
    if (It->Purpose == LaunchPurpose::Balance)
      return static_cast<unsigned>(
          std::count_if(It->Groups.begin(), It->Groups.end(), [](auto G) { return G > 0; }));
  return 0;
}

// launchesToConverge also accepts a start that the run's end leaves fewer than its 5 launches to
// hold: under a drifting load that is a coincidence of where the run stops, not a convergence.
std::optional<unsigned> launchesToSettle(const Run &R, unsigned Launches) {
  constexpr unsigned Hold = 5;
  std::optional<unsigned> Converge = launchesToConverge(R, 0.05, Hold);
  if (Converge && Launches - *Converge < Hold)
    return std::nullopt;
  return Converge;
}

int printScalingCsv(unsigned Launches, unsigned SteadyFrom) {
  std::printf("case,devices,gpus,cpu,groups,noise,first_split,strategy,launches,steady_from,"
              "converge,changes_after,probes_after,active_end,within5_steady,mean_over_opt,"
              "mean_over_ideal,speedup,capacity,efficiency\n");
  for (const ScalingCase &C : scalingCatalog()) {
    const Scenario &S = C.Case;
    bool WithCpu = S.Devices.size() > C.Gpus;
    for (Strategy Kind : Strategies) {
      Run R = runStrategy(S, Kind, Launches);
      std::optional<unsigned> Converge = launchesToSettle(R, Launches);
      unsigned After = Converge ? *Converge : Launches;
      ScalingFigures Figures = scalingFigures(S, R, C.ReferenceGpu, SteadyFrom, Launches);
      std::printf("%s,%zu,%u,%d,%llu,%.2f,%s,%s,%u,%u,%s,%u,%u,%u,%.3f,%.4f,%.4f,%.3f,%.3f,%.4f\n",
                  S.Name.c_str(), S.Devices.size(), C.Gpus, WithCpu ? 1 : 0,
                  static_cast<unsigned long long>(S.NumGroups), S.Noise,
                  S.FirstWeights.empty() ? "equal" : "by-type",
                  std::string(strategyName(Kind)).c_str(), Launches, SteadyFrom,
                  convergeText(Converge).c_str(), splitChanges(R, After, Launches),
                  probes(R, After, Launches), activeDevices(R), Figures.WithinTolerance,
                  meanOverOptimum(R, SteadyFrom, Launches), Figures.MeanOverIdeal, Figures.Speedup,
                  Figures.Capacity, Figures.Efficiency);
    }
  }
  return 0;
}

} // namespace

int printHostCostCsv(unsigned Launches) {
  std::printf("strategy,devices,launches,us_per_launch\n");
  for (Strategy Kind : {Strategy::FixedPoint, Strategy::Broyden})
    for (std::size_t Devices : {2u, 4u, 8u, 16u}) {
      std::vector<double> Speeds;
      for (std::size_t I = 0; I < Devices; ++I)
        Speeds.push_back(1.0 + static_cast<double>(I) / static_cast<double>(Devices));
      const Scenario S = withNoise(linearRatios("host-cost", Speeds, 4096), 0.02, 7);
      std::vector<double> Micros;
      for (int Round = 0; Round < 5; ++Round) {
        const auto Start = std::chrono::steady_clock::now();
        runStrategy(S, Kind, Launches);
        Micros.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - Start)
                .count() /
            Launches);
      }
      std::sort(Micros.begin(), Micros.end());
      std::printf("%s,%zu,%u,%.3f\n", std::string(strategyName(Kind)).c_str(), Devices, Launches,
                  Micros[Micros.size() / 2]);
    }
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "--host-cost") {
    const unsigned Launches = Argc > 2 ? static_cast<unsigned>(std::atoi(Argv[2])) : 2000;
    if (Launches == 0) {
      std::fprintf(stderr, "usage: libsplit-balancer-sim --host-cost [LAUNCHES], LAUNCHES > 0\n");
      return 2;
    }
    return printHostCostCsv(Launches);
  }
  if (Argc > 1 && std::string(Argv[1]) == "--scaling") {
    unsigned Launches = Argc > 2 ? static_cast<unsigned>(std::atoi(Argv[2])) : 600;
    unsigned SteadyFrom = Argc > 3 ? static_cast<unsigned>(std::atoi(Argv[3])) : 100;
    if (Launches == 0 || SteadyFrom >= Launches) {
      std::fprintf(stderr, "usage: libsplit-balancer-sim --scaling [LAUNCHES [STEADY_FROM]], "
                           "STEADY_FROM < LAUNCHES\n");
      return 2;
    }
    return printScalingCsv(Launches, SteadyFrom);
  }
  unsigned Launches = Argc > 1 ? static_cast<unsigned>(std::atoi(Argv[1])) : 200;
  std::string Detail = Argc > 2 ? Argv[2] : "";
  std::string DetailStrategy = Argc > 3 ? Argv[3] : "";
  std::vector<Scenario> Cases = catalog();
  // A scaling case is printed only when asked for by name: the table stays the catalog's.
  for (const ScalingCase &C : scalingCatalog())
    if (C.Case.Name == Detail)
      Cases.push_back(C.Case);
  std::printf("%-26s %-10s %9s %8s %7s %9s %9s\n", "case", "strategy", "converge", "changes",
              "probes", "mean/opt", "mean/1dev");
  for (const Scenario &S : Cases) {
    for (Strategy Kind : Strategies) {
      Run R = runStrategy(S, Kind, Launches);
      std::optional<unsigned> Converge = launchesToConverge(R);
      unsigned After = Converge ? *Converge : Launches;
      std::printf("%-26s %-10s %9s %8u %7u %9.4f %9.4f\n", S.Name.c_str(),
                  std::string(strategyName(Kind)).c_str(), convergeText(Converge).c_str(),
                  splitChanges(R, After, Launches), probes(R, After, Launches),
                  meanOverOptimum(R, Launches / 2, Launches),
                  meanOverSingle(R, Launches / 2, Launches));
      if (S.Name != Detail || (!DetailStrategy.empty() && DetailStrategy != strategyName(Kind)))
        continue;
      printLaunches(R);
    }
  }
  return 0;
}
