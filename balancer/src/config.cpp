//===- config.cpp - Names of strategies and key states ---------------------===//
#include "libsplit/balancer/config.hpp"
#include "libsplit/balancer/key_trace.hpp"

namespace libsplit::balancer {

std::string_view strategyName(Strategy S) {
  switch (S) {
  case Strategy::Uniform:
    return "uniform";
  case Strategy::Static:
    return "static";
  case Strategy::FixedPoint:
    return "fixedpoint";
  case Strategy::Broyden:
    return "broyden";
  }
  return "?";
}

std::string_view stateName(KeyState State) {
  switch (State) {
  case KeyState::Fixed:
    return "fixed";
  case KeyState::Initial:
    return "initial";
  case KeyState::Search:
    return "search";
  case KeyState::Converged:
    return "converged";
  case KeyState::Single:
    return "single";
  case KeyState::ProbeDevice:
    return "probe-device";
  case KeyState::ProbeSingle:
    return "probe-single";
  }
  return "?";
}

} // namespace libsplit::balancer
