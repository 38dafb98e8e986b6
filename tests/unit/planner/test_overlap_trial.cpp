// OverlapTrial: blocks of launches without and with early interiors, the way whose steps came
// at the shorter median interval kept, tried again later.
#include "libsplit/planner/overlap_trial.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using libsplit::planner::OverlapTrial;

namespace {

// Runs Launches launches whose steps take StepWithout or StepWith seconds by the way each went;
// returns the ways.
std::vector<bool> run(OverlapTrial &Trial, std::size_t Launches, double StepWithout,
                      double StepWith) {
  std::vector<bool> Ways;
  std::optional<double> Interval;
  for (std::size_t I = 0; I < Launches; ++I) {
    const bool Way = Trial.next(Interval);
    Ways.push_back(Way);
    Interval = Way ? StepWith : StepWithout;
  }
  return Ways;
}

} // namespace

TEST_CASE("the trial runs blocks each way, then keeps the one with shorter steps") {
  OverlapTrial Trial;
  const std::vector<bool> Ways = run(Trial, OverlapTrial::TrialLaunches, 1.0, 0.8);
  for (std::size_t I = 0; I < Ways.size(); ++I)
    CHECK(Ways[I] == ((I / OverlapTrial::Block) % 2 == 1));
  CHECK_FALSE(Trial.chosen());
  const std::vector<bool> After = run(Trial, 10, 1.0, 0.8);
  REQUIRE(Trial.chosen());
  CHECK(*Trial.chosen());
  CHECK(std::count(After.begin(), After.end(), true) == 10);
}

TEST_CASE("the overlap is left off where it is slower, or no clearer than the margin") {
  for (const double With : {1.2, 0.99}) {
    OverlapTrial Trial;
    run(Trial, OverlapTrial::TrialLaunches, 1.0, With);
    const std::vector<bool> After = run(Trial, 50, 1.0, With);
    REQUIRE(Trial.chosen());
    CHECK_FALSE(*Trial.chosen());
    CHECK(std::count(After.begin(), After.end(), true) == 0);
  }
}

TEST_CASE("a few long steps (the app reading its results) do not decide it") {
  OverlapTrial Trial;
  std::optional<double> Interval;
  for (std::size_t I = 0; I <= OverlapTrial::TrialLaunches; ++I) {
    const bool Way = Trial.next(Interval);
    Interval = (Way ? 0.8 : 1.0) * (I % 7 == 3 && Way ? 50.0 : 1.0);
  }
  REQUIRE(Trial.chosen());
  CHECK(*Trial.chosen());
}

TEST_CASE("the trial starts again after RetryAfter launches and may change its mind") {
  OverlapTrial Trial;
  run(Trial, OverlapTrial::TrialLaunches + 1, 1.0, 0.8);
  REQUIRE(Trial.chosen());
  CHECK(*Trial.chosen());
  // The rest of the choice's launches, then a new trial in which the overlap lost.
  run(Trial, OverlapTrial::RetryAfter - 1, 1.0, 0.8);
  const std::vector<bool> Again = run(Trial, OverlapTrial::TrialLaunches, 1.0, 1.5);
  CHECK(std::count(Again.begin(), Again.end(), true) ==
        static_cast<long>(OverlapTrial::TrialLaunches / 2));
  run(Trial, 1, 1.0, 1.5);
  REQUIRE(Trial.chosen());
  CHECK_FALSE(*Trial.chosen());
}
