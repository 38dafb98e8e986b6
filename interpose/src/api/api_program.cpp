// Entry points: programs.
#include "api_common.hpp"

#include <cstring>

using namespace libsplit;

namespace {

// The app's device list (or all of the context's when it gave none) as real ids; false when a
// handle is not one of the context's devices.
bool realDevices(Context &C, cl_uint Count, const cl_device_id *List,
                 std::vector<cl_device_id> &Out) {
  if (!List) {
    for (Device *D : C.appDevices())
      Out.push_back(D->real());
    return true;
  }
  for (cl_uint I = 0; I < Count; ++I) {
    Device *D = asDevice(List[I]);
    if (!D || !C.execFor(D))
      return false;
    Out.push_back(D->real());
  }
  return true;
}

cl_program wrapProgram(Context &C, cl_program Real, std::vector<std::string> Sources,
                       cl_int *ErrorRet) {
  auto P = Program::create(C.shared_from_this(), Real, std::move(Sources));
  setError(ErrorRet, CL_SUCCESS);
  return P.get();
}

} // namespace

LIBSPLIT_API cl_program CL_API_CALL clCreateProgramWithSource(cl_context ContextHandle,
                                                              cl_uint Count, const char **Strings,
                                                              const size_t *Lengths,
                                                              cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateProgramWithSource, ContextHandle, Count, Strings,
                                   Lengths, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  cl_int Error = CL_SUCCESS;
  cl_program Real = RT.real().clCreateProgramWithSource(C->primary().RealContext, Count, Strings,
                                                        Lengths, &Error);
  LIBSPLIT_CHECK_RET(!Real, Error, ErrorRet);
  std::vector<std::string> Sources;
  for (cl_uint I = 0; I < Count; ++I)
    Sources.emplace_back(Strings[I], Lengths && Lengths[I] ? Lengths[I] : std::strlen(Strings[I]));
  return wrapProgram(*C, Real, std::move(Sources), ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_program>("clCreateProgramWithSource", ErrorRet);
}

LIBSPLIT_API cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context ContextHandle, cl_uint NumDevices, const cl_device_id *DeviceList,
    const size_t *Lengths, const unsigned char **Binaries, cl_int *BinaryStatus,
    cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateProgramWithBinary, ContextHandle, NumDevices, DeviceList,
                                   Lengths, Binaries, BinaryStatus, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  LIBSPLIT_CHECK_RET(!DeviceList || NumDevices == 0, CL_INVALID_VALUE, ErrorRet);
  std::vector<cl_device_id> Real;
  LIBSPLIT_CHECK_RET(!realDevices(*C, NumDevices, DeviceList, Real), CL_INVALID_DEVICE, ErrorRet);
  cl_int Error = CL_SUCCESS;
  cl_program P = RT.real().clCreateProgramWithBinary(
      C->primary().RealContext, NumDevices, Real.data(), Lengths, Binaries, BinaryStatus, &Error);
  LIBSPLIT_CHECK_RET(!P, Error, ErrorRet);
  // Binaries are device-specific; the app's devices run this one, and the partition-ready
  // variant comes from the source libsplit recorded for it, if the same source made every
  // binary given. Otherwise the program runs unsplit on the app's device.
  std::optional<BinaryOrigin> Origin;
  for (cl_uint I = 0; I < NumDevices; ++I) {
    std::optional<BinaryOrigin> Found =
        Lengths && Binaries ? findBinaryOrigin(Binaries[I], Lengths[I], RT.config().CacheDir)
                            : std::nullopt;
    if (!Found ||
        (Origin && (Found->Source != Origin->Source || Found->Options != Origin->Options))) {
      Origin.reset();
      break;
    }
    Origin = std::move(Found);
  }
  if (!Origin)
    return wrapProgram(*C, P, {}, ErrorRet);
  RT.log().debug(config::DebugCategory::Compile,
                 "program from a binary that libsplit recorded: its kernels may split");
  auto Made = Program::create(C->shared_from_this(), P, std::move(*Origin));
  setError(ErrorRet, CL_SUCCESS);
  return Made.get();
} catch (...) {
  return libsplit::escapedFrom<cl_program>("clCreateProgramWithBinary", ErrorRet);
}

LIBSPLIT_API cl_program CL_API_CALL clCreateProgramWithIL(cl_context ContextHandle, const void *IL,
                                                          size_t Length, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateProgramWithIL, ContextHandle, IL, Length, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  LIBSPLIT_CHECK_RET(!RT.real().clCreateProgramWithIL, CL_INVALID_OPERATION, ErrorRet);
  cl_int Error = CL_SUCCESS;
  cl_program P = RT.real().clCreateProgramWithIL(C->primary().RealContext, IL, Length, &Error);
  LIBSPLIT_CHECK_RET(!P, Error, ErrorRet);
  return wrapProgram(*C, P, {}, ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_program>("clCreateProgramWithIL", ErrorRet);
}

LIBSPLIT_API cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context ContextHandle, cl_uint NumDevices, const cl_device_id *DeviceList,
    const char *KernelNames, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateProgramWithBuiltInKernels, ContextHandle, NumDevices,
                                   DeviceList, KernelNames, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  std::vector<cl_device_id> Real;
  LIBSPLIT_CHECK_RET(!DeviceList || !realDevices(*C, NumDevices, DeviceList, Real),
                     CL_INVALID_VALUE, ErrorRet);
  cl_int Error = CL_SUCCESS;
  cl_program P = RT.real().clCreateProgramWithBuiltInKernels(C->primary().RealContext, NumDevices,
                                                             Real.data(), KernelNames, &Error);
  LIBSPLIT_CHECK_RET(!P, Error, ErrorRet);
  return wrapProgram(*C, P, {}, ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_program>("clCreateProgramWithBuiltInKernels", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clRetainProgram(cl_program ProgramHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainProgram, ProgramHandle);
  return retainObject(asProgram(ProgramHandle), CL_INVALID_PROGRAM);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainProgram", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseProgram(cl_program ProgramHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseProgram, ProgramHandle);
  return releaseObject(asProgram(ProgramHandle), CL_INVALID_PROGRAM);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseProgram", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clBuildProgram(cl_program ProgramHandle, cl_uint NumDevices,
                                               const cl_device_id *DeviceList, const char *Options,
                                               void(CL_CALLBACK *Notify)(cl_program, void *),
                                               void *UserData) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clBuildProgram, ProgramHandle, NumDevices, DeviceList, Options,
                                   Notify, UserData);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  LIBSPLIT_CHECK((NumDevices == 0) != (DeviceList == nullptr), CL_INVALID_VALUE);
  LIBSPLIT_CHECK(!Notify && UserData, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(P->KernelCount.load() > 0, CL_INVALID_OPERATION);
  std::vector<cl_device_id> Real;
  LIBSPLIT_CHECK(!realDevices(P->context(), NumDevices, DeviceList, Real), CL_INVALID_DEVICE);
  const cl_int Result = P->build(DeviceList ? Real : std::vector<cl_device_id>{}, Options);
  // The build is finished when clBuildProgram returns; the callback may run right away.
  if (Notify)
    Notify(ProgramHandle, UserData);
  return Result;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clBuildProgram", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clCompileProgram(
    cl_program ProgramHandle, cl_uint NumDevices, const cl_device_id *DeviceList,
    const char *Options, cl_uint NumHeaders, const cl_program *Headers, const char **HeaderNames,
    void(CL_CALLBACK *Notify)(cl_program, void *), void *UserData) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCompileProgram, ProgramHandle, NumDevices, DeviceList, Options,
                                   NumHeaders, Headers, HeaderNames, Notify, UserData);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  LIBSPLIT_CHECK((NumDevices == 0) != (DeviceList == nullptr), CL_INVALID_VALUE);
  LIBSPLIT_CHECK((NumHeaders == 0) != (Headers == nullptr), CL_INVALID_VALUE);
  std::vector<cl_device_id> Real;
  LIBSPLIT_CHECK(!realDevices(P->context(), NumDevices, DeviceList, Real), CL_INVALID_DEVICE);
  std::vector<cl_program> RealHeaders;
  for (cl_uint I = 0; I < NumHeaders; ++I) {
    Program *H = asProgram(Headers[I]);
    LIBSPLIT_CHECK(!H, CL_INVALID_PROGRAM);
    RealHeaders.push_back(H->original());
  }
  // Separate compilation and linking run on the app's device only (unsplit).
  const cl_int Result = RT.real().clCompileProgram(
      P->original(), DeviceList ? NumDevices : 0, DeviceList ? Real.data() : nullptr, Options,
      NumHeaders, NumHeaders ? RealHeaders.data() : nullptr, HeaderNames, nullptr, nullptr);
  if (Notify)
    Notify(ProgramHandle, UserData);
  return Result;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clCompileProgram", nullptr);
}

LIBSPLIT_API cl_program CL_API_CALL clLinkProgram(cl_context ContextHandle, cl_uint NumDevices,
                                                  const cl_device_id *DeviceList,
                                                  const char *Options, cl_uint NumInputs,
                                                  const cl_program *Inputs,
                                                  void(CL_CALLBACK *Notify)(cl_program, void *),
                                                  void *UserData, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clLinkProgram, ContextHandle, NumDevices, DeviceList, Options,
                                   NumInputs, Inputs, Notify, UserData, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  LIBSPLIT_CHECK_RET((NumDevices == 0) != (DeviceList == nullptr), CL_INVALID_VALUE, ErrorRet);
  // No input at all goes to the real call (it reads no array), for its own code: PoCL answers
  // CL_INVALID_VALUE, NVIDIA CL_LINK_PROGRAM_FAILURE.
  LIBSPLIT_CHECK_RET(NumInputs > 0 && !Inputs, CL_INVALID_VALUE, ErrorRet);
  std::vector<cl_device_id> Real;
  LIBSPLIT_CHECK_RET(!realDevices(*C, NumDevices, DeviceList, Real), CL_INVALID_DEVICE, ErrorRet);
  std::vector<cl_program> RealInputs;
  for (cl_uint I = 0; I < NumInputs; ++I) {
    Program *In = asProgram(Inputs[I]);
    LIBSPLIT_CHECK_RET(!In, CL_INVALID_PROGRAM, ErrorRet);
    RealInputs.push_back(In->original());
  }
  cl_int Error = CL_SUCCESS;
  cl_program Linked = RT.real().clLinkProgram(
      C->primary().RealContext, DeviceList ? NumDevices : 0, DeviceList ? Real.data() : nullptr,
      Options, NumInputs, RealInputs.data(), nullptr, nullptr, &Error);
  cl_program Result = Linked ? wrapProgram(*C, Linked, {}, ErrorRet) : nullptr;
  if (!Linked)
    setError(ErrorRet, Error);
  if (Notify && Result)
    Notify(Result, UserData);
  return Result;
} catch (...) {
  return libsplit::escapedFrom<cl_program>("clLinkProgram", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clGetProgramInfo(cl_program ProgramHandle, cl_program_info Param,
                                                 size_t ValueSize, void *Value,
                                                 size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetProgramInfo, ProgramHandle, Param, ValueSize, Value,
                                   SizeRet);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return returnValue<cl_uint>(P->appReferences(), ValueSize, Value, SizeRet);
  case CL_PROGRAM_CONTEXT:
    return returnValue<cl_context>(&P->context(), ValueSize, Value, SizeRet);
  case CL_PROGRAM_NUM_DEVICES:
  case CL_PROGRAM_DEVICES:
  case CL_PROGRAM_BINARY_SIZES:
  case CL_PROGRAM_BINARIES: {
    // The real program lives in a context that also holds the split devices: answer for the
    // app's devices only, in the real order.
    size_t Size = 0;
    cl_int Error = RT.real().clGetProgramInfo(P->original(), CL_PROGRAM_DEVICES, 0, nullptr, &Size);
    if (Error != CL_SUCCESS)
      return Error;
    std::vector<cl_device_id> Real(Size / sizeof(cl_device_id));
    RT.real().clGetProgramInfo(P->original(), CL_PROGRAM_DEVICES, Size, Real.data(), nullptr);
    std::vector<cl_device_id> Ours;
    std::vector<size_t> Indices;
    for (size_t I = 0; I < Real.size(); ++I)
      for (Device *Candidate : P->context().appDevices())
        if (Candidate->real() == Real[I]) {
          Ours.push_back(Candidate);
          Indices.push_back(I);
        }
    if (Param == CL_PROGRAM_NUM_DEVICES)
      return returnValue<cl_uint>(static_cast<cl_uint>(Ours.size()), ValueSize, Value, SizeRet);
    if (Param == CL_PROGRAM_DEVICES)
      return returnVector(Ours, ValueSize, Value, SizeRet);
    std::vector<size_t> Sizes(Real.size());
    RT.real().clGetProgramInfo(P->original(), CL_PROGRAM_BINARY_SIZES,
                               Sizes.size() * sizeof(size_t), Sizes.data(), nullptr);
    if (Param == CL_PROGRAM_BINARY_SIZES) {
      std::vector<size_t> Mine;
      for (size_t I : Indices)
        Mine.push_back(Sizes[I]);
      return returnVector(Mine, ValueSize, Value, SizeRet);
    }
    // CL_PROGRAM_BINARIES: the app passes one pointer per device of its own.
    const size_t Needed = Ours.size() * sizeof(unsigned char *);
    if (Value && ValueSize < Needed)
      return CL_INVALID_VALUE;
    if (SizeRet)
      *SizeRet = Needed;
    if (!Value)
      return CL_SUCCESS;
    std::vector<unsigned char *> Pointers(Real.size(), nullptr);
    std::vector<std::vector<unsigned char>> Scratch(Real.size());
    auto **Targets = static_cast<unsigned char **>(Value);
    for (size_t I = 0; I < Real.size(); ++I) {
      Scratch[I].resize(Sizes[I]);
      Pointers[I] = Scratch[I].data();
    }
    for (size_t K = 0; K < Indices.size(); ++K)
      Pointers[Indices[K]] = Targets[K];
    Error = RT.real().clGetProgramInfo(P->original(), CL_PROGRAM_BINARIES,
                                       Pointers.size() * sizeof(unsigned char *), Pointers.data(),
                                       nullptr);
    // An app that saves these binaries creates its program from them next time: what made them
    // is recorded so that its kernels split then too.
    if (Error == CL_SUCCESS)
      if (std::optional<BinaryOrigin> Origin = P->origin())
        for (size_t K = 0; K < Indices.size(); ++K)
          recordBinaryOrigin(Targets[K], Sizes[Indices[K]], *Origin, RT.config().CacheDir,
                             RT.log());
    return Error;
  }
  default:
    return RT.real().clGetProgramInfo(P->original(), Param, ValueSize, Value, SizeRet);
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetProgramInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetProgramBuildInfo(cl_program ProgramHandle,
                                                      cl_device_id DeviceHandle,
                                                      cl_program_build_info Param, size_t ValueSize,
                                                      void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetProgramBuildInfo, ProgramHandle, DeviceHandle, Param,
                                   ValueSize, Value, SizeRet);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  return RT.real().clGetProgramBuildInfo(P->original(), D->real(), Param, ValueSize, Value,
                                         SizeRet);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetProgramBuildInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program ProgramHandle, void(CL_CALLBACK *Notify)(cl_program, void *), void *UserData) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetProgramReleaseCallback, ProgramHandle, Notify, UserData);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  LIBSPLIT_CHECK(!Notify, CL_INVALID_VALUE);
  // Whether the devices allow it at all (program scope destructors) is the implementation's
  // answer: asked on the real program, with a callback that does nothing.
  LIBSPLIT_CHECK(!RT.real().clSetProgramReleaseCallback, CL_INVALID_OPERATION);
  const cl_int Native = RT.real().clSetProgramReleaseCallback(
      P->original(), [](cl_program, void *) {}, nullptr);
  if (Native != CL_SUCCESS)
    return Native;
  P->addReleaseCallback(Notify, UserData);
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetProgramReleaseCallback", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program ProgramHandle,
                                                                   cl_uint Id, size_t Size,
                                                                   const void *Value) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetProgramSpecializationConstant, ProgramHandle, Id, Size,
                                   Value);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  LIBSPLIT_CHECK(!RT.real().clSetProgramSpecializationConstant, CL_INVALID_OPERATION);
  return RT.real().clSetProgramSpecializationConstant(P->original(), Id, Size, Value);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetProgramSpecializationConstant", nullptr);
}
