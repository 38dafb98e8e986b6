// Warm start of the split guards: what a run settled on, saved and read back, and a guard that
// starts from it.
#include "libsplit/planner/warm_start.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace libsplit::planner;

TEST_CASE("guard records read back as written", "[planner][warm]") {
  std::vector<SavedGuard> Guards = {
      {"jacobi2d_copy@5845d40bdb39b013", 0, {Mode::Whole, {}, {{4e6, 2e-5}}}},
      {"lu_update@aa", 1, {Mode::Split, {{1e3, 1e-3}, {1e6, 0.1}}, {{1e3, 2e-3}, {1e6, 0.2}}}}};
  const GuardLoad Load = parseGuards(formatGuards("NVIDIA H200;NVIDIA H200 #2;", Guards),
                                     "NVIDIA H200;NVIDIA H200 #2;", "test");
  REQUIRE(Load.Error.empty());
  REQUIRE(Load.Guards.size() == 2);
  CHECK(Load.Guards[0].Kernel == Guards[0].Kernel);
  CHECK(Load.Guards[0].Record.Run == Mode::Whole);
  CHECK(Load.Guards[0].Record.Split.empty());
  CHECK(Load.Guards[0].Record.Whole == Guards[0].Record.Whole);
  CHECK(Load.Guards[1].AppDevice == 1);
  CHECK(Load.Guards[1].Record.Split == Guards[1].Record.Split);
}

TEST_CASE("records made on other devices do not apply", "[planner][warm]") {
  const std::string Text = formatGuards("basic;pthread;", {{"k@1", 0, {Mode::Whole, {}, {}}}});
  const GuardLoad Load = parseGuards(Text, "NVIDIA H200;", "test");
  CHECK(Load.Error.empty());
  CHECK(Load.Guards.empty());
}

TEST_CASE("a malformed file is ignored whole, with the line", "[planner][warm]") {
  const std::string Good = formatGuards("d;", {{"k@1", 0, {Mode::Whole, {}, {{1e3, 1e-3}}}}});
  CHECK(parseGuards("something else\n", "d;", "f").Error.find("f:1:") == 0);
  const GuardLoad Bad = parseGuards(Good + "guard k@2 0 sideways - -\n", "d;", "f");
  CHECK(Bad.Guards.empty());
  CHECK(Bad.Error.find("f:4:") == 0);
  CHECK(parseGuards(Good + "guard k@2 0 whole 1:x -\n", "d;", "f").Error.find("f:4:") == 0);
  CHECK(parseGuards(Good + "guard k@2 0 whole -1:2 -\n", "d;", "f").Error.find("f:4:") == 0);
}

TEST_CASE("how long runs waited reads back, and only as a whole", "[planner][warm]") {
  const std::vector<SavedWait> Waits = {{0, 11.25, 4000, false, 2.5}, {1, 0.1 + 0.2, 12, true}};
  const GuardLoad Load = parseGuards(formatGuards("d;", {}, Waits), "d;", "test");
  REQUIRE(Load.Error.empty());
  REQUIRE(Load.Waits.size() == 2);
  CHECK(Load.Waits[0].AppDevice == 0);
  CHECK(Load.Waits[0].Seconds == 11.25);
  CHECK(Load.Waits[0].Launches == 4000);
  CHECK(Load.Waits[0].Queued == 2.5);
  CHECK_FALSE(Load.Waits[0].SplitNothing);
  CHECK(Load.Waits[1].Queued < 0.0); // not known
  CHECK(Load.Waits[1].Launches == 12);
  CHECK(Load.Waits[1].Seconds == 0.1 + 0.2); // exactly: written to read back
  CHECK(Load.Waits[1].SplitNothing);
  const std::string Good = formatGuards("d;", {}, Waits);
  for (const char *Bad :
       {"waited 0\n", "waited 0 -1\n", "waited 0 inf\n", "waited 0 1 x\n", "waited x 1\n",
        "waited 0 1 split-nothing 2\n", "waited 0 1 2 3\n", "waited 0 1 -2\n",
        "waited 0 1 split-nothing split-nothing\n", "waited 0 1 2 queued\n",
        "waited 0 1 2 queued -1\n", "waited 0 1 2 queued 1 queued 2\n", "waited 0 1 queued 1 2\n",
        "waited 0 1 2 split-nothing queued 1\n"}) {
    INFO(Bad);
    const GuardLoad Broken = parseGuards(Good + Bad, "d;", "f");
    CHECK(Broken.Waits.empty());
    CHECK(Broken.Error.find("f:5:") == 0);
  }
}

TEST_CASE("an older file's waited line, without launches or verdict, still reads",
          "[planner][warm]") {
  const std::string Old = formatGuards("d;", {}, {}) + "waited 0 2.5\nwaited 1 0.5 split-nothing\n";
  const GuardLoad Load = parseGuards(Old, "d;", "test");
  REQUIRE(Load.Error.empty());
  REQUIRE(Load.Waits.size() == 2);
  CHECK(Load.Waits[0].Seconds == 2.5);
  CHECK(Load.Waits[0].Launches == 0);
  CHECK_FALSE(Load.Waits[0].SplitNothing);
  CHECK(Load.Waits[1].Launches == 0);
  CHECK(Load.Waits[1].SplitNothing);
}

TEST_CASE("saved and loaded through a directory", "[planner][warm]") {
  const auto Directory = std::filesystem::temp_directory_path() / "libsplit-test-guard-warm";
  std::filesystem::remove_all(Directory);
  std::filesystem::create_directories(Directory);
  CHECK(loadGuards(Directory, "d;").Guards.empty()); // no file yet: nothing, no error
  CHECK(
      saveGuards(Directory, "d;", {{"k@1", 2, {Mode::Split, {{5.0, 1.0}}, {{5.0, 2.0}}}}}).empty());
  const GuardLoad Load = loadGuards(Directory, "d;");
  REQUIRE(Load.Guards.size() == 1);
  CHECK(Load.Guards[0].AppDevice == 2);
  std::filesystem::remove_all(Directory);
}

TEST_CASE("a settled guard's record starts the next run's guard settled", "[planner][warm]") {
  // A short kernel whose split cost synchronisation: the first run learns to run it whole.
  SplitGuard First;
  CHECK_FALSE(First.record().has_value());
  for (int I = 0; I < 20; ++I) {
    std::optional<PricedBytes> Bytes;
    if (First.needsPrice())
      Bytes = PricedBytes{0.0, 0.0, 0.5};
    const Decision D = First.decide(4e6, Bytes);
    First.observe(D.Launch, 4e6, D.Launch.Run == Mode::Split ? 4.9e-3 : 70e-6);
  }
  const std::optional<GuardRecord> Record = First.record();
  REQUIRE(Record.has_value());
  CHECK(Record->Run == Mode::Whole);

  SplitGuard Next;
  Next.seed(*Record);
  CHECK_FALSE(Next.needsPrice());
  CHECK(Next.settledWhole(4e6));
  const Decision D = Next.decide(4e6, std::nullopt);
  CHECK(D.Launch.Run == Mode::Whole);
  CHECK(D.Settled);
  CHECK(*Next.predict(Mode::Split, 4e6) == Approx(*First.predict(Mode::Split, 4e6)));
  CHECK(*Next.predict(Mode::Whole, 4e6) == Approx(*First.predict(Mode::Whole, 4e6)));
}

TEST_CASE("a guard seeded on splitting a stencil keeps its split past the first launches' costs",
          "[planner][warm]") {
  // jacobi-2d 16384 x 16384 on two H200s, the run after one that settled on splitting: the grid
  // starts on the app's device alone. The first split spreads it (0.1 s), the next pays its first
  // halo through host memory (5.2 ms), later ones take 0.55 ms against 0.97 whole. Taken for
  // the warm split, the second launch sent the kernel back to whole, gathering the grid (a
  // second run at native speed where the first had split).
  // Its first launches may run whole while the split devices' programs build (decided whole at
  // the call, as on two CPU runtimes sharing cores), or split at once.
  const int WholeFirst = GENERATE(0, 3);
  SplitGuard Next;
  Next.seed({Mode::Split, {{1e8, 0.55e-3}}, {{1e8, 0.97e-3}}});
  for (int I = 0; I < WholeFirst; ++I) {
    const Decision D = Next.decideWhole(1e8);
    Next.observe(D.Launch, 1e8, 0.97e-3);
  }
  const double Spread = 0.1;
  bool Spreaded = false;
  int SinceSpread = 0;
  unsigned Splits = 0;
  for (int I = WholeFirst; I < 3000; ++I) {
    std::optional<PricedBytes> Bytes;
    if (Next.needsPrice())
      Bytes = PricedBytes{Spreaded ? 0.0 : 536870912.0, 0.0, 0.5};
    const Decision D = Next.decide(1e8, Bytes);
    double Seconds = 0.97e-3;
    if (D.Launch.Run == Mode::Whole) {
      Seconds += Spreaded ? Spread : 0.0;
      Spreaded = false;
      SinceSpread = 0;
    } else {
      Seconds = !Spreaded ? 0.55e-3 + Spread : ++SinceSpread == 1 ? 5.2e-3 : 0.55e-3;
      Spreaded = true;
      Next.observeInferredWhole(1e8, 0.97e-3);
      ++Splits;
    }
    if (D.Launch.Measured)
      Next.observe(D.Launch, 1e8, Seconds);
  }
  CHECK(static_cast<int>(Splits) >= 2990 - WholeFirst);
}

TEST_CASE("a run after one that stayed short of the opening runs its first launches as natively",
          "[planner][warm]") {
  // jacobi2d 2048 x 200 on two H200s: 400 launches, 7 ms waited, its queued work never near the
  // 0.5 s threshold. Its kernels' first launches in chunks took the app's thread 0.3-0.5 ms
  // each (0.93x of native); without them it ran at native speed.
  SavedWait Short{0, 0.007, 400, false, -1.0};
  CHECK(stayedShortOfOpening(Short, 0.5, false));
  // Not where it waited as long as the threshold, its queued work reached it, a kernel settled
  // on splitting, or nothing is known of its launches (an older file, or no earlier run).
  SavedWait Waited = Short;
  Waited.Seconds = 0.6;
  CHECK_FALSE(stayedShortOfOpening(Waited, 0.5, false));
  SavedWait Queued = Short;
  Queued.Queued = 0.55;
  CHECK_FALSE(stayedShortOfOpening(Queued, 0.5, false));
  CHECK_FALSE(stayedShortOfOpening(Short, 0.5, true));
  CHECK_FALSE(stayedShortOfOpening(SavedWait{0, 0.007, 0, false, -1.0}, 0.5, false));
  CHECK_FALSE(stayedShortOfOpening(SavedWait{}, 0.5, false));
}
