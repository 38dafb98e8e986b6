//===- broyden.cpp - Broyden's method on G(x) = x - F(x) -----------------===//
//
// Shares sum to 1, so only m - 1 of them are free: the solver works on the first m - 1 shares
// (the last one is what is left) and on the first m - 1 components of G. Its Jacobian estimate
// starts as the identity, which makes the first step exactly a fixed-point step and is the true
// Jacobian when costs do not depend on the split (linear speeds: one step finds the balance).
// Each later step refines it with the good Broyden rank-one update from the last two launches.
//
//===----------------------------------------------------------------------===//
#include "share_solver.hpp"
#include "simplex.hpp"

#include <Eigen/Dense>
#include <algorithm>

namespace libsplit::balancer {

namespace {
// A secant step may be longer than the fixed-point step (that is its point when costs react to
// the split), but past this factor it extrapolates from noise rather than from the costs.
constexpr double MaxStepFactor = 4.0;

class BroydenSolver final : public ShareSolver {
public:
  Eigen::VectorXd step(const Eigen::VectorXd &Shares, const Eigen::VectorXd &Cost) override {
    Eigen::Index Free = Shares.size() - 1;
    Eigen::VectorXd Target = proportionalShares(Cost);
    if (Free < 1)
      return Target;
    Eigen::VectorXd Y = Shares.head(Free);
    Eigen::VectorXd G = (Shares - Target).head(Free);

    if (Jacobian.rows() != Free) {
      Jacobian = Eigen::MatrixXd::Identity(Free, Free);
      HasPrevious = false;
    }
    // Trust region: a step at most twice the last move, never shorter than the fixed-point
    // step. A secant through two nearby noisy launches can point far away; it earns longer
    // steps by moving well.
    double Limit = MaxStepFactor * G.cwiseAbs().maxCoeff();
    if (HasPrevious) {
      Eigen::VectorXd S = Y - PreviousY;
      Limit = std::min(Limit, std::max(2.0 * S.cwiseAbs().maxCoeff(), G.cwiseAbs().maxCoeff()));
      double Length2 = S.squaredNorm();
      // Rounding to whole work-groups can make two launches identical: nothing to learn.
      if (Length2 > 1e-16)
        Jacobian += ((G - PreviousG) - Jacobian * S) * S.transpose() / Length2;
    }
    PreviousY = Y;
    PreviousG = G;
    HasPrevious = true;

    Eigen::VectorXd Delta = Jacobian.fullPivLu().solve(-G);
    // A singular or sign-flipped estimate would walk away from the balance: fall back to the
    // identity (a fixed-point step) and learn again from there.
    if (!Delta.allFinite() || Delta.dot(-G) <= 0.0) {
      Jacobian.setIdentity();
      Delta = -G;
    }
    double Length = Delta.cwiseAbs().maxCoeff();
    if (Length > Limit)
      Delta *= Limit / Length;

    Eigen::VectorXd Next(Shares.size());
    Next.head(Free) = Y + Delta;
    Next[Free] = 1.0 - Next.head(Free).sum();
    return Next;
  }

  void reset() override {
    Jacobian.resize(0, 0);
    HasPrevious = false;
  }

private:
  Eigen::MatrixXd Jacobian;
  Eigen::VectorXd PreviousY;
  Eigen::VectorXd PreviousG;
  bool HasPrevious = false;
};
} // namespace

std::unique_ptr<ShareSolver> makeBroydenSolver() { return std::make_unique<BroydenSolver>(); }

} // namespace libsplit::balancer
