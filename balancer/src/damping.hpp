//===- damping.hpp - STEPOCL's 1/Q damping against ping-pong -------------===//
#pragma once

#include <Eigen/Core>

namespace libsplit::balancer {

// Each share has its own Q (starting at 1); its step is divided by Q. Q grows by one when the
// share reverses direction and the new step is at least PingPongRatio times the previous one:
// that is a ping-pong or noise, which averaging over more launches cures; an oscillation that
// shrinks faster is converging and is not slowed down. Q never decreases during one search (as
// in STEPOCL): letting it decay after steps in one direction was tried against a moving load
// and tracked it worse, the map being locally expanding there.
class ReversalDamping {
public:
  explicit ReversalDamping(double PingPongRatio) : PingPongRatio(PingPongRatio) {}

  void reset(Eigen::Index Count);
  Eigen::VectorXd apply(const Eigen::VectorXd &Step);
  double q(Eigen::Index I) const { return Q[I]; }

private:
  double PingPongRatio;
  Eigen::VectorXd Q;
  Eigen::VectorXd Previous; // last undamped step of each share
};

} // namespace libsplit::balancer
