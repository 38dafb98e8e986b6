//===- simplex.hpp - Keeping shares valid --------------------------------===//
#pragma once

#include <Eigen/Core>

namespace libsplit::balancer {

// The closest point (Euclidean) with every share >= 0 and the sum 1. Solver steps may leave the
// simplex; projecting rather than clipping and rescaling keeps the direction of the step for the
// devices that stay positive, which is what lets a share reach exactly zero.
Eigen::VectorXd projectOntoSimplex(const Eigen::VectorXd &Point);

// The fixed-point map of the paper: shares proportional to each device's speed (1 / cost per
// work-group). Costs must be positive and finite.
Eigen::VectorXd proportionalShares(const Eigen::VectorXd &CostPerGroup);

} // namespace libsplit::balancer
