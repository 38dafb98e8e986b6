#include "program.hpp"
#include "escaped_error.hpp"
#include "thread_name.hpp"

#include <algorithm>
#include <chrono>
#include <system_error>
#include <utility>

#include <sys/syscall.h>
#include <unistd.h>

namespace libsplit {

Program::Program(std::shared_ptr<Context> Owner, cl_program OriginalReal,
                 std::vector<std::string> Sources)
    : Owner(std::move(Owner)), OriginalReal(OriginalReal), Sources(std::move(Sources)) {
  initHandle(*this, HandleMagic::Program);
}

Program::Program(std::shared_ptr<Context> Owner, cl_program OriginalReal, BinaryOrigin Origin)
    : Program(std::move(Owner), OriginalReal, std::vector<std::string>{std::move(Origin.Source)}) {
  FixedOptions = std::move(Origin.Options);
}

Program::~Program() {
  joinLaterBuild();
  for (auto It = ReleaseCallbacks.rbegin(); It != ReleaseCallbacks.rend(); ++It)
    It->first(this, It->second);
  const RealApi &Real = Owner->real();
  for (cl_program P : Built)
    Real.clReleaseProgram(P);
  Real.clReleaseProgram(OriginalReal);
}

void Program::joinLaterBuild() {
  if (LaterBuild.joinable())
    LaterBuild.join();
}

cl_int Program::build(const std::vector<cl_device_id> &RealDevices, const char *Options) {
  const RealApi &Real = Owner->real();
  const auto Start = std::chrono::steady_clock::now();
  const ScopedSpan Shown(Owner->launchServices().Spans, callingThreadTrack(),
                         "build (the app's program)");
  const cl_int Result = Real.clBuildProgram(OriginalReal, static_cast<cl_uint>(RealDevices.size()),
                                            RealDevices.empty() ? nullptr : RealDevices.data(),
                                            Options, nullptr, nullptr);
  if (Result != CL_SUCCESS)
    return Result;
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  joinLaterBuild(); // a rebuild replaces what an earlier build is still making
  const std::string Used = FixedOptions ? *FixedOptions : Options ? Options : "";
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    BuiltOptions = Used;
    cl_uint Devices = static_cast<cl_uint>(RealDevices.size());
    if (Devices == 0)
      Real.clGetProgramInfo(OriginalReal, CL_PROGRAM_NUM_DEVICES, sizeof(Devices), &Devices,
                            nullptr);
    BuildSecondsPerDevice = Seconds / std::max<cl_uint>(Devices, 1);
  }
  buildSplitVariant(Used);
  return CL_SUCCESS;
}

std::optional<BinaryOrigin> Program::origin() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Sources.empty() || !BuiltOptions)
    return std::nullopt;
  BinaryOrigin Origin;
  for (const std::string &S : Sources)
    Origin.Source += S;
  Origin.Options = *BuiltOptions;
  return Origin;
}

namespace {

// The device types that get work from a launch's first split: with an adaptive balancer and the
// first split by type, those of the app's devices; empty: every device may (the uniform and
// static balancers, a uniform first split).
std::set<cl_device_type> typesWorkingFirst(Context &Owner) {
  std::set<cl_device_type> Types;
  const config::Config &Settings = Owner.launchServices().Settings;
  if (Settings.FirstSplit != config::FirstSplitMode::ByType ||
      Settings.Balancer == config::BalancerKind::Uniform ||
      Settings.Balancer == config::BalancerKind::Static)
    return Types;
  for (Device *App : Owner.appDevices())
    if (ExecDevice *E = Owner.execFor(App))
      Types.insert(E->Type & ~CL_DEVICE_TYPE_DEFAULT);
  return Types;
}

// The open devices among Devices, by real context.
std::map<cl_context, std::vector<cl_device_id>>
byRealContext(const std::vector<ExecDevice *> &Devices) {
  std::map<cl_context, std::vector<cl_device_id>> Grouped;
  for (const ExecDevice *D : Devices)
    if (D->Ready.load(std::memory_order_acquire))
      Grouped[D->RealContext].push_back(D->Real);
  return Grouped;
}

void warnBuildFailure(config::Logger &To, std::size_t Failed, std::size_t Devices, cl_int Error,
                      const std::string &Log) {
  To.warn("the partition-ready program does not build on ", Failed, " of ", Devices,
          " devices (error ", Error, "); they are left out of its kernels\n", Log);
}

} // namespace

void Program::buildOn(cl_context RealContext, const std::vector<cl_device_id> &Ids,
                      const std::string &Options, cl_int &FirstError, std::string &FirstLog) {
  const RealApi &Real = Owner->real();
  auto build = [&](const std::vector<cl_device_id> &For) -> cl_program {
    const char *Text = Compiled.Source.c_str();
    cl_int Error = CL_SUCCESS;
    cl_program P = Real.clCreateProgramWithSource(RealContext, 1, &Text, nullptr, &Error);
    // With argument information: the merge of a split's writes reads the element types there.
    const std::string WithArgInfo = Options + " -cl-kernel-arg-info";
    if (P) {
      const ScopedSpan Shown(Owner->launchServices().Spans, callingThreadTrack(),
                             "build (partition-ready program)");
      Error = Real.clBuildProgram(P, static_cast<cl_uint>(For.size()), For.data(),
                                  WithArgInfo.c_str(), nullptr, nullptr);
    }
    if (Error == CL_SUCCESS)
      return P;
    size_t Size = 0;
    if (FirstError == CL_SUCCESS) {
      FirstError = Error;
      if (P && Real.clGetProgramBuildInfo(P, For.front(), CL_PROGRAM_BUILD_LOG, 0, nullptr,
                                          &Size) == CL_SUCCESS) {
        FirstLog.resize(Size);
        Real.clGetProgramBuildInfo(P, For.front(), CL_PROGRAM_BUILD_LOG, Size, FirstLog.data(),
                                   nullptr);
      }
    }
    if (P)
      Real.clReleaseProgram(P);
    return nullptr;
  };
  const auto Start = std::chrono::steady_clock::now();
  cl_program Shared = build(Ids);
  Owner->launchServices().Log.debug(
      config::DebugCategory::Compile, "partition-ready program built for ", Ids.size(),
      " device(s) of one platform in ",
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count(),
      " ms", Shared ? "" : " (failed)");
  std::vector<std::pair<cl_device_id, cl_program>> Made;
  if (Shared)
    for (cl_device_id Id : Ids)
      Made.emplace_back(Id, Shared);
  else
    for (cl_device_id Id : Ids)
      if (cl_program Alone = build({Id}))
        Made.emplace_back(Id, Alone);
  std::lock_guard<std::mutex> Lock(Mutex);
  for (auto &[Id, P] : Made) {
    if (std::find(Built.begin(), Built.end(), P) == Built.end())
      Built.push_back(P);
    SplitReal[Id] = P;
  }
}

void Program::buildSplitVariant(const std::string &Options) {
  const RealApi &Real = Owner->real();
  LaunchServices &Services = Owner->launchServices();
  // Whatever it ends with, the kernels' cached facts are to be asked again.
  struct NewFacts {
    std::atomic<std::uint64_t> &Generation;
    ~NewFacts() { ++Generation; }
  } Bump{FactsGeneration};
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (cl_program P : Built)
      Real.clReleaseProgram(P);
    Built.clear();
    SplitReal.clear();
    SplitUnavailable.clear();
    Pending.clear();
    Deferred.clear();
    DeferredSeconds = 0.0;
  }
  auto unavailable = [this](std::string Why) {
    std::lock_guard<std::mutex> Lock(Mutex);
    SplitUnavailable = std::move(Why);
  };
  // The devices planned, open or not: the kernels' facts are wanted before they open.
  const std::vector<ExecDevice *> &Devices = Owner->plannedSplitDevices();
  if (Devices.size() < 2)
    return unavailable("fewer than two devices to split across");
  if (Sources.empty())
    return unavailable("the program was not created from source (a binary libsplit did not "
                       "record, IL, or clCompileProgram/clLinkProgram)");
  CompiledProgram Result = [&] {
    const ScopedSpan Shown(Services.Spans, callingThreadTrack(), "libsplit-cc");
    return compileForSplitting(Sources, Options, Services.Settings, Services.Log);
  }();
  if (!Result.Ok) {
    Services.Log.warn("program's kernels run unsplit: ", Result.Error);
    return unavailable(Result.Error);
  }
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Compiled = std::move(Result);
  }
  // One partition-ready program per real context, built for that context's split devices. A
  // context whose devices get no work from the first split (a CPU beside a GPU app, or every
  // device where first launches run whole) is built in the background: it is first needed at a
  // probe, launches later, and a CPU build (PoCL's, above all with its cache cold) costs the app
  // far more than its own build, which it would otherwise wait for in clBuildProgram. Its devices
  // are left out of launches until it is ready. Devices that share cores (PoCL's two CPU runtimes)
  // under the planner's guard: every kernel's first launch runs whole on the app's device, so no
  // build is needed before the first probe (the app's clBuildProgram would wait for builds that no
  // launch may use). Devices not open yet: the first launch that may split, once they are, starts
  // their build.
  Owner->awaitOpening();
  const bool WholeFirst =
      !Owner->splitDevicesOpen() || (Services.Planner.decidesFromCosts() && shareCores(Devices));
  const std::set<cl_device_type> WorkFirst = typesWorkingFirst(*Owner);
  std::map<cl_context, bool> Needed;
  if (!WholeFirst)
    for (ExecDevice *D : Devices)
      Needed[D->RealContext] = Needed[D->RealContext] || WorkFirst.empty() ||
                               WorkFirst.count(D->Type & ~CL_DEVICE_TYPE_DEFAULT) != 0;
  // Devices not open yet, where they may open while a launch runs: the app's device builds now,
  // so that a kernel's first launch can run in chunks there and the others join once open
  // (chunked_launch.hpp).
  const ExecDevice *ChunksFirst =
      !Owner->splitDevicesOpen() && Owner->chunksWhileOpening() ? &Owner->primary() : nullptr;
  std::vector<ExecDevice *> Now, Later;
  for (ExecDevice *D : Devices)
    ((!WholeFirst && Needed[D->RealContext]) || D == ChunksFirst ? Now : Later).push_back(D);
  cl_int FirstError = CL_SUCCESS;
  std::string FirstLog;
  for (auto &[RealContext, Ids] : byRealContext(Now))
    buildOn(RealContext, Ids, Options, FirstError, FirstLog);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (FirstError != CL_SUCCESS)
    warnBuildFailure(Services.Log, Now.size() - SplitReal.size(), Now.size(), FirstError, FirstLog);
  if (SplitReal.size() + Later.size() < 2) {
    SplitUnavailable = "the partition-ready program builds on fewer than two devices";
    for (cl_program P : Built)
      Real.clReleaseProgram(P);
    Built.clear();
    SplitReal.clear();
    return;
  }
  if (Later.empty())
    return;
  for (const ExecDevice *D : Later)
    Pending.insert(D->Real);
  if (WholeFirst) {
    DeferredSeconds = BuildSecondsPerDevice * static_cast<double>(Later.size());
    Deferred = std::move(Later);
    DeferredOptions = Options;
    return;
  }
  startLaterBuild(std::move(Later), Options);
}

void Program::startLaterBuild(std::vector<ExecDevice *> Later, const std::string &Options) {
  Owner->contextServices().Background.started();
  auto Build = [this, Later = std::move(Later), Options] {
    try {
      buildLater(Later, Options);
    } catch (...) {
      // Host memory exhausted: the partition-ready program is not built anywhere else, and its
      // kernels run whole where they are.
      escapedError(&Owner->launchServices().Log, "building the partition-ready program");
      std::lock_guard<std::mutex> Lock(Mutex);
      Pending.clear();
      SplitReal.clear();
      try {
        SplitUnavailable = "the partition-ready program's build ran out of host memory";
      } catch (...) {
        SplitUnavailable.clear();
      }
      ++FactsGeneration;
    }
    Owner->contextServices().Background.done();
  };
  // No thread to be had (threads or address space exhausted): built here, which also ends the
  // background work it counted, so that nothing waits for it at exit.
  try {
    LaterBuild = std::thread(Build);
  } catch (const std::system_error &) {
    Build();
  }
}

void Program::buildLater(const std::vector<ExecDevice *> &Later, const std::string &Options) {
  {
    nameThisThread("libsplit-build");
    nameCallingThreadTrack("libsplit build " + std::to_string(::syscall(SYS_gettid)));
    cl_int Error = CL_SUCCESS;
    std::string Log;
    // Started by a launch that may split: the devices are open by then (one that failed to
    // open stays out). The contexts of devices of the app's device's type first (a second GPU
    // joins a launch before a CPU beside it would: chunked_launch.hpp), each published as it
    // ends.
    const auto Grouped = byRealContext(Later);
    std::vector<std::pair<cl_context, std::vector<cl_device_id>>> Ordered(Grouped.begin(),
                                                                          Grouped.end());
    const cl_device_type Mask = ~static_cast<cl_device_type>(CL_DEVICE_TYPE_DEFAULT);
    const cl_device_type AppType = Owner->primary().Type & Mask;
    std::stable_partition(Ordered.begin(), Ordered.end(), [&](const auto &Group) {
      return std::any_of(Later.begin(), Later.end(), [&](const ExecDevice *D) {
        return D->RealContext == Group.first && (D->Type & Mask) == AppType;
      });
    });
    for (const auto &[RealContext, Ids] : Ordered) {
      buildOn(RealContext, Ids, Options, Error, Log);
      std::lock_guard<std::mutex> Lock(Mutex);
      for (cl_device_id Id : Ids)
        Pending.erase(Id);
      ++FactsGeneration;
    }
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      std::size_t Made = 0;
      for (const ExecDevice *D : Later)
        Made += SplitReal.count(D->Real);
      if (Error != CL_SUCCESS)
        warnBuildFailure(Owner->launchServices().Log, Later.size() - Made, Later.size(), Error,
                         Log);
      Pending.clear();
      // Kernels may hold programs of Built already: they are released with the program.
      if (SplitReal.size() < 2) {
        SplitUnavailable = "the partition-ready program builds on fewer than two devices";
        SplitReal.clear();
      }
      ++FactsGeneration;
    }
  }
}

bool Program::splitBuildPending(const ExecDevice &Device) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Pending.count(Device.Real))
    return false;
  if (!Deferred.empty()) {
    DeferredSeconds = 0.0;
    startLaterBuild(std::exchange(Deferred, {}), DeferredOptions);
  }
  return true;
}

double Program::deferredBuildSeconds() const {
  return DeferredSeconds.load(std::memory_order_relaxed);
}

cl_program Program::splitProgramFor(const ExecDevice &Device) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Found = SplitReal.find(Device.Real);
  return Found == SplitReal.end() ? nullptr : Found->second;
}

const CompiledKernel *Program::splitKernel(const std::string &Name, std::string &Why) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  // Built, or being built (or to be, on first need) in the background.
  if (SplitReal.empty() && Pending.empty()) {
    Why =
        SplitUnavailable.empty() ? "the program has no partition-ready variant" : SplitUnavailable;
    return nullptr;
  }
  const CompiledKernel *K = Compiled.find(Name);
  if (!K) {
    Why = "the kernel compiler did not list it";
    return nullptr;
  }
  if (!K->Splittable) {
    Why = K->Why;
    return nullptr;
  }
  return K;
}

const CompiledKernel *Program::compiledKernel(const std::string &Name) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Compiled.find(Name);
}

std::string Program::sourceKey() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Compiled.Key;
}

void Program::addReleaseCallback(void(CL_CALLBACK *Fn)(cl_program, void *), void *UserData) {
  std::lock_guard<std::mutex> Lock(Mutex);
  ReleaseCallbacks.emplace_back(Fn, UserData);
}

Program *asProgram(cl_program Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Program))
    return nullptr;
  return static_cast<Program *>(Handle);
}

} // namespace libsplit
