// The interposer's side of the planner (interpose/src/planning.*): which settings let the split
// guard decide, one guard per kernel and app device, and LIBSPLIT_SPLIT=alternate.
#include "planning.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace libsplit;

namespace {

config::Config configWith(const std::map<std::string, std::string> &Env) {
  return config::readConfig([&Env](const char *Name) -> const char * {
    auto It = Env.find(Name);
    return It == Env.end() ? nullptr : It->second.c_str();
  });
}

} // namespace

TEST_CASE("the guard decides by default, not where the user fixed the split", "[planner]") {
  CHECK(LaunchPlanner(configWith({})).guarding());
  CHECK(LaunchPlanner(configWith({{"LIBSPLIT_BALANCER", "fixedpoint"}})).guarding());
  CHECK_FALSE(LaunchPlanner(configWith({{"LIBSPLIT_SPLIT", "always"}})).guarding());
  CHECK_FALSE(LaunchPlanner(configWith({{"LIBSPLIT_BALANCER", "uniform"}})).guarding());
  CHECK_FALSE(LaunchPlanner(configWith({{"LIBSPLIT_STATIC", "0.5,0.5"}})).guarding());
  CHECK(LaunchPlanner(configWith({{"LIBSPLIT_SPLIT", "alternate"}})).guarding());
}

TEST_CASE("one guard per kernel and app device", "[planner]") {
  LaunchPlanner Planner(configWith({}));
  const auto A = Planner.guardFor("k@1", 0);
  CHECK(Planner.guardFor("k@1", 0) == A); // a kernel object made again shares it
  CHECK(Planner.guardFor("k@1", 1) != A);
  CHECK(Planner.guardFor("k@2", 0) != A);
}

TEST_CASE("alternate: split and whole launches in turn, never priced", "[planner]") {
  LaunchPlanner Planner(configWith({{"LIBSPLIT_SPLIT", "alternate"}}));
  const auto Guard = Planner.guardFor("k@1", 0);
  for (int I = 0; I < 6; ++I) {
    CHECK_FALSE(Guard->needsPrice());
    CHECK_FALSE(Guard->settledWhole(1e6));
    const planner::Decision D = Guard->decide(1e6, std::nullopt);
    CHECK(D.Launch.Run == (I % 2 ? planner::Mode::Whole : planner::Mode::Split));
    Guard->observe(D.Launch, 1e6, 1e-3);
  }
}
