// Shared plumbing for the sample apps: command line, device choice, error checks, output file.
//
// The apps are meant to look like ordinary single-device OpenCL programs, so this header only
// removes boilerplate that every such program carries; each app still calls the OpenCL 1.2 C API
// itself (contexts, queues, buffers, kernels, reads) the way real codes do.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace app {

// Exit codes shared by every app (the e2e harness and bench driver rely on them).
constexpr int ExitCorrect = 0;
constexpr int ExitWrongResult = 1;
constexpr int ExitError = 2;

[[noreturn]] inline void fail(const char *What) {
  std::fprintf(stderr, "error: %s\n", What);
  std::exit(ExitError);
}

inline void checkCl(cl_int Err, const char *Call, const char *File, int Line) {
  if (Err == CL_SUCCESS)
    return;
  std::fprintf(stderr, "error: %s failed with %d at %s:%d\n", Call, Err, File, Line);
  std::exit(ExitError);
}

#define CL_CHECK(Call) ::app::checkCl((Call), #Call, __FILE__, __LINE__)
#define CL_CHECK_ERR(Err, What) ::app::checkCl((Err), What, __FILE__, __LINE__)

// `--name value` options; every app also understands --device P:D, --output FILE, --help.
class Options {
public:
  Options(int Argc, char **Argv, const char *Usage) {
    for (int I = 1; I < Argc; ++I) {
      std::string Arg = Argv[I];
      if (Arg == "--help" || Arg == "-h") {
        std::printf("usage: %s [--device P:D] [--output FILE] %s\n", Argv[0], Usage);
        std::exit(ExitCorrect);
      }
      if (Arg.rfind("--", 0) != 0 || I + 1 >= Argc) {
        std::fprintf(stderr, "usage: %s [--device P:D] [--output FILE] %s\n", Argv[0], Usage);
        std::exit(ExitError);
      }
      Values[Arg.substr(2)] = Argv[++I];
    }
  }

  long integer(const std::string &Name, long Default) const {
    auto It = Values.find(Name);
    if (It == Values.end())
      return Default;
    char *End = nullptr;
    long Value = std::strtol(It->second.c_str(), &End, 10);
    if (*End != '\0' || Value < 0) {
      std::fprintf(stderr, "error: --%s expects a non-negative integer, got '%s'\n", Name.c_str(),
                   It->second.c_str());
      std::exit(ExitError);
    }
    return Value;
  }

  std::string text(const std::string &Name, const std::string &Default) const {
    auto It = Values.find(Name);
    return It == Values.end() ? Default : It->second;
  }

private:
  std::map<std::string, std::string> Values;
};

struct DeviceChoice {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  std::string Name;
};

inline std::string deviceName(cl_device_id Device) {
  size_t Size = 0;
  CL_CHECK(clGetDeviceInfo(Device, CL_DEVICE_NAME, 0, nullptr, &Size));
  std::string Name(Size, '\0');
  CL_CHECK(clGetDeviceInfo(Device, CL_DEVICE_NAME, Size, Name.data(), nullptr));
  while (!Name.empty() && Name.back() == '\0')
    Name.pop_back();
  return Name;
}

// `--device P:D` picks platform P, device D; otherwise the first GPU of any platform, else the
// first device of the first platform (what most single-device apps do).
inline DeviceChoice pickDevice(const Options &Opts) {
  cl_uint NumPlatforms = 0;
  CL_CHECK(clGetPlatformIDs(0, nullptr, &NumPlatforms));
  if (NumPlatforms == 0)
    fail("no OpenCL platform found");
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  CL_CHECK(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr));

  auto devicesOf = [](cl_platform_id Platform, cl_device_type Type) {
    cl_uint Count = 0;
    cl_int Err = clGetDeviceIDs(Platform, Type, 0, nullptr, &Count);
    std::vector<cl_device_id> Devices(Err == CL_SUCCESS ? Count : 0);
    if (!Devices.empty())
      CL_CHECK(clGetDeviceIDs(Platform, Type, Count, Devices.data(), nullptr));
    return Devices;
  };

  DeviceChoice Choice;
  std::string Requested = Opts.text("device", "");
  if (!Requested.empty()) {
    unsigned P = 0, D = 0;
    if (std::sscanf(Requested.c_str(), "%u:%u", &P, &D) != 2)
      fail("--device expects P:D (platform and device index)");
    if (P >= NumPlatforms)
      fail("--device: no such platform");
    auto Devices = devicesOf(Platforms[P], CL_DEVICE_TYPE_ALL);
    if (D >= Devices.size())
      fail("--device: no such device on that platform");
    Choice = {Platforms[P], Devices[D], ""};
  } else {
    for (cl_platform_id Platform : Platforms) {
      auto Gpus = devicesOf(Platform, CL_DEVICE_TYPE_GPU);
      if (!Gpus.empty()) {
        Choice = {Platform, Gpus[0], ""};
        break;
      }
    }
    if (!Choice.Device) {
      auto Devices = devicesOf(Platforms[0], CL_DEVICE_TYPE_ALL);
      if (Devices.empty())
        fail("the first platform has no device");
      Choice = {Platforms[0], Devices[0], ""};
    }
  }
  Choice.Name = deviceName(Choice.Device);
  return Choice;
}

// A context on the chosen device and an in-order queue there (with profiling where asked).
struct DeviceSession {
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
};
inline DeviceSession openDevice(const DeviceChoice &Choice, bool Profiling) {
  DeviceSession S;
  cl_int Err = CL_SUCCESS;
  S.Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  S.Queue = clCreateCommandQueue(S.Context, Choice.Device,
                                 Profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");
  return S;
}

inline cl_program buildProgram(cl_context Context, cl_device_id Device, const char *Source,
                               const char *BuildOptions) {
  cl_int Err = CL_SUCCESS;
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateProgramWithSource");
  Err = clBuildProgram(Program, 1, &Device, BuildOptions, nullptr, nullptr);
  if (Err != CL_SUCCESS) {
    size_t Size = 0;
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
    std::fprintf(stderr, "build log:\n%s\n", Log.c_str());
    CL_CHECK_ERR(Err, "clBuildProgram");
  }
  return Program;
}

// Raw bytes of the result, so two runs can be compared byte for byte.
template <typename T> void writeOutput(const Options &Opts, const std::vector<T> &Data) {
  std::string Path = Opts.text("output", "");
  if (Path.empty())
    return;
  std::FILE *File = std::fopen(Path.c_str(), "wb");
  if (!File || std::fwrite(Data.data(), sizeof(T), Data.size(), File) != Data.size() ||
      std::fclose(File) != 0)
    fail("cannot write the output file");
}

class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  }

private:
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

// One line that the harness and bench driver parse: app, verdict, device, kernel wall time.
inline int report(const char *App, bool Correct, const DeviceChoice &Choice, double Seconds,
                  const std::string &Detail) {
  std::printf("%s: %s on '%s' in %.6f s%s%s\n", App, Correct ? "PASS" : "FAIL", Choice.Name.c_str(),
              Seconds, Detail.empty() ? "" : "; ", Detail.c_str());
  return Correct ? ExitCorrect : ExitWrongResult;
}

} // namespace app
