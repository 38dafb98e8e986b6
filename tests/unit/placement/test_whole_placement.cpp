#include "whole_placement.hpp"

#include <catch2/catch.hpp>

#include <limits>

using libsplit::WholePlacement;

namespace {

constexpr std::size_t Home = 0, Other = 1, Third = 2;

// One launch: the choice, then its kernel time from Seconds[device] (the caller's order).
std::size_t launch(WholePlacement &P, const std::vector<std::size_t> &Candidates,
                   const std::vector<double> &Seconds, bool *SettledOut = nullptr) {
  bool Settled = false;
  const std::size_t Chosen = P.choose("k", Home, Candidates, false, Settled);
  if (SettledOut)
    *SettledOut = Settled;
  P.observe("k", Chosen, Seconds[Chosen]);
  return Chosen;
}

} // namespace

TEST_CASE("no candidate: the app's device, settled at once") {
  WholePlacement P;
  bool Settled = false;
  CHECK(P.choose("k", Home, {}, false, Settled) == Home);
  CHECK(Settled);
}

TEST_CASE("warm launches at home, probes, then the faster device keeps the kernel") {
  WholePlacement P;
  const std::vector<double> Seconds = {2.0, 1.0};
  bool Settled = true;
  CHECK(launch(P, {Other}, Seconds, &Settled) == Home);
  CHECK_FALSE(Settled);
  CHECK(launch(P, {Other}, Seconds) == Home);
  CHECK(launch(P, {Other}, Seconds) == Other);
  CHECK(launch(P, {Other}, Seconds) == Other);
  for (int I = 0; I < 5; ++I) {
    CHECK(launch(P, {Other}, Seconds, &Settled) == Other);
    CHECK(Settled);
  }
}

TEST_CASE("a candidate not faster by the switch gain leaves the kernel at home") {
  WholePlacement P;
  const std::vector<double> Seconds = {1.0, 0.95};
  for (int I = 0; I < 4; ++I)
    launch(P, {Other}, Seconds);
  for (int I = 0; I < 5; ++I)
    CHECK(launch(P, {Other}, Seconds) == Home);
}

TEST_CASE("a device's first launch does not count once it has later ones") {
  WholePlacement P;
  // The candidate's first launch compiles (3x), its second is twice as fast as home.
  CHECK(launch(P, {Other}, {2.0, 6.0}) == Home);
  CHECK(launch(P, {Other}, {2.0, 6.0}) == Home);
  CHECK(launch(P, {Other}, {2.0, 6.0}) == Other);
  CHECK(launch(P, {Other}, {2.0, 1.0}) == Other);
  CHECK(launch(P, {Other}, {2.0, 1.0}) == Other);
}

TEST_CASE("while a probe's time is outstanding, launches stay home and are not settled") {
  WholePlacement P;
  bool Settled = true;
  launch(P, {Other}, {1.0, 0.5});
  launch(P, {Other}, {1.0, 0.5});
  CHECK(P.choose("k", Home, {Other}, false, Settled) == Other); // the probe, not observed yet
  CHECK(P.choose("k", Home, {Other}, false, Settled) == Home);
  CHECK_FALSE(Settled);
  P.observe("k", Other, 0.5);
  CHECK(P.choose("k", Home, {Other}, false, Settled) == Other); // its second probe
}

TEST_CASE("a device that failed (infinite time) is never chosen; the fastest of several wins") {
  WholePlacement P;
  const double Failed = std::numeric_limits<double>::infinity();
  const std::vector<double> Seconds = {1.0, Failed, 0.4};
  for (int I = 0; I < 6; ++I)
    launch(P, {Other, Third}, Seconds);
  for (int I = 0; I < 3; ++I)
    CHECK(launch(P, {Other, Third}, Seconds) == Third);
}

TEST_CASE("one failure is enough to leave a device out") {
  WholePlacement P;
  const std::vector<double> Seconds = {1.0, std::numeric_limits<double>::infinity(), 0.4};
  launch(P, {Other, Third}, Seconds);
  launch(P, {Other, Third}, Seconds);
  CHECK(launch(P, {Other, Third}, Seconds) == Other);
  CHECK(launch(P, {Other, Third}, Seconds) == Third); // not Other again
}

TEST_CASE("keys are separate") {
  WholePlacement P;
  for (int I = 0; I < 6; ++I)
    launch(P, {Other}, {1.0, 0.1});
  bool Settled = true;
  CHECK(P.choose("another NDRange", Home, {Other}, false, Settled) == Home);
  CHECK_FALSE(Settled);
}

TEST_CASE("settled: the choice is kept; a device still to come keeps it open") {
  WholePlacement P;
  bool Settled = true;
  CHECK(P.choose("k", Home, {}, true, Settled) == Home);
  CHECK_FALSE(Settled);
  CHECK_FALSE(P.settled("k"));
  for (int I = 0; I < 4; ++I)
    launch(P, {Other}, {1.0, 0.5});
  CHECK(launch(P, {Other}, {1.0, 0.5}, &Settled) == Other);
  CHECK(Settled);
  CHECK(P.settled("k") == Other);
  P.observe("k", Other, std::numeric_limits<double>::infinity()); // it failed after all
  CHECK_FALSE(P.settled("k"));
  CHECK(launch(P, {Other}, {1.0, 0.5}) == Home);
}
