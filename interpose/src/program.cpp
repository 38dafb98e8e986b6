#include "program.hpp"

#include "runtime.hpp"

#include <chrono>

namespace libsplit {

Program::Program(std::shared_ptr<Context> Owner, cl_program OriginalReal,
                 std::vector<std::string> Sources)
    : Owner(std::move(Owner)), OriginalReal(OriginalReal), Sources(std::move(Sources)) {
  initHandle(*this, HandleMagic::Program);
}

Program::~Program() {
  for (auto It = ReleaseCallbacks.rbegin(); It != ReleaseCallbacks.rend(); ++It)
    It->first(this, It->second);
  const RealApi &Real = runtime().real();
  for (cl_program P : Built)
    Real.clReleaseProgram(P);
  Real.clReleaseProgram(OriginalReal);
}

cl_int Program::build(const std::vector<cl_device_id> &RealDevices, const char *Options) {
  const RealApi &Real = runtime().real();
  const cl_int Result = Real.clBuildProgram(OriginalReal, static_cast<cl_uint>(RealDevices.size()),
                                            RealDevices.empty() ? nullptr : RealDevices.data(),
                                            Options, nullptr, nullptr);
  if (Result != CL_SUCCESS)
    return Result;
  buildSplitVariant(Options ? Options : "");
  return CL_SUCCESS;
}

void Program::buildSplitVariant(const std::string &Options) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Runtime &RT = runtime();
  const RealApi &Real = RT.real();
  for (cl_program P : Built)
    Real.clReleaseProgram(P);
  Built.clear();
  SplitReal.clear();
  SplitUnavailable.clear();
  auto Devices = Owner->splitDevices();
  if (Devices.size() < 2) {
    SplitUnavailable = "fewer than two devices to split across";
    return;
  }
  if (Sources.empty()) {
    SplitUnavailable = "the program was not created from source";
    return;
  }
  Compiled = compileForSplitting(Sources, Options);
  if (!Compiled.Ok) {
    SplitUnavailable = Compiled.Error;
    RT.log().warn("program's kernels run unsplit: ", Compiled.Error);
    return;
  }
  // One partition-ready program per real context, built for that context's split devices; if
  // that build fails, one program per device, so that a device the rewritten source does not
  // suit (no fp64, an extension missing) is left out rather than every device.
  std::map<cl_context, std::vector<cl_device_id>> ByContext;
  for (ExecDevice *D : Devices)
    ByContext[D->RealContext].push_back(D->Real);
  std::string FirstLog;
  cl_int FirstError = CL_SUCCESS;
  auto build = [&](cl_context RealContext, const std::vector<cl_device_id> &Ids) -> cl_program {
    const char *Text = Compiled.Source.c_str();
    cl_int Error = CL_SUCCESS;
    cl_program P = Real.clCreateProgramWithSource(RealContext, 1, &Text, nullptr, &Error);
    if (P)
      Error = Real.clBuildProgram(P, static_cast<cl_uint>(Ids.size()), Ids.data(), Options.c_str(),
                                  nullptr, nullptr);
    if (Error == CL_SUCCESS)
      return P;
    size_t Size = 0;
    if (FirstError == CL_SUCCESS) {
      FirstError = Error;
      if (P && Real.clGetProgramBuildInfo(P, Ids.front(), CL_PROGRAM_BUILD_LOG, 0, nullptr,
                                          &Size) == CL_SUCCESS) {
        FirstLog.resize(Size);
        Real.clGetProgramBuildInfo(P, Ids.front(), CL_PROGRAM_BUILD_LOG, Size, FirstLog.data(),
                                   nullptr);
      }
    }
    if (P)
      Real.clReleaseProgram(P);
    return nullptr;
  };
  for (auto &[RealContext, Ids] : ByContext) {
    const auto Start = std::chrono::steady_clock::now();
    cl_program Shared = build(RealContext, Ids);
    RT.log().debug(
        config::DebugCategory::Compile, "partition-ready program built for ", Ids.size(),
        " device(s) of one platform in ",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count(),
        " ms", Shared ? "" : " (failed)");
    if (Shared) {
      Built.push_back(Shared);
      for (cl_device_id Id : Ids)
        SplitReal[Id] = Shared;
      continue;
    }
    for (cl_device_id Id : Ids)
      if (cl_program Alone = build(RealContext, {Id})) {
        Built.push_back(Alone);
        SplitReal[Id] = Alone;
      }
  }
  if (FirstError != CL_SUCCESS)
    RT.log().warn("the partition-ready program does not build on ",
                  Devices.size() - SplitReal.size(), " of ", Devices.size(), " devices (error ",
                  FirstError, "); they are left out of its kernels\n", FirstLog);
  if (SplitReal.size() < 2) {
    SplitUnavailable = "the partition-ready program builds on fewer than two devices";
    for (cl_program P : Built)
      Real.clReleaseProgram(P);
    Built.clear();
    SplitReal.clear();
  }
}

cl_program Program::splitProgramFor(const ExecDevice &Device) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Found = SplitReal.find(Device.Real);
  return Found == SplitReal.end() ? nullptr : Found->second;
}

const CompiledKernel *Program::splitKernel(const std::string &Name, std::string &Why) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (SplitReal.empty()) {
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
