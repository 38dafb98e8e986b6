// The balancer's maths on its own, through its private headers (balancer/src).
#include "damping.hpp"
#include "noise_estimator.hpp"
#include "share_solver.hpp"
#include "simplex.hpp"
#include "time_samples.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace libsplit::balancer;

static Eigen::VectorXd vec(std::initializer_list<double> Values) {
  Eigen::VectorXd V(static_cast<Eigen::Index>(Values.size()));
  Eigen::Index I = 0;
  for (double X : Values)
    V[I++] = X;
  return V;
}

TEST_CASE("projection onto the simplex", "[parts]") {
  CHECK(projectOntoSimplex(vec({0.2, 0.8})).isApprox(vec({0.2, 0.8})));
  // Shifted equally, then the negative part is cut: a share can reach exactly zero.
  Eigen::VectorXd P = projectOntoSimplex(vec({0.9, 0.3, -0.2}));
  CHECK(P[0] == Approx(0.8));
  CHECK(P[1] == Approx(0.2));
  CHECK(P[2] == 0.0);
  CHECK(projectOntoSimplex(vec({5.0, 5.0})).isApprox(vec({0.5, 0.5})));
  CHECK(projectOntoSimplex(vec({-3.0, 1.0})).isApprox(vec({0.0, 1.0})));
}

TEST_CASE("proportional shares follow speed", "[parts]") {
  CHECK(proportionalShares(vec({1.0, 2.0, 4.0})).isApprox(vec({4.0 / 7, 2.0 / 7, 1.0 / 7})));
}

TEST_CASE("damping grows on ping-pong only", "[parts][damping]") {
  ReversalDamping D(0.5);
  D.reset(1);
  CHECK(D.apply(vec({0.2}))[0] == Approx(0.2));
  // Reverses with a step that shrank by more than half: converging, not damped.
  CHECK(D.apply(vec({-0.05}))[0] == Approx(-0.05));
  CHECK(D.q(0) == 1.0);
  // Reverses with a step as large as the last: ping-pong, Q = 2.
  CHECK(D.apply(vec({0.05}))[0] == Approx(0.025));
  CHECK(D.apply(vec({-0.05}))[0] == Approx(-0.05 / 3));
  // Same direction: Q is kept.
  CHECK(D.apply(vec({-0.05}))[0] == Approx(-0.05 / 3));
}

// Costs per group of two devices where device 1 also pays a fixed cost per launch: costs
// depend on the split, so F(x) = x is not reached in one step.
static Eigen::VectorXd overheadCosts(const Eigen::VectorXd &X) {
  double N = 1000;
  return vec({1.0 / 2.0, (350.0 + X[1] * N) / (X[1] * N)});
}

static int stepsToBalance(ShareSolver &Solver) {
  Eigen::VectorXd X = vec({0.5, 0.5});
  for (int Step = 1; Step <= 50; ++Step) {
    Eigen::VectorXd Cost = overheadCosts(X);
    Eigen::VectorXd Times = Cost.cwiseProduct(X) * 1000;
    if ((Times.maxCoeff() - Times.minCoeff()) / Times.mean() < 1e-3)
      return Step;
    X = projectOntoSimplex(Solver.step(X, Cost));
  }
  return 1000;
}

TEST_CASE("Broyden needs fewer steps than the fixed point when costs depend on the split",
          "[parts]") {
  auto FixedPoint = makeFixedPointSolver();
  auto Broyden = makeBroydenSolver();
  int FixedSteps = stepsToBalance(*FixedPoint);
  int BroydenSteps = stepsToBalance(*Broyden);
  INFO("fixed point " << FixedSteps << ", Broyden " << BroydenSteps);
  CHECK(BroydenSteps < FixedSteps);
  CHECK(BroydenSteps <= 8);
}

TEST_CASE("Broyden's first step is the fixed point's", "[parts]") {
  auto Broyden = makeBroydenSolver();
  Eigen::VectorXd Cost = vec({1.0, 3.0, 2.0});
  CHECK(Broyden->step(vec({0.2, 0.3, 0.5}), Cost).isApprox(proportionalShares(Cost)));
}

TEST_CASE("Broyden's steps stay in a trust region", "[parts]") {
  // Two launches 1% apart whose costs moved by noise: the secant slope is nonsense; the step
  // must stay within twice the last move or the fixed-point step, whichever is larger.
  auto Broyden = makeBroydenSolver();
  Eigen::VectorXd A = vec({0.66, 0.34});
  Broyden->step(A, vec({1.0, 2.0}));
  Eigen::VectorXd B = vec({0.67, 0.33});
  Eigen::VectorXd Next = Broyden->step(B, vec({1.0, 1.9}));
  double FixedPointStep = std::fabs(proportionalShares(vec({1.0, 1.9}))[0] - B[0]);
  CHECK(std::fabs(Next[0] - B[0]) <= std::max(0.02, FixedPointStep) + 1e-12);
  CHECK(std::fabs(Next.sum() - 1.0) < 1e-12);
}

TEST_CASE("times compared by their median once there are three", "[parts]") {
  TimeSamples Times;
  Times.add(0.010);
  Times.add(0.020);
  // Two: their mean.
  CHECK(Times.typical() == Approx(0.015));
  // A device's first launch alone after a split at twice its usual time does not move it.
  Times.add(0.0095);
  Times.add(0.0098);
  CHECK(Times.typical() == Approx(0.0099));
  CHECK(Times.count() == 4);
  CHECK(Times.stats().mean() == Approx(0.012325));
  // Times known only by their mean (launches held alone) keep it, whatever is added after.
  RunningStats Held;
  for (int I = 0; I < 30; ++I)
    Held.add(0.009);
  TimeSamples FromHeld(Held);
  for (double T : {0.020, 0.021, 0.022})
    FromHeld.add(T);
  CHECK(FromHeld.count() == 33);
  CHECK(FromHeld.typical() == Approx((30 * 0.009 + 0.063) / 33));
  FromHeld.clear();
  CHECK(FromHeld.count() == 0);
}

TEST_CASE("the noise estimate is the median of the last samples, scaled", "[parts][noise]") {
  const double Scale = 0.6745 * std::sqrt(2.0);
  NoiseEstimator N;
  N.add(0.1);
  N.add(0.3);
  N.add(0.2);
  CHECK(N.value() == 0.0); // fewer than MinSamples
  N.add(0.5);
  // Four samples: the upper of the two middle ones.
  CHECK(N.value() == Approx(0.3 / Scale));
  N.add(0.4);
  CHECK(N.value() == Approx(0.3 / Scale));
  // The window keeps the last Window samples: an old outlier leaves it.
  NoiseEstimator Windowed;
  for (std::size_t I = 0; I < NoiseEstimator::Window; ++I)
    Windowed.add(1.0);
  CHECK(Windowed.value() == Approx(1.0 / Scale));
  for (std::size_t I = 0; I < NoiseEstimator::Window / 2 + 1; ++I)
    Windowed.add(0.01);
  CHECK(Windowed.value() == Approx(0.01 / Scale));
  // Read again without a new sample: the same answer.
  CHECK(Windowed.value() == Approx(0.01 / Scale));
}
