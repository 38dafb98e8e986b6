#include "list_devices.hpp"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

namespace libsplit {

namespace {

// Only the few entry points needed, loaded from the ICD loader: the launcher itself never links
// OpenCL (it must start even where no OpenCL is installed, to say so).
struct Loader {
  decltype(&clGetPlatformIDs) GetPlatformIDs = nullptr;
  decltype(&clGetPlatformInfo) GetPlatformInfo = nullptr;
  decltype(&clGetDeviceIDs) GetDeviceIDs = nullptr;
  decltype(&clGetDeviceInfo) GetDeviceInfo = nullptr;

  bool load() {
    void *Handle = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!Handle)
      return false;
    GetPlatformIDs = reinterpret_cast<decltype(GetPlatformIDs)>(dlsym(Handle, "clGetPlatformIDs"));
    GetPlatformInfo =
        reinterpret_cast<decltype(GetPlatformInfo)>(dlsym(Handle, "clGetPlatformInfo"));
    GetDeviceIDs = reinterpret_cast<decltype(GetDeviceIDs)>(dlsym(Handle, "clGetDeviceIDs"));
    GetDeviceInfo = reinterpret_cast<decltype(GetDeviceInfo)>(dlsym(Handle, "clGetDeviceInfo"));
    return GetPlatformIDs && GetPlatformInfo && GetDeviceIDs && GetDeviceInfo;
  }
};

std::string text(const Loader &L, cl_platform_id P, cl_platform_info What) {
  size_t Size = 0;
  if (L.GetPlatformInfo(P, What, 0, nullptr, &Size) != CL_SUCCESS)
    return "?";
  std::string Out(Size, '\0');
  L.GetPlatformInfo(P, What, Size, Out.data(), nullptr);
  return Out.c_str();
}

std::string text(const Loader &L, cl_device_id D, cl_device_info What) {
  size_t Size = 0;
  if (L.GetDeviceInfo(D, What, 0, nullptr, &Size) != CL_SUCCESS)
    return "?";
  std::string Out(Size, '\0');
  L.GetDeviceInfo(D, What, Size, Out.data(), nullptr);
  return Out.c_str();
}

} // namespace

int listDevices(const config::Config &Settings) {
  Loader L;
  if (!L.load()) {
    std::fprintf(stderr, "libsplit: error: cannot load the OpenCL ICD loader libOpenCL.so.1\n");
    return 1;
  }
  cl_uint Count = 0;
  if (L.GetPlatformIDs(0, nullptr, &Count) != CL_SUCCESS || Count == 0) {
    std::printf("no OpenCL platform\n");
    return 1;
  }
  std::vector<cl_platform_id> Platforms(Count);
  L.GetPlatformIDs(Count, Platforms.data(), nullptr);
  std::printf("P:D   type   selected  device (LIBSPLIT_DEVICES=%s)\n",
              config::formatDeviceSelection(Settings.Devices).c_str());
  for (unsigned PI = 0; PI < Count; ++PI) {
    std::printf("platform %u: %s (%s)\n", PI, text(L, Platforms[PI], CL_PLATFORM_NAME).c_str(),
                text(L, Platforms[PI], CL_PLATFORM_VERSION).c_str());
    cl_uint NumDevices = 0;
    if (L.GetDeviceIDs(Platforms[PI], CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> Devices(NumDevices);
    L.GetDeviceIDs(Platforms[PI], CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(), nullptr);
    for (unsigned DI = 0; DI < NumDevices; ++DI) {
      cl_device_type Type = 0;
      L.GetDeviceInfo(Devices[DI], CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr);
      const config::DeviceType Kind = (Type & CL_DEVICE_TYPE_GPU)   ? config::DeviceType::Gpu
                                      : (Type & CL_DEVICE_TYPE_CPU) ? config::DeviceType::Cpu
                                                                    : config::DeviceType::Other;
      const std::string Name = text(L, Devices[DI], CL_DEVICE_NAME);
      const bool Selected = Settings.Devices.matches(PI, DI, Kind, Name);
      std::printf("%u:%u   %-5s  %-8s  %s\n", PI, DI,
                  Kind == config::DeviceType::Gpu   ? "gpu"
                  : Kind == config::DeviceType::Cpu ? "cpu"
                                                    : "other",
                  Selected ? "yes" : "no", Name.c_str());
    }
  }
  return 0;
}

} // namespace libsplit
