//===- share_solver.hpp - One step of the balancing iteration ------------===//
//
// Both iterative strategies look for shares x with F(x) = x, where F gives every device a share
// proportional to its speed measured at x (paper, "Balancing maths"). A step receives the shares
// just run and the cost per work-group each device showed, and returns the shares to run next.
// Shares and costs cover the devices in use only; the caller keeps the simplex and the rounding.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/balancer/config.hpp"

#include <Eigen/Core>
#include <memory>

namespace libsplit::balancer {

class ShareSolver {
public:
  virtual ~ShareSolver() = default;
  virtual Eigen::VectorXd step(const Eigen::VectorXd &Shares, const Eigen::VectorXd &Cost) = 0;
  // Forget what earlier steps taught: the set of devices or the problem itself changed.
  virtual void reset() = 0;
};

std::unique_ptr<ShareSolver> makeFixedPointSolver();
std::unique_ptr<ShareSolver> makeBroydenSolver();

} // namespace libsplit::balancer
