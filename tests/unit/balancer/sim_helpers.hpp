// Shared by the balancer's tests: run a strategy against a simulated case.
#pragma once

#include "libsplit/balancer/sim/scenarios.hpp"

namespace libsplit::balancer::test {

inline BalancerConfig configFor(Strategy Kind) {
  BalancerConfig Config;
  Config.Kind = Kind;
  return Config;
}

inline sim::Run runCase(const sim::Scenario &S, Strategy Kind, unsigned Launches) {
  Balancer B(configFor(Kind));
  return sim::simulate(S, B, Launches);
}

// The key sim::simulate uses for a scenario.
inline LaunchKey simKey(const sim::Scenario &S) {
  LaunchKey Key;
  Key.Kernel = "sim." + S.Name;
  Key.Global = {S.NumGroups, 1, 1};
  return Key;
}

// Launches to converge, or a number past any bound when it never does.
inline unsigned converge(const sim::Run &R, unsigned From = 0) {
  return sim::launchesToConverge(R, 0.05, 5, From).value_or(100000);
}

} // namespace libsplit::balancer::test
