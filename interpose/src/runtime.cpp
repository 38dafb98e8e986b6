#include "runtime.hpp"

#include <cstdio>
#include <cstdlib>

extern char **environ;

namespace libsplit {

Runtime::Runtime()
    : Settings(config::readConfig([](const char *Name) { return std::getenv(Name); })),
      Logger(Settings.Log, Settings.Debug, Settings.LogFile),
      Balance(std::make_unique<LaunchBalancer>(Settings, Logger)),
      Planner(std::make_unique<LaunchPlanner>(Settings)),
      Recorder(std::make_unique<RunRecorder>(Settings.Trace, Settings.Summary)),
      Spans(std::make_unique<Timeline>(Settings.Timeline)) {
  for (const std::string &Error : Settings.Errors)
    Logger.error(Error);
  for (const std::string &Warning : Settings.Warnings)
    Logger.warn(Warning);
  for (const std::string &Warning : config::unknownControlWarnings(environ))
    Logger.warn(Warning);
  if (Settings.Help) {
    const std::string Table = config::controlsTable();
    std::fwrite(Table.data(), 1, Table.size(), stderr);
  }
  Logger.info(config::settingsLine(Settings));

  std::string Error;
  if (!Real.load("libOpenCL.so.1", Error)) {
    Logger.error(Error, "; every OpenCL call will fail with CL_PLATFORM_NOT_FOUND_KHR");
    return;
  }
  Usable = true;
  Splitting = !Settings.ForcePassThrough;
  if (!Splitting) {
    // Asked for (LIBSPLIT_DISABLE) it is news only at info level; after a malformed control the
    // user must learn that nothing is split.
    if (Settings.Errors.empty())
      Logger.info("pass-through: ", Settings.PassThroughReason);
    else
      Logger.warn("running pass-through (nothing is split): ", Settings.PassThroughReason);
    return;
  }
  // The platforms' devices are found once the app asks about one of them; the others' then in
  // the background (PoCL's CPU device starts while the app makes its NVIDIA context), or not at
  // all where the app's platform suffices (DeviceDiscovery).
  Devices.start(true);
  std::atexit([] { runtime().finish(); });
}

void Runtime::finish() {
  // Registered again after each platform's devices were found and as each background work starts:
  // the first to run does the work.
  if (Finished.exchange(true))
    return;
  {
    // On a track of its own: at exit, the thread's own name (thread-local) may be gone already.
    const std::string Track = "libsplit exit";
    const ScopedSpan Shown(*Spans, Track, "background work");
    Background.awaitIdle();
    Devices.awaitAll();
  }
  Balance->saveTuning();
  Planner->saveTuning(Logger);
  Recorder->flush();
  Spans->finish();
  std::string Summary = Recorder->summary();
  if (Summary.empty())
    return;
  const DeferredWrites::Totals Deferral = Deferred.totals();
  if (Deferral.Writes)
    Summary += config::detail::formatMessage(
        "deferred writes: pages preserved: ", Deferral.PagesOnFault, " on a write fault, ",
        Deferral.PagesBeforeWrite, " before a system call or device wrote there, ",
        Deferral.PagesHandedBack, " before memory was freed or unmapped; ", Deferral.BulkSettles,
        " writes preserved whole after many faults\n");
  std::string Prefixed;
  std::size_t Start = 0;
  while (Start < Summary.size()) {
    const std::size_t End = Summary.find('\n', Start);
    Prefixed += "libsplit: " + Summary.substr(Start, End - Start) + "\n";
    Start = End == std::string::npos ? Summary.size() : End + 1;
  }
  std::fwrite(Prefixed.data(), 1, Prefixed.size(), stderr);
}

Runtime &runtime() {
  // Created at the first OpenCL call and deliberately never destroyed: at exit, vendor
  // libraries tear themselves down in an order libsplit does not control, and releasing real
  // objects after that crashes.
  static Runtime *const Instance = std::make_unique<Runtime>().release();
  return *Instance;
}

} // namespace libsplit
