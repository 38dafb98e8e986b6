//===- damping.cpp - STEPOCL's 1/Q damping against ping-pong -------------===//
#include "damping.hpp"

#include <cmath>

namespace libsplit::balancer {

void ReversalDamping::reset(Eigen::Index Count) {
  Q = Eigen::VectorXd::Ones(Count);
  Previous = Eigen::VectorXd::Zero(Count);
}

Eigen::VectorXd ReversalDamping::apply(const Eigen::VectorXd &Step) {
  if (Q.size() != Step.size())
    reset(Step.size());
  Eigen::VectorXd Damped(Step.size());
  for (Eigen::Index I = 0; I < Step.size(); ++I) {
    bool Reversed = Step[I] * Previous[I] < 0.0;
    if (Reversed && std::fabs(Step[I]) >= PingPongRatio * std::fabs(Previous[I]))
      Q[I] += 1.0;
    if (Step[I] != 0.0)
      Previous[I] = Step[I];
    Damped[I] = Step[I] / Q[I];
  }
  return Damped;
}

} // namespace libsplit::balancer
