// Shared plumbing for the API-semantics programs. Each program is an ordinary OpenCL 1.2 host
// program that prints a transcript of everything the application can observe; the test runs it
// natively and under libsplit and diffs the two transcripts. So the transcript holds only what
// must be equal under both: return codes by name, statuses, counts, checksums, yes/no verdicts of
// consistency checks. Never pointers, timings, device names or anything a scheduler may reorder.
#pragma once

// A program about newer entry points may target a later version before including this.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
// The 1.1 entry points (clEnqueueMarker, clEnqueueBarrier, clEnqueueWaitForEvents) are part of
// what apps call and libsplit intercepts.
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace api {

inline const char *errorName(cl_int Code) {
  switch (Code) {
#define API_NAME(X)                                                                                \
  case X:                                                                                          \
    return #X;
    API_NAME(CL_SUCCESS)
    API_NAME(CL_DEVICE_NOT_FOUND)
    API_NAME(CL_DEVICE_NOT_AVAILABLE)
    API_NAME(CL_COMPILER_NOT_AVAILABLE)
    API_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    API_NAME(CL_OUT_OF_RESOURCES)
    API_NAME(CL_OUT_OF_HOST_MEMORY)
    API_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    API_NAME(CL_MEM_COPY_OVERLAP)
    API_NAME(CL_IMAGE_FORMAT_MISMATCH)
    API_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    API_NAME(CL_BUILD_PROGRAM_FAILURE)
    API_NAME(CL_MAP_FAILURE)
    API_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    API_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    API_NAME(CL_COMPILE_PROGRAM_FAILURE)
    API_NAME(CL_LINKER_NOT_AVAILABLE)
    API_NAME(CL_LINK_PROGRAM_FAILURE)
    API_NAME(CL_DEVICE_PARTITION_FAILED)
    API_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    API_NAME(CL_INVALID_VALUE)
    API_NAME(CL_INVALID_DEVICE_TYPE)
    API_NAME(CL_INVALID_PLATFORM)
    API_NAME(CL_INVALID_DEVICE)
    API_NAME(CL_INVALID_CONTEXT)
    API_NAME(CL_INVALID_QUEUE_PROPERTIES)
    API_NAME(CL_INVALID_COMMAND_QUEUE)
    API_NAME(CL_INVALID_HOST_PTR)
    API_NAME(CL_INVALID_MEM_OBJECT)
    API_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    API_NAME(CL_INVALID_IMAGE_SIZE)
    API_NAME(CL_INVALID_SAMPLER)
    API_NAME(CL_INVALID_BINARY)
    API_NAME(CL_INVALID_BUILD_OPTIONS)
    API_NAME(CL_INVALID_PROGRAM)
    API_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    API_NAME(CL_INVALID_KERNEL_NAME)
    API_NAME(CL_INVALID_KERNEL_DEFINITION)
    API_NAME(CL_INVALID_KERNEL)
    API_NAME(CL_INVALID_ARG_INDEX)
    API_NAME(CL_INVALID_ARG_VALUE)
    API_NAME(CL_INVALID_ARG_SIZE)
    API_NAME(CL_INVALID_KERNEL_ARGS)
    API_NAME(CL_INVALID_WORK_DIMENSION)
    API_NAME(CL_INVALID_WORK_GROUP_SIZE)
    API_NAME(CL_INVALID_WORK_ITEM_SIZE)
    API_NAME(CL_INVALID_GLOBAL_OFFSET)
    API_NAME(CL_INVALID_EVENT_WAIT_LIST)
    API_NAME(CL_INVALID_EVENT)
    API_NAME(CL_INVALID_OPERATION)
    API_NAME(CL_INVALID_GL_OBJECT)
    API_NAME(CL_INVALID_BUFFER_SIZE)
    API_NAME(CL_INVALID_MIP_LEVEL)
    API_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    API_NAME(CL_INVALID_PROPERTY)
    API_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    API_NAME(CL_INVALID_COMPILER_OPTIONS)
    API_NAME(CL_INVALID_LINKER_OPTIONS)
    API_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef API_NAME
  // OpenCL 2.x/3.0 codes, spelled out because the 1.2 headers do not define them.
  case -70:
    return "CL_INVALID_PIPE_SIZE";
  case -71:
    return "CL_INVALID_DEVICE_QUEUE";
  case -72:
    return "CL_INVALID_SPEC_ID";
  case -73:
    return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default: {
    static thread_local char Buffer[32];
    std::snprintf(Buffer, sizeof(Buffer), "CL_ERROR(%d)", Code);
    return Buffer;
  }
  }
}

// Execution statuses: the four states, else the (negative) error the command ended with.
inline const char *statusName(cl_int Status) {
  switch (Status) {
  case CL_COMPLETE:
    return "CL_COMPLETE";
  case CL_RUNNING:
    return "CL_RUNNING";
  case CL_SUBMITTED:
    return "CL_SUBMITTED";
  case CL_QUEUED:
    return "CL_QUEUED";
  default:
    return errorName(Status);
  }
}

inline const char *commandTypeName(cl_command_type Type) {
  switch (Type) {
#define API_NAME(X)                                                                                \
  case X:                                                                                          \
    return #X;
    API_NAME(CL_COMMAND_NDRANGE_KERNEL)
    API_NAME(CL_COMMAND_TASK)
    API_NAME(CL_COMMAND_NATIVE_KERNEL)
    API_NAME(CL_COMMAND_READ_BUFFER)
    API_NAME(CL_COMMAND_WRITE_BUFFER)
    API_NAME(CL_COMMAND_COPY_BUFFER)
    API_NAME(CL_COMMAND_MAP_BUFFER)
    API_NAME(CL_COMMAND_UNMAP_MEM_OBJECT)
    API_NAME(CL_COMMAND_MARKER)
    API_NAME(CL_COMMAND_READ_BUFFER_RECT)
    API_NAME(CL_COMMAND_WRITE_BUFFER_RECT)
    API_NAME(CL_COMMAND_COPY_BUFFER_RECT)
    API_NAME(CL_COMMAND_USER)
    API_NAME(CL_COMMAND_BARRIER)
    API_NAME(CL_COMMAND_MIGRATE_MEM_OBJECTS)
    API_NAME(CL_COMMAND_FILL_BUFFER)
#undef API_NAME
  default:
    return "CL_COMMAND_OTHER";
  }
}

// Every line of the transcript goes through here; stdout is flushed per line so that a crash
// still leaves everything before it in the transcript.
inline void say(const char *Format, ...) __attribute__((format(printf, 1, 2)));
inline void say(const char *Format, ...) {
  std::va_list Args;
  va_start(Args, Format);
  std::vprintf(Format, Args);
  va_end(Args);
  std::putchar('\n');
  std::fflush(stdout);
}

// One transcript line per call whose code is compared: "<label>: <code name>".
inline cl_int show(const char *Label, cl_int Code) {
  say("%s: %s", Label, errorName(Code));
  return Code;
}

inline const char *yesNo(bool Value) { return Value ? "yes" : "no"; }

// A check where the native implementation departs from the OpenCL specification (PoCL 3.1
// accepts what the specification rejects) or shows its own internals (reference counts that
// include internal references). libsplit answers as the specification says, so the call is not
// made and only the label is printed; README.md lists these.
inline void departure(const char *Label) {
  say("%s: (implementation-defined, not compared)", Label);
}

// A reference count that natively may include the implementation's own references (PoCL counts a
// context's queues and buffers, a program's kernels, a parent's sub-buffers, and drops the
// reference an event holds until its command's end asynchronously): only what the specification
// guarantees is compared, that the AppHeld references the app holds are counted.
inline void countsAppReferences(const char *Label, cl_uint Count, cl_uint AppHeld) {
  say("%s: counts the app's %u reference(s): %s", Label, AppHeld, yesNo(Count >= AppHeld));
}

// A call the rest of the program depends on; the transcript records a failure, then the
// program stops (a diff against the native transcript shows where).
[[noreturn]] inline void fatal(const char *What, cl_int Code) {
  say("FATAL: %s: %s", What, errorName(Code));
  std::exit(2);
}
inline void need(cl_int Code, const char *What) {
  if (Code != CL_SUCCESS)
    fatal(What, Code);
}
#define API_NEED(Call) ::api::need((Call), #Call)

// FNV-1a over bytes: contents appear in the transcript as one number.
inline std::uint32_t checksum(const void *Data, size_t Bytes) {
  const auto *P = static_cast<const std::uint8_t *>(Data);
  std::uint32_t Hash = 2166136261u;
  for (size_t I = 0; I < Bytes; ++I)
    Hash = (Hash ^ P[I]) * 16777619u;
  return Hash;
}
template <typename T> std::uint32_t checksum(const std::vector<T> &Data) {
  return checksum(Data.data(), Data.size() * sizeof(T));
}

// Callbacks run on the implementation's threads at times of its choosing; the programs wait
// for the effect they expect with a generous bound, so that only "did it happen" is compared.
inline bool waitFor(const std::function<bool()> &Done, double Seconds = 5.0) {
  const auto Deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds);
  while (!Done()) {
    if (std::chrono::steady_clock::now() > Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

inline cl_int eventStatus(cl_event Event) {
  cl_int Status = 1234;
  cl_int Error =
      clGetEventInfo(Event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status, nullptr);
  return Error == CL_SUCCESS ? Status : Error;
}

// Polls an event (never waits on it) until it reaches CL_COMPLETE or an error, within a bound.
inline bool eventFinishes(cl_event Event, double Seconds = 5.0) {
  return waitFor([&] { return eventStatus(Event) <= CL_COMPLETE; }, Seconds);
}

inline cl_uint refCount(cl_context C) {
  cl_uint N = 0;
  clGetContextInfo(C, CL_CONTEXT_REFERENCE_COUNT, sizeof(N), &N, nullptr);
  return N;
}
inline cl_uint refCount(cl_command_queue Q) {
  cl_uint N = 0;
  clGetCommandQueueInfo(Q, CL_QUEUE_REFERENCE_COUNT, sizeof(N), &N, nullptr);
  return N;
}
inline cl_uint refCount(cl_mem M) {
  cl_uint N = 0;
  clGetMemObjectInfo(M, CL_MEM_REFERENCE_COUNT, sizeof(N), &N, nullptr);
  return N;
}
inline cl_uint refCount(cl_program P) {
  cl_uint N = 0;
  clGetProgramInfo(P, CL_PROGRAM_REFERENCE_COUNT, sizeof(N), &N, nullptr);
  return N;
}
inline cl_uint refCount(cl_kernel K) {
  cl_uint N = 0;
  clGetKernelInfo(K, CL_KERNEL_REFERENCE_COUNT, sizeof(N), &N, nullptr);
  return N;
}
inline cl_uint refCount(cl_event E) {
  cl_uint N = 0;
  clGetEventInfo(E, CL_EVENT_REFERENCE_COUNT, sizeof(N), &N, nullptr);
  return N;
}

inline std::string deviceString(cl_device_id Device, cl_device_info Param) {
  size_t Size = 0;
  if (clGetDeviceInfo(Device, Param, 0, nullptr, &Size) != CL_SUCCESS)
    return "";
  std::string Text(Size, '\0');
  clGetDeviceInfo(Device, Param, Size, Text.data(), nullptr);
  while (!Text.empty() && Text.back() == '\0')
    Text.pop_back();
  return Text;
}

inline std::string platformString(cl_platform_id Platform, cl_platform_info Param) {
  size_t Size = 0;
  if (clGetPlatformInfo(Platform, Param, 0, nullptr, &Size) != CL_SUCCESS)
    return "";
  std::string Text(Size, '\0');
  clGetPlatformInfo(Platform, Param, Size, Text.data(), nullptr);
  while (!Text.empty() && Text.back() == '\0')
    Text.pop_back();
  return Text;
}

// "OpenCL 3.0 ..." -> 30; 0 when unparsable.
inline int versionOf(const std::string &Text) {
  int Major = 0, Minor = 0;
  if (std::sscanf(Text.c_str(), "OpenCL %d.%d", &Major, &Minor) != 2)
    return 0;
  return Major * 10 + Minor;
}

// The device the app uses (--device P:D, as the sample apps take it) with one context and one
// in-order queue on it.
struct Setup {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
};

inline void pickDevice(int Argc, char **Argv, Setup &S) {
  unsigned P = 0, D = 0;
  for (int I = 1; I + 1 < Argc; ++I)
    if (std::strcmp(Argv[I], "--device") == 0 && std::sscanf(Argv[I + 1], "%u:%u", &P, &D) != 2)
      fatal("--device expects P:D", CL_INVALID_VALUE);
  cl_uint NumPlatforms = 0;
  API_NEED(clGetPlatformIDs(0, nullptr, &NumPlatforms));
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  API_NEED(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr));
  if (P >= NumPlatforms)
    fatal("--device: no such platform", CL_INVALID_PLATFORM);
  cl_uint NumDevices = 0;
  API_NEED(clGetDeviceIDs(Platforms[P], CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices));
  std::vector<cl_device_id> Devices(NumDevices);
  API_NEED(clGetDeviceIDs(Platforms[P], CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(), nullptr));
  if (D >= NumDevices)
    fatal("--device: no such device", CL_INVALID_DEVICE);
  S.Platform = Platforms[P];
  S.Device = Devices[D];
}

inline Setup setUp(int Argc, char **Argv, cl_command_queue_properties Properties = 0) {
  Setup S;
  pickDevice(Argc, Argv, S);
  cl_int Error = CL_SUCCESS;
  S.Context = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  S.Queue = clCreateCommandQueue(S.Context, S.Device, Properties, &Error);
  need(Error, "clCreateCommandQueue");
  return S;
}

inline void tearDown(Setup &S) {
  API_NEED(clReleaseCommandQueue(S.Queue));
  API_NEED(clReleaseContext(S.Context));
}

// Builds Source for the device; a failure is fatal (build failures are tested on their own).
inline cl_program buildProgram(cl_context Context, cl_device_id Device, const char *Source,
                               const char *Options = nullptr) {
  cl_int Error = CL_SUCCESS;
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Error);
  need(Error, "clCreateProgramWithSource");
  Error = clBuildProgram(Program, 1, &Device, Options, nullptr, nullptr);
  if (Error != CL_SUCCESS) {
    size_t Size = 0;
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
    std::fprintf(stderr, "build log:\n%s\n", Log.c_str());
    fatal("clBuildProgram", Error);
  }
  return Program;
}

inline cl_kernel createKernel(cl_program Program, const char *Name) {
  cl_int Error = CL_SUCCESS;
  cl_kernel Kernel = clCreateKernel(Program, Name, &Error);
  need(Error, Name);
  return Kernel;
}

inline cl_mem createBuffer(cl_context Context, cl_mem_flags Flags, size_t Bytes,
                           void *HostPtr = nullptr) {
  cl_int Error = CL_SUCCESS;
  cl_mem Buffer = clCreateBuffer(Context, Flags, Bytes, HostPtr, &Error);
  need(Error, "clCreateBuffer");
  return Buffer;
}

inline cl_event createUserEvent(cl_context Context) {
  cl_int Error = CL_SUCCESS;
  cl_event Event = clCreateUserEvent(Context, &Error);
  need(Error, "clCreateUserEvent");
  return Event;
}

template <typename T> void setArg(cl_kernel Kernel, cl_uint Index, const T &Value) {
  API_NEED(clSetKernelArg(Kernel, Index, sizeof(T), &Value));
}

// Reads a whole buffer of T (blocking).
template <typename T> std::vector<T> readAll(cl_command_queue Queue, cl_mem Buffer, size_t Count) {
  std::vector<T> Data(Count);
  API_NEED(clEnqueueReadBuffer(Queue, Buffer, CL_TRUE, 0, Count * sizeof(T), Data.data(), 0,
                               nullptr, nullptr));
  return Data;
}

// Kernels most programs use. Each writes a value that depends on its global id only, so the
// result is the same whichever device runs whichever part.
inline const char *commonKernels() {
  return R"CLC(
__kernel void iota(__global uint *out, uint base) {
  size_t i = get_global_id(0);
  out[i] = base + (uint)i;
}
__kernel void add_one(__global uint *buf) {
  size_t i = get_global_id(0);
  buf[i] = buf[i] + 1u;
}
__kernel void scale(__global const uint *in, __global uint *out, uint factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}
)CLC";
}

} // namespace api
