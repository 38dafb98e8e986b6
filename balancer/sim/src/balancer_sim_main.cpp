//===- balancer_sim_main.cpp - Convergence table over simulated cases ----===//
//
// libsplit-balancer-sim [LAUNCHES] [CASE [STRATEGY]]
// Runs every strategy on every case of the catalog and prints, per case and strategy, the
// launches needed to stay within 5% of the optimal makespan, the split changes and probes after
// that, and the mean makespan over the optimum and over the best single device.
// With CASE, also prints that case's launches one per line (for STRATEGY only, if given).
//
//===----------------------------------------------------------------------===//
#include "libsplit/balancer/sim/scenarios.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace libsplit::balancer;
using namespace libsplit::balancer::sim;

int main(int Argc, char **Argv) {
  unsigned Launches = Argc > 1 ? static_cast<unsigned>(std::atoi(Argv[1])) : 200;
  std::string Detail = Argc > 2 ? Argv[2] : "";
  std::string DetailStrategy = Argc > 3 ? Argv[3] : "";
  std::printf("%-26s %-10s %9s %8s %7s %9s %9s\n", "case", "strategy", "converge", "changes",
              "probes", "mean/opt", "mean/1dev");
  for (const Scenario &S : catalog()) {
    for (Strategy Kind : {Strategy::Uniform, Strategy::FixedPoint, Strategy::Broyden}) {
      BalancerConfig Config;
      Config.Kind = Kind;
      Balancer B(Config);
      Run R = simulate(S, B, Launches);
      std::optional<unsigned> Converge = launchesToConverge(R);
      unsigned After = Converge ? *Converge : Launches;
      std::printf("%-26s %-10s %9s %8u %7u %9.4f %9.4f\n", S.Name.c_str(),
                  std::string(strategyName(Kind)).c_str(),
                  Converge ? std::to_string(*Converge).c_str() : "never",
                  splitChanges(R, After, Launches), probes(R, After, Launches),
                  meanOverOptimum(R, Launches / 2, Launches),
                  meanOverSingle(R, Launches / 2, Launches));
      if (S.Name != Detail || (!DetailStrategy.empty() && DetailStrategy != strategyName(Kind)))
        continue;
      for (const LaunchRecord &L : R.Launches) {
        std::printf("  %3llu %-13s", static_cast<unsigned long long>(L.Launch), L.State.c_str());
        for (std::uint64_t G : L.Groups)
          std::printf(" %5llu", static_cast<unsigned long long>(G));
        std::printf("  true/opt %.4f measured %.3g\n", L.TrueMakespan / L.OptimalMakespan,
                    L.MeasuredMakespan);
      }
    }
  }
  return 0;
}
