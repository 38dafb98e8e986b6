//===- fixed_point.cpp - x <- F(x) ---------------------------------------===//
#include "share_solver.hpp"
#include "simplex.hpp"

namespace libsplit::balancer {

namespace {
class FixedPointSolver final : public ShareSolver {
public:
  Eigen::VectorXd step(const Eigen::VectorXd &, const Eigen::VectorXd &Cost) override {
    return proportionalShares(Cost);
  }
  void reset() override {}
};
} // namespace

std::unique_ptr<ShareSolver> makeFixedPointSolver() { return std::make_unique<FixedPointSolver>(); }

} // namespace libsplit::balancer
