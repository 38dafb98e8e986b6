// The summary LIBSPLIT_SUMMARY prints: launches recorded with their times and launches only
// counted (run as natively, untimed) side by side, without a device.
#include "run_record.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

libsplit::LaunchRecord wholeLaunch(const std::string &Kernel, double Seconds) {
  libsplit::LaunchRecord L;
  L.Kernel = Kernel;
  L.Unsplit = "fewer than two devices";
  L.MakespanSeconds = Seconds;
  libsplit::DeviceRecord D;
  D.Name = "gpu";
  D.Share = 1.0;
  D.KernelSeconds = Seconds;
  L.Devices.push_back(D);
  return L;
}

// The summary's line for Kernel.
std::string lineOf(const std::string &Summary, const std::string &Kernel) {
  const auto At = Summary.find("  " + Kernel + " ");
  REQUIRE(At != std::string::npos);
  return Summary.substr(At, Summary.find('\n', At) - At);
}

} // namespace

TEST_CASE("untimed launches count in the summary without changing the timed means") {
  libsplit::RunRecorder Recorder("", true);
  REQUIRE(Recorder.summarizing());
  REQUIRE_FALSE(Recorder.tracing());
  Recorder.record(wholeLaunch("stencil", 0.002));
  Recorder.record(wholeLaunch("stencil", 0.004));
  for (int I = 0; I < 5; ++I)
    Recorder.countUntimed("stencil", "gpu", "the split devices are not open yet (LIBSPLIT_OPEN)");
  for (int I = 0; I < 3; ++I)
    Recorder.countUntimed("copy", "gpu", "fewer than two devices", 1048576); // each moved 1 MiB
  const std::string Summary = Recorder.summary();

  const std::string Stencil = lineOf(Summary, "stencil");
  CHECK(Stencil.find("7 launches") != std::string::npos);
  CHECK(Stencil.find("3.000 ms") != std::string::npos); // the two timed ones' mean
  CHECK(Stencil.find("last on D0: the split devices are not open yet") != std::string::npos);
  CHECK(Stencil.find("(5 as natively, not timed)") != std::string::npos);

  const std::string Copy = lineOf(Summary, "copy");
  CHECK(Copy.find("3 launches") != std::string::npos);
  CHECK(Copy.find("- ms") != std::string::npos);    // none timed: no mean
  CHECK(Copy.find("3.0 MiB") != std::string::npos); // what they moved, counted all the same
  CHECK(Copy.find("last on D0: fewer than two devices (3 as natively, not timed)") !=
        std::string::npos);
  CHECK(Summary.find("busy time (kernels and transfers of the launches timed)") !=
        std::string::npos);
  CHECK(Summary.find("D0      0.006 s  gpu") != std::string::npos);
}

TEST_CASE("launches counted while the split devices were not open say how far the run was") {
  libsplit::RunRecorder Recorder("", true);
  Recorder.countUntimedNotOpen("stencil", "gpu", 0.6, 0.0);
  Recorder.countUntimedNotOpen("stencil", "gpu", 0.6, 0.25); // the last launch's waiting
  const std::string Stencil = lineOf(Recorder.summary(), "stencil");
  CHECK(Stencil.find("2 launches") != std::string::npos);
  CHECK(Stencil.find("last on D0: the split devices are not open yet (LIBSPLIT_OPEN: they open "
                     "once the app has waited 0.600 s for its device; it had waited 0.250 s) "
                     "(2 as natively, not timed)") != std::string::npos);
  // A timed launch's own reason after them is the last one.
  Recorder.record(wholeLaunch("stencil", 0.002));
  CHECK(lineOf(Recorder.summary(), "stencil").find("last on D0: fewer than two devices") !=
        std::string::npos);
  CHECK(libsplit::RunRecorder::notOpenYet() ==
        "the split devices are not open yet (LIBSPLIT_OPEN)");
  // Where the work the app queued opens them too, it says how much it had queued.
  Recorder.countUntimedNotOpen("copy", "gpu", 0.6, 0.25, 0.4);
  CHECK(lineOf(Recorder.summary(), "copy")
            .find("they open once the app has waited 0.600 s for its device, or its launches "
                  "queued are predicted to take that long; it had waited 0.250 s, its launches "
                  "queued 0.400 s)") != std::string::npos);
}

TEST_CASE("a run with every launch timed says nothing of untimed ones") {
  libsplit::RunRecorder Recorder("", true);
  Recorder.record(wholeLaunch("stencil", 0.002));
  const std::string Summary = Recorder.summary();
  CHECK(Summary.find("not timed)\n") == std::string::npos);
  CHECK(Summary.find("busy time (kernels and transfers):") != std::string::npos);
}

TEST_CASE("nothing is counted where no summary was asked for") {
  libsplit::RunRecorder Recorder("", false);
  Recorder.countUntimed("stencil", "gpu", "fewer than two devices");
  CHECK(Recorder.summary().empty());
  CHECK_FALSE(Recorder.wanted());
}
