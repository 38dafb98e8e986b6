#include "libsplit/planner/cost_model.hpp"

#include <catch2/catch.hpp>

using libsplit::planner::CostModel;

TEST_CASE("a cost model predicts nothing before its first sample", "[planner][model]") {
  CostModel M;
  CHECK_FALSE(M.predict(100.0).has_value());
  M.observe(0.0, 1.0); // no work: not a sample
  M.observe(10.0, -1.0);
  CHECK(M.samples() == 0);
}

TEST_CASE("one size measured scales in proportion to the work", "[planner][model]") {
  CostModel M;
  M.observe(1000.0, 2.0);
  M.observe(1000.0, 4.0);
  CHECK(*M.predict(1000.0) == Approx(3.0));
  CHECK(*M.predict(500.0) == Approx(1.5));
}

TEST_CASE("several sizes fit a fixed cost plus a cost per work-item", "[planner][model]") {
  CostModel M;
  for (double Work : {100.0, 400.0, 900.0, 1600.0})
    M.observe(Work, 0.5 + 0.01 * Work);
  CHECK(*M.predict(2500.0) == Approx(25.5).epsilon(1e-9));
  CHECK(*M.predict(0.0) == Approx(0.5).epsilon(1e-9));
}

TEST_CASE("a fit never predicts a negative fixed cost or a cost falling with work",
          "[planner][model]") {
  CostModel Falling;
  Falling.observe(100.0, 5.0);
  Falling.observe(200.0, 1.0);
  CHECK(*Falling.predict(1000.0) >= 0.0);
  CHECK(*Falling.predict(1000.0) >= *Falling.predict(100.0));
  CostModel Steep; // intercept below zero: a line through the origin instead
  Steep.observe(100.0, 0.1);
  Steep.observe(200.0, 1.0);
  CHECK(*Steep.predict(0.0) == Approx(0.0));
  CHECK(*Steep.predict(150.0) > 0.0);
}

TEST_CASE("a cost model follows the recent samples", "[planner][model]") {
  CostModel M;
  for (int I = 0; I < 200; ++I)
    M.observe(1000.0, I < 100 ? 1.0 : 3.0);
  CHECK(*M.predict(1000.0) == Approx(3.0));
}
