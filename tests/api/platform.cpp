// Platforms, devices, contexts and queues as objects: counts, the argument checks of the query
// and creation calls, and that the handles the app gets back agree with each other (a device's
// platform is the platform it was listed under; a context's devices are those it was given).
#include "api_test.hpp"

using namespace api;

namespace {

void platformsAndDevices(const Setup &S) {
  cl_uint NumPlatforms = 0;
  show("clGetPlatformIDs(count only)", clGetPlatformIDs(0, nullptr, &NumPlatforms));
  say("platforms: %u", NumPlatforms);
  cl_platform_id First = nullptr;
  show("clGetPlatformIDs(0 entries, array)", clGetPlatformIDs(0, &First, nullptr));
  show("clGetPlatformIDs(no outputs)", clGetPlatformIDs(1, nullptr, nullptr));
  std::vector<cl_platform_id> Platforms(NumPlatforms + 1, nullptr);
  cl_uint Again = 0;
  show("clGetPlatformIDs(larger array)",
       clGetPlatformIDs(NumPlatforms + 1, Platforms.data(), &Again));
  say("platforms again: %u, extra slot untouched: %s", Again, yesNo(!Platforms[NumPlatforms]));
  bool Found = false;
  for (cl_uint I = 0; I < NumPlatforms; ++I)
    Found = Found || Platforms[I] == S.Platform;
  say("chosen platform is listed: %s", yesNo(Found));

  const std::string Version = platformString(S.Platform, CL_PLATFORM_VERSION);
  say("platform profile: %s", platformString(S.Platform, CL_PLATFORM_PROFILE).c_str());
  say("platform version: %d", versionOf(Version));
  size_t Size = 0;
  show("clGetPlatformInfo(VERSION size)",
       clGetPlatformInfo(S.Platform, CL_PLATFORM_VERSION, 0, nullptr, &Size));
  say("version size matches string: %s", yesNo(Size == Version.size() + 1));
  char Tiny[2];
  show("clGetPlatformInfo(value too small)",
       clGetPlatformInfo(S.Platform, CL_PLATFORM_VERSION, sizeof(Tiny), Tiny, nullptr));
  show("clGetPlatformInfo(bad param)",
       clGetPlatformInfo(S.Platform, 0x7fff, sizeof(Tiny), Tiny, nullptr));

  cl_uint All = 0, Cpus = 0, Gpus = 0, Accelerators = 0, Defaults = 0;
  show("clGetDeviceIDs(ALL)", clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &All));
  show("clGetDeviceIDs(CPU)", clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_CPU, 0, nullptr, &Cpus));
  show("clGetDeviceIDs(GPU)", clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_GPU, 0, nullptr, &Gpus));
  show("clGetDeviceIDs(ACCELERATOR)",
       clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ACCELERATOR, 0, nullptr, &Accelerators));
  show("clGetDeviceIDs(DEFAULT)",
       clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &Defaults));
  say("devices: all %u cpu %u gpu %u accelerator %u default %u", All, Cpus, Gpus, Accelerators,
      Defaults);
  cl_device_id One = nullptr;
  show("clGetDeviceIDs(bad type)", clGetDeviceIDs(S.Platform, 1u << 20, 1, &One, nullptr));
  show("clGetDeviceIDs(0 entries, array)",
       clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 0, &One, nullptr));
  show("clGetDeviceIDs(no outputs)",
       clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr));
  std::vector<cl_device_id> Devices(All);
  show("clGetDeviceIDs(list)",
       clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, All, Devices.data(), nullptr));
  // Asking for fewer than there are returns the first ones, in the same order.
  show("clGetDeviceIDs(first only)",
       clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 1, &One, nullptr));
  say("first device is the first of the list: %s", yesNo(All > 0 && One == Devices[0]));
  cl_uint Listed = 0;
  for (cl_device_id D : Devices)
    Listed += D == S.Device;
  say("chosen device listed once: %s", yesNo(Listed == 1));

  for (cl_uint I = 0; I < All; ++I) {
    cl_platform_id Owner = nullptr;
    show("clGetDeviceInfo(PLATFORM)",
         clGetDeviceInfo(Devices[I], CL_DEVICE_PLATFORM, sizeof(Owner), &Owner, nullptr));
    say("device %u platform is the platform: %s", I, yesNo(Owner == S.Platform));
    cl_device_id Parent = Devices[I]; // non-null, so that a missing answer shows
    show("clGetDeviceInfo(PARENT_DEVICE)",
         clGetDeviceInfo(Devices[I], CL_DEVICE_PARENT_DEVICE, sizeof(Parent), &Parent, nullptr));
    say("device %u is a root device: %s", I, yesNo(Parent == nullptr));
    cl_uint Refs = 0;
    show("clGetDeviceInfo(REFERENCE_COUNT)",
         clGetDeviceInfo(Devices[I], CL_DEVICE_REFERENCE_COUNT, sizeof(Refs), &Refs, nullptr));
    say("device %u reference count: %u", I, Refs);
  }
}

void deviceQueries(const Setup &S) {
  cl_device_type Type = 0;
  show("clGetDeviceInfo(TYPE)",
       clGetDeviceInfo(S.Device, CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr));
  say("type: cpu %s gpu %s default %s", yesNo(Type & CL_DEVICE_TYPE_CPU),
      yesNo(Type & CL_DEVICE_TYPE_GPU), yesNo(Type & CL_DEVICE_TYPE_DEFAULT));
  cl_bool Flag = CL_FALSE;
  clGetDeviceInfo(S.Device, CL_DEVICE_AVAILABLE, sizeof(Flag), &Flag, nullptr);
  say("available: %s", yesNo(Flag));
  clGetDeviceInfo(S.Device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(Flag), &Flag, nullptr);
  say("compiler available: %s", yesNo(Flag));
  clGetDeviceInfo(S.Device, CL_DEVICE_ENDIAN_LITTLE, sizeof(Flag), &Flag, nullptr);
  say("little endian: %s", yesNo(Flag));
  cl_uint Value = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_ADDRESS_BITS, sizeof(Value), &Value, nullptr);
  say("address bits: %u", Value);
  clGetDeviceInfo(S.Device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(Value), &Value, nullptr);
  say("max work item dimensions: %u", Value);
  clGetDeviceInfo(S.Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(Value), &Value, nullptr);
  say("base address alignment (bits): %u", Value);
  size_t MaxGroup = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(MaxGroup), &MaxGroup, nullptr);
  say("max work group size: %zu", MaxGroup);
  say("device version: %d", versionOf(deviceString(S.Device, CL_DEVICE_VERSION)));
  const std::string C = deviceString(S.Device, CL_DEVICE_OPENCL_C_VERSION);
  say("OpenCL C version: %s", C.substr(0, 12).c_str());
  say("profile: %s", deviceString(S.Device, CL_DEVICE_PROFILE).c_str());
  size_t Size = 0;
  show("clGetDeviceInfo(size of EXTENSIONS)",
       clGetDeviceInfo(S.Device, CL_DEVICE_EXTENSIONS, 0, nullptr, &Size));
  say("extensions size matches string: %s",
      yesNo(Size == deviceString(S.Device, CL_DEVICE_EXTENSIONS).size() + 1));
  cl_uint Small = 0;
  show("clGetDeviceInfo(value too small)",
       clGetDeviceInfo(S.Device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(Small), &Small, nullptr));
  show("clGetDeviceInfo(bad param)",
       clGetDeviceInfo(S.Device, 0x7fff, sizeof(Size), &Size, nullptr));
  show("clGetDeviceInfo(NULL device)",
       clGetDeviceInfo(nullptr, CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr));
  // Root devices: retain and release are accepted and change nothing.
  show("clRetainDevice(root)", clRetainDevice(S.Device));
  show("clReleaseDevice(root)", clReleaseDevice(S.Device));
  show("clReleaseDevice(root, again)", clReleaseDevice(S.Device));
  show("clRetainDevice(NULL)", clRetainDevice(nullptr));
  show("clReleaseDevice(NULL)", clReleaseDevice(nullptr));
}

void contexts(const Setup &S) {
  cl_int Error = CL_SUCCESS;
  const cl_context_properties Properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(S.Platform), 0};
  cl_context C = clCreateContext(Properties, 1, &S.Device, nullptr, nullptr, &Error);
  show("clCreateContext(platform property)", Error);
  if (C) {
    cl_uint Count = 0;
    clGetContextInfo(C, CL_CONTEXT_NUM_DEVICES, sizeof(Count), &Count, nullptr);
    cl_device_id Device = nullptr;
    clGetContextInfo(C, CL_CONTEXT_DEVICES, sizeof(Device), &Device, nullptr);
    say("context devices: %u, the given one: %s", Count, yesNo(Device == S.Device));
    size_t Size = 0;
    clGetContextInfo(C, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size);
    std::vector<cl_context_properties> Back(Size / sizeof(cl_context_properties));
    clGetContextInfo(C, CL_CONTEXT_PROPERTIES, Size, Back.data(), nullptr);
    say("properties returned as given: %s", yesNo(Back.size() == 3 && Back[0] == Properties[0] &&
                                                  Back[1] == Properties[1] && Back[2] == 0));
    show("clGetContextInfo(bad param)", clGetContextInfo(C, 0x7fff, sizeof(Size), &Size, nullptr));
    show("clGetContextInfo(value too small)",
         clGetContextInfo(C, CL_CONTEXT_DEVICES, 1, &Device, nullptr));
    clReleaseContext(C);
  }
  {
    // No properties: CL_CONTEXT_PROPERTIES has size 0.
    size_t Size = 99;
    clGetContextInfo(S.Context, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size);
    say("no properties: size %zu", Size);
  }

  Error = CL_SUCCESS;
  clCreateContext(nullptr, 0, &S.Device, nullptr, nullptr, &Error);
  show("clCreateContext(0 devices)", Error);
  clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &Error);
  show("clCreateContext(NULL devices)", Error);
  cl_device_id Null = nullptr;
  clCreateContext(nullptr, 1, &Null, nullptr, nullptr, &Error);
  show("clCreateContext(NULL device in list)", Error);
  int UserData = 0;
  clCreateContext(nullptr, 1, &S.Device, nullptr, &UserData, &Error);
  show("clCreateContext(user data without callback)", Error);
  const cl_context_properties Bad[] = {0x7fff, 1, 0};
  clCreateContext(Bad, 1, &S.Device, nullptr, nullptr, &Error);
  show("clCreateContext(unknown property)", Error);

  cl_context FromType =
      clCreateContextFromType(Properties, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &Error);
  show("clCreateContextFromType(ALL)", Error);
  if (FromType) {
    cl_uint Count = 0, All = 0;
    clGetContextInfo(FromType, CL_CONTEXT_NUM_DEVICES, sizeof(Count), &Count, nullptr);
    clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &All);
    std::vector<cl_device_id> Devices(Count), Listed(All);
    clGetContextInfo(FromType, CL_CONTEXT_DEVICES, Count * sizeof(cl_device_id), Devices.data(),
                     nullptr);
    clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, All, Listed.data(), nullptr);
    say("context from type has the platform's devices: %s", yesNo(Devices == Listed));
    clReleaseContext(FromType);
  }
  clCreateContextFromType(Properties, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &Error);
  show("clCreateContextFromType(GPU)", Error);
  clCreateContextFromType(Properties, 1u << 20, nullptr, nullptr, &Error);
  show("clCreateContextFromType(bad type)", Error);
  show("clRetainContext(NULL)", clRetainContext(nullptr));
  show("clReleaseContext(NULL)", clReleaseContext(nullptr));
  cl_uint Count = 0;
  show("clGetContextInfo(NULL)",
       clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof(Count), &Count, nullptr));
}

void queues(const Setup &S) {
  cl_int Error = CL_SUCCESS;
  cl_context Context = nullptr;
  cl_device_id Device = nullptr;
  cl_command_queue_properties Properties = 99;
  show("clGetCommandQueueInfo(CONTEXT)",
       clGetCommandQueueInfo(S.Queue, CL_QUEUE_CONTEXT, sizeof(Context), &Context, nullptr));
  show("clGetCommandQueueInfo(DEVICE)",
       clGetCommandQueueInfo(S.Queue, CL_QUEUE_DEVICE, sizeof(Device), &Device, nullptr));
  show("clGetCommandQueueInfo(PROPERTIES)",
       clGetCommandQueueInfo(S.Queue, CL_QUEUE_PROPERTIES, sizeof(Properties), &Properties,
                             nullptr));
  say("queue context/device are the app's: %s %s; properties %llu", yesNo(Context == S.Context),
      yesNo(Device == S.Device), static_cast<unsigned long long>(Properties));
  show("clGetCommandQueueInfo(bad param)",
       clGetCommandQueueInfo(S.Queue, 0x7fff, sizeof(Properties), &Properties, nullptr));
  show("clGetCommandQueueInfo(NULL)",
       clGetCommandQueueInfo(nullptr, CL_QUEUE_PROPERTIES, sizeof(Properties), &Properties,
                             nullptr));

  cl_command_queue Q = clCreateCommandQueue(S.Context, S.Device, CL_QUEUE_PROFILING_ENABLE, &Error);
  show("clCreateCommandQueue(profiling)", Error);
  if (Q) {
    clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof(Properties), &Properties, nullptr);
    say("profiling queue properties: %llu", static_cast<unsigned long long>(Properties));
    clReleaseCommandQueue(Q);
  }
  clCreateCommandQueue(S.Context, S.Device, 1u << 20, &Error);
  show("clCreateCommandQueue(unknown property bit)", Error);
  clCreateCommandQueue(nullptr, S.Device, 0, &Error);
  show("clCreateCommandQueue(NULL context)", Error);
  clCreateCommandQueue(S.Context, nullptr, 0, &Error);
  show("clCreateCommandQueue(NULL device)", Error);
  // A device of the platform that is not in the context.
  cl_uint All = 0;
  clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &All);
  std::vector<cl_device_id> Devices(All);
  clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, All, Devices.data(), nullptr);
  for (cl_device_id Other : Devices)
    if (Other != S.Device) {
      clCreateCommandQueue(S.Context, Other, 0, &Error);
      show("clCreateCommandQueue(device not in context)", Error);
      break;
    }
  show("clRetainCommandQueue(NULL)", clRetainCommandQueue(nullptr));
  show("clReleaseCommandQueue(NULL)", clReleaseCommandQueue(nullptr));
  show("clFlush(NULL)", clFlush(nullptr));
  show("clFinish(NULL)", clFinish(nullptr));
  show("clFlush", clFlush(S.Queue));
  show("clFinish", clFinish(S.Queue));
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  say("== platforms and devices");
  platformsAndDevices(S);
  say("== device queries");
  deviceQueries(S);
  say("== contexts");
  contexts(S);
  say("== queues");
  queues(S);
  tearDown(S);
  say("done");
  return 0;
}
