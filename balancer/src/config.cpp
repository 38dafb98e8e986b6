//===- config.cpp - Strategy names -----------------------------------------===//
#include "libsplit/balancer/config.hpp"

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

} // namespace libsplit::balancer
