// The interposer's side of the planner (interpose/src/planning.*): which settings let the split
// guard decide, one guard per kernel and app device, and LIBSPLIT_SPLIT=alternate.
#include "planning.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
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

TEST_CASE("a wait is saved with its launches, and a run opened for it that split nothing says so",
          "[planner][warm]") {
  const auto Directory = std::filesystem::temp_directory_path() / "libsplit-test-planner-wait";
  std::filesystem::remove_all(Directory);
  config::Logger Log;
  {
    LaunchPlanner First(configWith({}));
    First.startTuning(Directory.string(), "gpu;gpu;", Log);
    CHECK(First.savedWaitFrom(0).Seconds == 0.0); // nothing saved yet
    First.noteWaited(0, 0.25, 10);
    First.noteWaited(0, 0.5, 20);
    First.noteWaited(0, 0.4, 30); // another context's shorter wait: the longest is kept
    First.saveTuning(Log);
  }
  LaunchPlanner Second(configWith({}));
  Second.startTuning(Directory.string(), "gpu;gpu;", Log);
  const planner::SavedWait Saved = Second.savedWaitFrom(0);
  CHECK(Saved.Seconds == 0.5);
  CHECK(Saved.Launches == 20);
  CHECK_FALSE(Saved.SplitNothing);
  // It opened the split devices for that wait; its one kernel settled on running whole.
  Second.noteOpenedForWait(0);
  const auto Guard = Second.guardFor("k@1", 0);
  for (int I = 0; I < 8; ++I) {
    const planner::Decision D = Guard->decide(1e6, planner::PricedBytes{1e9, 0.0, 0.5});
    Guard->observe(D.Launch, 1e6, D.Launch.Run == planner::Mode::Whole ? 1e-3 : 5e-3);
  }
  REQUIRE(Guard->record());
  CHECK(Guard->record()->Run == planner::Mode::Whole);
  Second.noteWaited(0, 0.6, 20);
  Second.saveTuning(Log);
  LaunchPlanner Third(configWith({}));
  Third.startTuning(Directory.string(), "gpu;gpu;", Log);
  CHECK(Third.savedWaitFrom(0).Seconds == 0.6);
  CHECK(Third.savedWaitFrom(0).SplitNothing);
  CHECK_FALSE(Third.savedSplitFrom(0));
  // A later run that waits without opening them keeps the verdict.
  Third.noteWaited(0, 0.7, 20);
  Third.saveTuning(Log);
  LaunchPlanner Fourth(configWith({}));
  Fourth.startTuning(Directory.string(), "gpu;gpu;", Log);
  CHECK(Fourth.savedWaitFrom(0).SplitNothing);
  // Nor does work it queues fund a spread: such a run is not tried again.
  Fourth.creditQueuedWork(0, 3.0);
  CHECK(Fourth.runCredit(0) == 0.0);
  std::filesystem::remove_all(Directory);
}

TEST_CASE("the work an app queued funds one spread in the run", "[planner][warm]") {
  LaunchPlanner Planner(configWith({}));
  CHECK(Planner.runCredit(0) == 0.0);
  Planner.creditQueuedWork(0, 0.5);
  Planner.creditQueuedWork(0, 0.3); // a total seen before: the most is kept
  CHECK(Planner.runCredit(0) == 0.5);
  CHECK(Planner.runCredit(1) == 0.0); // another app device's queue is its own
  // The kernel's own launches are part of that work: counted once.
  CHECK(Planner.runCredit(0, 0.2) == Approx(0.3));
  CHECK(Planner.runCredit(0, 0.7) == 0.0);
  // A stencil's 512 MiB grid, whose spread there and back fits SpreadBudget of the app's run
  // (5 s queued, both kernels') but not of this kernel's own launches so far (64 of 1 ms): it
  // spreads at a probe check with the credit, never without, and spends the credit for the run.
  const planner::PricedBytes Grid{536870912.0, 0.0, 0.5};
  const auto spreadsWithin64 = [&Grid](GuardSlot &Guard) {
    for (int I = 0; I < 64; ++I) {
      const planner::Decision D = Guard.decide(1e8, Grid);
      if (D.Spreads)
        return true;
      Guard.observe(D.Launch, 1e8, 1e-3);
    }
    return false;
  };
  CHECK_FALSE(spreadsWithin64(*Planner.guardFor("stencil@1", 0)));
  Planner.creditQueuedWork(0, 5.0);
  CHECK(spreadsWithin64(*Planner.guardFor("stencil@2", 0)));
  CHECK(Planner.runCredit(0) == 0.0);
  Planner.creditQueuedWork(0, 6.0); // spent: more work queued does not fund another
  CHECK(Planner.runCredit(0) == 0.0);
}

TEST_CASE("the work a run queued is saved with its wait, and kept by a run that queued less",
          "[planner][warm]") {
  const auto Directory = std::filesystem::temp_directory_path() / "libsplit-test-planner-queued";
  std::filesystem::remove_all(Directory);
  config::Logger Log;
  {
    LaunchPlanner First(configWith({}));
    First.startTuning(Directory.string(), "gpu;gpu;", Log);
    CHECK(First.savedWaitFrom(0).Queued < 0.0); // nothing saved yet
    First.creditQueuedWork(0, 0.6);
    First.creditQueuedWork(0, 0.7);
    First.saveTuning(Log); // it never waited: the queued work alone is saved
  }
  {
    LaunchPlanner Second(configWith({}));
    Second.startTuning(Directory.string(), "gpu;gpu;", Log);
    CHECK(Second.savedWaitFrom(0).Queued == 0.7);
    Second.noteWaited(0, 0.3, 10); // its queued work never reached the threshold
    Second.saveTuning(Log);
  }
  LaunchPlanner Third(configWith({}));
  Third.startTuning(Directory.string(), "gpu;gpu;", Log);
  CHECK(Third.savedWaitFrom(0).Queued == 0.7);
  CHECK(Third.savedWaitFrom(0).Seconds == 0.3);
  std::filesystem::remove_all(Directory);
}
