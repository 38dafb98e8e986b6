//===- simplex.cpp - Projection onto the simplex -------------------------===//
#include "simplex.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace libsplit::balancer {

Eigen::VectorXd projectOntoSimplex(const Eigen::VectorXd &Point) {
  Eigen::Index Count = Point.size();
  if (Count == 0)
    return Point;
  // Duchi et al. (ICML 2008): find the shift Theta with sum(max(P - Theta, 0)) = 1.
  std::vector<double> Sorted(Point.data(), Point.data() + Count);
  std::sort(Sorted.begin(), Sorted.end(), std::greater<double>());
  double Prefix = 0.0;
  double Theta = 0.0;
  for (Eigen::Index I = 0; I < Count; ++I) {
    Prefix += Sorted[I];
    double Candidate = (Prefix - 1.0) / static_cast<double>(I + 1);
    if (Sorted[I] - Candidate > 0.0)
      Theta = Candidate;
  }
  return (Point.array() - Theta).max(0.0).matrix();
}

Eigen::VectorXd proportionalShares(const Eigen::VectorXd &CostPerGroup) {
  Eigen::VectorXd Speed = CostPerGroup.cwiseInverse();
  return Speed / Speed.sum();
}

} // namespace libsplit::balancer
