#include "runtime.hpp"

#include <cstdio>
#include <cstdlib>

extern char **environ;

namespace libsplit {

namespace {

config::DeviceType deviceTypeOf(cl_device_type Type) {
  if (Type & CL_DEVICE_TYPE_GPU)
    return config::DeviceType::Gpu;
  if (Type & CL_DEVICE_TYPE_CPU)
    return config::DeviceType::Cpu;
  return config::DeviceType::Other;
}

} // namespace

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
  discover();
  selectSplitDevices();
  std::atexit([] { runtime().finish(); });
}

void Runtime::finish() {
  {
    // On a track of its own: at exit, the thread's own name (thread-local) may be gone already.
    const std::string Track = "libsplit exit";
    const ScopedSpan Shown(*Spans, Track, "background work");
    Background.awaitIdle();
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

void Runtime::discover() {
  cl_uint Count = 0;
  if (Real.clGetPlatformIDs(0, nullptr, &Count) != CL_SUCCESS || Count == 0)
    return;
  std::vector<cl_platform_id> Ids(Count);
  Real.clGetPlatformIDs(Count, Ids.data(), nullptr);
  for (cl_platform_id Id : Ids) {
    auto P = std::make_unique<Platform>(Id);
    cl_uint NumDevices = 0;
    if (Real.clGetDeviceIDs(Id, CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices) == CL_SUCCESS &&
        NumDevices) {
      std::vector<cl_device_id> Devices(NumDevices);
      Real.clGetDeviceIDs(Id, CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(), nullptr);
      for (cl_device_id D : Devices) {
        auto Ours = Device::create(Real, *P, D, nullptr);
        P->Devices.push_back(Ours.get());
        RootDevices.push_back(std::move(Ours));
      }
    }
    Platforms.push_back(std::move(P));
  }
}

void Runtime::selectSplitDevices() {
  for (unsigned PI = 0; PI < Platforms.size(); ++PI)
    for (unsigned DI = 0; DI < Platforms[PI]->Devices.size(); ++DI) {
      Device &D = *Platforms[PI]->Devices[DI];
      if (!Settings.Devices.matches(PI, DI, deviceTypeOf(D.Type), D.Name))
        continue;
      const unsigned Parts = Settings.Subdevices;
      if (Parts > 1 && (D.Type & CL_DEVICE_TYPE_CPU)) {
        if (D.ComputeUnits >= Parts) {
          const cl_device_partition_property Props[] = {
              CL_DEVICE_PARTITION_EQUALLY,
              static_cast<cl_device_partition_property>(D.ComputeUnits / Parts), 0};
          std::vector<cl_device_id> Subs(Parts);
          cl_uint Made = 0;
          if (Real.clCreateSubDevices(D.real(), Props, Parts, Subs.data(), &Made) == CL_SUCCESS &&
              Made >= 2) {
            Subs.resize(Made);
            SplitDevices.insert(SplitDevices.end(), Subs.begin(), Subs.end());
            Logger.info("device ", PI, ":", DI, " (", D.Name, ") partitioned into ", Made,
                        " sub-devices");
            continue;
          }
        }
        Logger.warn("LIBSPLIT_SUBDEVICES=", Parts, ": device ", PI, ":", DI, " (", D.Name, ", ",
                    D.ComputeUnits, " compute units) cannot be partitioned; used whole");
      }
      SplitDevices.push_back(D.real());
    }
  if (SplitDevices.empty())
    Logger.warn("LIBSPLIT_DEVICES selects no device; kernels run unsplit on the app's device");
}

Platform *Runtime::findPlatform(cl_platform_id RealId) const {
  for (const auto &P : Platforms)
    if (P->real() == RealId)
      return P.get();
  return nullptr;
}

Device *Runtime::findRootDevice(cl_device_id RealId) const {
  return libsplit::findRootDevice(Platforms, RealId);
}

Runtime &runtime() {
  // Created at the first OpenCL call and deliberately never destroyed: at exit, vendor
  // libraries tear themselves down in an order libsplit does not control, and releasing real
  // objects after that crashes.
  static Runtime *const Instance = std::make_unique<Runtime>().release();
  return *Instance;
}

} // namespace libsplit
