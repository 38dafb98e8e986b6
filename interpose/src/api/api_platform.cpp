// Entry points: platforms, devices, sub-devices, extension functions, timers.
#include "api_common.hpp"
#include "extensions.hpp"

#include <cstring>
#include <string_view>
#include <utility>

using namespace libsplit;

namespace {

// An extension query's real answer (Real: the object's clGet*Info, bound to it) without the
// extensions libsplit hides (extensions.hpp); WithVersion: the cl_name_version form.
template <typename RealQuery>
cl_int visibleExtensionInfo(RealQuery &&Real, cl_uint Param, bool WithVersion, size_t ValueSize,
                            void *Value, size_t *SizeRet) {
  size_t Size = 0;
  if (cl_int Error = Real(Param, 0, nullptr, &Size); Error != CL_SUCCESS)
    return Error;
  std::vector<char> Answer(Size);
  if (cl_int Error = Real(Param, Size, Answer.data(), nullptr); Error != CL_SUCCESS)
    return Error;
  if (WithVersion) {
    std::vector<cl_name_version> List(Size / sizeof(cl_name_version));
    if (!List.empty())
      std::memcpy(List.data(), Answer.data(), List.size() * sizeof(cl_name_version));
    return returnVector(visibleExtensions(List), ValueSize, Value, SizeRet);
  }
  return returnString(
      visibleExtensions(std::string_view(Answer.data(), strnlen(Answer.data(), Answer.size()))),
      ValueSize, Value, SizeRet);
}

// Extension functions libsplit answers with its own entry points: KHR names of core functions
// it implements, with the same signatures. Every other name gets NULL: a vendor's function
// would receive libsplit's handles.
void *ownExtensionFunction(std::string_view Name) {
  static const std::pair<std::string_view, void *> Aliases[] = {
      {"clCreateCommandQueueWithPropertiesKHR",
       reinterpret_cast<void *>(&::clCreateCommandQueueWithProperties)},
      {"clCreateProgramWithILKHR", reinterpret_cast<void *>(&::clCreateProgramWithIL)},
      {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void *>(&::clGetKernelSubGroupInfo)},
      {"clIcdGetPlatformIDsKHR", reinterpret_cast<void *>(&::clGetPlatformIDs)},
  };
  for (const auto &[Alias, Function] : Aliases)
    if (Alias == Name)
      return Function;
  return nullptr;
}

// Real device ids of Owner to libsplit's, in the same order.
cl_int mapDevices(Platform &Owner, const std::vector<cl_device_id> &Real, cl_uint NumEntries,
                  cl_device_id *Devices) {
  for (cl_uint I = 0; I < Real.size() && I < NumEntries; ++I) {
    Device *Ours = runtime().devices().findRootDevice(Owner, Real[I]);
    if (!Ours)
      return CL_OUT_OF_HOST_MEMORY;
    Devices[I] = Ours;
  }
  return CL_SUCCESS;
}

} // namespace

LIBSPLIT_API cl_int CL_API_CALL clGetPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms,
                                                 cl_uint *NumPlatforms) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetPlatformIDs, NumEntries, Platforms, NumPlatforms);
  LIBSPLIT_CHECK((NumEntries == 0 && Platforms) || (!Platforms && !NumPlatforms), CL_INVALID_VALUE);
  const auto &All = RT.platforms();
  if (All.empty())
    return CL_PLATFORM_NOT_FOUND_KHR;
  for (cl_uint I = 0; Platforms && I < NumEntries && I < All.size(); ++I)
    Platforms[I] = All[I].get();
  if (NumPlatforms)
    *NumPlatforms = static_cast<cl_uint>(All.size());
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetPlatformIDs", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id Platform, cl_platform_info Param,
                                                  size_t ValueSize, void *Value,
                                                  size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetPlatformInfo, Platform, Param, ValueSize, Value, SizeRet);
  libsplit::Platform *P = asPlatform(Platform);
  if (!Platform && !RT.platforms().empty())
    P = RT.platforms().front().get();
  LIBSPLIT_CHECK(!P, CL_INVALID_PLATFORM);
  if (Param == CL_PLATFORM_EXTENSIONS || Param == CL_PLATFORM_EXTENSIONS_WITH_VERSION)
    return visibleExtensionInfo(
        [&](cl_uint Which, size_t Size, void *Out, size_t *OutSize) {
          return RT.real().clGetPlatformInfo(P->real(), Which, Size, Out, OutSize);
        },
        Param, Param == CL_PLATFORM_EXTENSIONS_WITH_VERSION, ValueSize, Value, SizeRet);
  return RT.real().clGetPlatformInfo(P->real(), Param, ValueSize, Value, SizeRet);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetPlatformInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id Platform, cl_device_type Type,
                                               cl_uint NumEntries, cl_device_id *Devices,
                                               cl_uint *NumDevices) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetDeviceIDs, Platform, Type, NumEntries, Devices, NumDevices);
  libsplit::Platform *P = asPlatform(Platform);
  if (!Platform && !RT.platforms().empty())
    P = RT.platforms().front().get();
  LIBSPLIT_CHECK(!P, CL_INVALID_PLATFORM);
  // Its devices found first (where the background thread has not yet): never two threads in
  // the vendor's first clGetDeviceIDs at once.
  RT.devices().devicesOf(*P);
  cl_uint Count = 0;
  cl_int Error = RT.real().clGetDeviceIDs(P->real(), Type, 0, nullptr, &Count);
  if (Error != CL_SUCCESS)
    return Error;
  LIBSPLIT_CHECK((NumEntries == 0 && Devices) || (!Devices && !NumDevices), CL_INVALID_VALUE);
  std::vector<cl_device_id> Real(Count);
  Error = RT.real().clGetDeviceIDs(P->real(), Type, Count, Real.data(), nullptr);
  if (Error != CL_SUCCESS)
    return Error;
  if (NumDevices)
    *NumDevices = Count;
  return Devices ? mapDevices(*P, Real, NumEntries, Devices) : CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetDeviceIDs", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetDeviceInfo(cl_device_id DeviceHandle, cl_device_info Param,
                                                size_t ValueSize, void *Value,
                                                size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetDeviceInfo, DeviceHandle, Param, ValueSize, Value, SizeRet);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  switch (Param) {
  case CL_DEVICE_PLATFORM:
    return returnValue<cl_platform_id>(&D->platform(), ValueSize, Value, SizeRet);
  case CL_DEVICE_PARENT_DEVICE:
    return returnValue<cl_device_id>(D->parent(), ValueSize, Value, SizeRet);
  case CL_DEVICE_REFERENCE_COUNT:
    return returnValue<cl_uint>(D->isRoot() ? 1 : D->appReferences(), ValueSize, Value, SizeRet);
  // Images, samplers and SVM are the app's device's (they live there: a kernel that takes one
  // runs there whole), so its support and limits pass through. Pipes are not offered: the
  // devices say they have none, so that the app takes another path (or says it needs them).
  case CL_DEVICE_PIPE_SUPPORT:
    return returnValue<cl_bool>(CL_FALSE, ValueSize, Value, SizeRet);
  case CL_DEVICE_EXECUTION_CAPABILITIES: {
    cl_device_exec_capabilities Capabilities = 0;
    cl_int Error =
        RT.real().clGetDeviceInfo(D->real(), Param, sizeof(Capabilities), &Capabilities, nullptr);
    if (Error != CL_SUCCESS)
      return Error;
    return returnValue<cl_device_exec_capabilities>(Capabilities & ~CL_EXEC_NATIVE_KERNEL,
                                                    ValueSize, Value, SizeRet);
  }
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return returnValue<cl_device_device_enqueue_capabilities>(0, ValueSize, Value, SizeRet);
  case CL_DEVICE_EXTENSIONS:
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return visibleExtensionInfo(
        [&](cl_uint Which, size_t Size, void *Out, size_t *OutSize) {
          return RT.real().clGetDeviceInfo(D->real(), Which, Size, Out, OutSize);
        },
        Param, Param == CL_DEVICE_EXTENSIONS_WITH_VERSION, ValueSize, Value, SizeRet);
  default:
    return RT.real().clGetDeviceInfo(D->real(), Param, ValueSize, Value, SizeRet);
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetDeviceInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clCreateSubDevices(cl_device_id InDevice,
                                                   const cl_device_partition_property *Properties,
                                                   cl_uint NumDevices, cl_device_id *OutDevices,
                                                   cl_uint *NumDevicesRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateSubDevices, InDevice, Properties, NumDevices, OutDevices,
                                   NumDevicesRet);
  Device *D = asDevice(InDevice);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  // Room for no device is an error, not a count query (the real call would take the empty
  // list for none at all).
  LIBSPLIT_CHECK(OutDevices && NumDevices == 0, CL_INVALID_VALUE);
  std::vector<cl_device_id> Real(OutDevices ? NumDevices : 0);
  cl_uint Made = 0;
  cl_int Error = RT.real().clCreateSubDevices(D->real(), Properties, NumDevices,
                                              OutDevices ? Real.data() : nullptr, &Made);
  if (Error != CL_SUCCESS)
    return Error;
  if (NumDevicesRet)
    *NumDevicesRet = Made;
  // Sub-devices the app makes are its devices like any other; libsplit does not split onto
  // them (LIBSPLIT_SUBDEVICES does that) but keeps them usable.
  for (cl_uint I = 0; OutDevices && I < std::min(Made, NumDevices); ++I) {
    auto Sub = Device::create(RT.real(), D->platform(), Real[I], D);
    OutDevices[I] = Sub.get();
  }
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clCreateSubDevices", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clRetainDevice(cl_device_id DeviceHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainDevice, DeviceHandle);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  if (!D->isRoot())
    D->retain();
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainDevice", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseDevice(cl_device_id DeviceHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseDevice, DeviceHandle);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  if (!D->isRoot() && !D->release())
    return CL_INVALID_DEVICE;
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseDevice", nullptr);
}

// Extension functions take handles too: a vendor's pointer would receive libsplit's objects and
// crash, so none is handed out (the spec's answer for an unsupported extension).
LIBSPLIT_API void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id Platform,
                                                                        const char *Name) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetExtensionFunctionAddressForPlatform, Platform, Name);
  if (void *Own = Name ? ownExtensionFunction(Name) : nullptr)
    return Own;
  RT.log().once(std::string("ext:") + (Name ? Name : ""), config::LogLevel::Info,
                "extension function ", Name ? Name : "(null)", " is not available under libsplit");
  return nullptr;
} catch (...) {
  return libsplit::escapedFrom<void *>("clGetExtensionFunctionAddressForPlatform", nullptr);
}

LIBSPLIT_API void *CL_API_CALL clGetExtensionFunctionAddress(const char *Name) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetExtensionFunctionAddress, Name);
  return clGetExtensionFunctionAddressForPlatform(nullptr, Name);
} catch (...) {
  return libsplit::escapedFrom<void *>("clGetExtensionFunctionAddress", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id DeviceHandle,
                                                        cl_ulong *DeviceTimestamp,
                                                        cl_ulong *HostTimestamp) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetDeviceAndHostTimer, DeviceHandle, DeviceTimestamp,
                                   HostTimestamp);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  LIBSPLIT_CHECK(!RT.real().clGetDeviceAndHostTimer, CL_INVALID_OPERATION);
  return RT.real().clGetDeviceAndHostTimer(D->real(), DeviceTimestamp, HostTimestamp);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetDeviceAndHostTimer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetHostTimer(cl_device_id DeviceHandle,
                                               cl_ulong *HostTimestamp) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetHostTimer, DeviceHandle, HostTimestamp);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  LIBSPLIT_CHECK(!RT.real().clGetHostTimer, CL_INVALID_OPERATION);
  return RT.real().clGetHostTimer(D->real(), HostTimestamp);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetHostTimer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

LIBSPLIT_API cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id Platform) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clUnloadPlatformCompiler, Platform);
  LIBSPLIT_CHECK(!asPlatform(Platform), CL_INVALID_PLATFORM);
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clUnloadPlatformCompiler", nullptr);
}
