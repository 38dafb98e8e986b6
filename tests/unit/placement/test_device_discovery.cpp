// Which platforms' devices libsplit asks for, and when (interpose/src/objects/device_discovery.*),
// over a made-up OpenCL implementation: a platform of two GPUs suffices by default (the other
// platforms, a CPU's, are never asked), anything else asks every platform in the background.
#include "device_discovery.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace libsplit;

namespace {

// Two platforms: the first with GPUs (how many: GpuCount), the second with one CPU. Handles
// are made-up addresses; each platform's questions for its devices are counted (the count asked
// first: one question is a count, then the list).
struct FakeWorld {
  static inline int GpuCount = 2;
  static inline std::atomic<int> AskedFor[2];
  // How long a platform takes to answer for its devices (PoCL starting its CPU device).
  static inline std::chrono::milliseconds Slow{0};
  // While set, the CPU's platform does not answer for its devices (its vendor waiting for a lock
  // the app's thread holds: the loader's, in a library's constructor during dlopen).
  static inline std::atomic<bool> Held{false};
  // The thread that last asked each platform for its devices.
  static inline std::thread::id AskedOn[2];
  static cl_platform_id platform(int I) { return reinterpret_cast<cl_platform_id>(0x1000 + I); }
  static cl_device_id gpu(int I) { return reinterpret_cast<cl_device_id>(0x2000 + I); }
  static cl_device_id cpu() { return reinterpret_cast<cl_device_id>(0x3000); }

  static cl_int CL_API_CALL platformIds(cl_uint Num, cl_platform_id *Out, cl_uint *Count) {
    for (cl_uint I = 0; Out && I < Num && I < 2; ++I)
      Out[I] = platform(static_cast<int>(I));
    if (Count)
      *Count = 2;
    return CL_SUCCESS;
  }
  static cl_int CL_API_CALL deviceIds(cl_platform_id P, cl_device_type, cl_uint Num,
                                      cl_device_id *Out, cl_uint *Count) {
    const int Which = P == platform(0) ? 0 : 1;
    if (!Out) { // the count, asked first
      ++AskedFor[Which];
      AskedOn[Which] = std::this_thread::get_id();
      std::this_thread::sleep_for(Slow);
      while (Which == 1 && Held)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::vector<cl_device_id> Devices;
    if (Which == 0)
      for (int I = 0; I < GpuCount; ++I)
        Devices.push_back(gpu(I));
    else
      Devices.push_back(cpu());
    for (cl_uint I = 0; Out && I < Num && I < Devices.size(); ++I)
      Out[I] = Devices[I];
    if (Count)
      *Count = static_cast<cl_uint>(Devices.size());
    return CL_SUCCESS;
  }
  static cl_int CL_API_CALL deviceInfo(cl_device_id D, cl_device_info Param, size_t Size,
                                       void *Value, size_t *SizeRet) {
    if (Param != CL_DEVICE_TYPE)
      return CL_INVALID_VALUE; // the facts read once stay zero, the name empty
    const cl_device_type Type = D == cpu() ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    if (Value && Size >= sizeof(Type))
      std::memcpy(Value, &Type, sizeof(Type));
    if (SizeRet)
      *SizeRet = sizeof(Type);
    return CL_SUCCESS;
  }
};

struct Fixture {
  RealApi Real;
  config::Config Settings;
  config::Logger Log{config::LogLevel::Error};
  explicit Fixture(const std::map<std::string, std::string> &Env = {}, int Gpus = 2)
      : Settings(config::readConfig([&Env](const char *Name) -> const char * {
          auto It = Env.find(Name);
          return It == Env.end() ? nullptr : It->second.c_str();
        })) {
    Real.clGetPlatformIDs = FakeWorld::platformIds;
    Real.clGetDeviceIDs = FakeWorld::deviceIds;
    Real.clGetDeviceInfo = FakeWorld::deviceInfo;
    FakeWorld::GpuCount = Gpus;
    FakeWorld::Slow = std::chrono::milliseconds(0);
    FakeWorld::AskedFor[0] = 0;
    FakeWorld::AskedFor[1] = 0;
    FakeWorld::Held = false;
  }
};

} // namespace

TEST_CASE("an app on a platform of two GPUs: the other platform is never asked for its devices",
          "[discovery]") {
  Fixture F;
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log);
  Devices.start(true);
  REQUIRE(Devices.platforms().size() == 2);
  Platform &Gpus = *Devices.platforms()[0];
  CHECK(Devices.devicesOf(Gpus).size() == 2);
  CHECK(Devices.splitDevicesFor(Gpus) ==
        std::vector<cl_device_id>{FakeWorld::gpu(0), FakeWorld::gpu(1)});
  CHECK(Devices.findRootDevice(Gpus, FakeWorld::gpu(1)) == Devices.devicesOf(Gpus)[1]);
  Devices.awaitAll();
  CHECK(FakeWorld::AskedFor[1] == 0);
  // Asked about by the app, it is found then.
  Platform &Cpus = *Devices.platforms()[1];
  CHECK(Devices.devicesOf(Cpus).size() == 1);
  CHECK(FakeWorld::AskedFor[1] >= 1);
}

TEST_CASE("an app on a platform of one GPU: the other platforms' devices join its split devices",
          "[discovery]") {
  Fixture F({}, 1);
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log);
  Devices.start(true);
  Platform &Gpus = *Devices.platforms()[0];
  CHECK(Devices.devicesOf(Gpus).size() == 1);
  CHECK(Devices.splitDevicesFor(Gpus) ==
        std::vector<cl_device_id>{FakeWorld::gpu(0), FakeWorld::cpu()});
  CHECK(FakeWorld::AskedFor[1] == 1);
  CHECK(Devices.findRootDevice(FakeWorld::cpu()) == Devices.platforms()[1]->Devices.front());
  Devices.awaitAll();
}

TEST_CASE("an app on the CPU's platform: every platform's devices, found once", "[discovery]") {
  Fixture F;
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log);
  Devices.start(true);
  Platform &Cpus = *Devices.platforms()[1];
  CHECK(Devices.devicesOf(Cpus).size() == 1);
  CHECK(Devices.splitDevicesFor(Cpus) ==
        std::vector<cl_device_id>{FakeWorld::gpu(0), FakeWorld::gpu(1), FakeWorld::cpu()});
  Devices.awaitAll();
  CHECK(FakeWorld::AskedFor[0] == 1);
  CHECK(FakeWorld::AskedFor[1] == 1);
}

TEST_CASE("devices named in LIBSPLIT_DEVICES: every platform is asked, the selection applies",
          "[discovery]") {
  Fixture F(std::map<std::string, std::string>{{"LIBSPLIT_DEVICES", "gpu"}});
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log);
  Devices.start(false); // found on the calling thread
  Platform &Gpus = *Devices.platforms()[0];
  CHECK(Devices.devicesOf(Gpus).size() == 2);
  CHECK(FakeWorld::AskedFor[1] == 1);
  CHECK(Devices.splitDevicesFor(Gpus) ==
        std::vector<cl_device_id>{FakeWorld::gpu(0), FakeWorld::gpu(1)});
}

TEST_CASE("threads asking about both platforms while the background finds them: each asked once",
          "[discovery]") {
  for (int Gpus : {1, 2}) {
    Fixture F({}, Gpus);
    FakeWorld::Slow = std::chrono::milliseconds(3);
    DeviceDiscovery Devices(F.Real, F.Settings, F.Log);
    Devices.start(true);
    Platform &GpuPlatform = *Devices.platforms()[0];
    Platform &CpuPlatform = *Devices.platforms()[1];
    std::vector<std::thread> Threads;
    std::vector<std::size_t> Split(4);
    for (int T = 0; T < 4; ++T)
      Threads.emplace_back([&, T] {
        Platform &First = T % 2 ? CpuPlatform : GpuPlatform;
        Devices.devicesOf(First);
        Split[T] = Devices.splitDevicesFor(First).size();
        Devices.devicesOf(T % 2 ? GpuPlatform : CpuPlatform);
      });
    for (std::thread &T : Threads)
      T.join();
    Devices.awaitAll();
    CHECK(FakeWorld::AskedFor[0] == 1);
    CHECK(FakeWorld::AskedFor[1] == 1);
    CHECK(GpuPlatform.Devices.size() == static_cast<std::size_t>(Gpus));
    CHECK(CpuPlatform.Devices.size() == 1);
    // An app on the CPU: every platform's devices. An app on the GPUs: the two GPUs alone where
    // they suffice, else the one GPU and the CPU.
    CHECK(Split[1] == static_cast<std::size_t>(Gpus) + 1);
    CHECK(Split[0] == 2);
  }
}

TEST_CASE("a fork while the background finds the devices: the child has them all, no hang",
          "[discovery]") {
  Fixture F({}, 1);
  FakeWorld::Slow = std::chrono::milliseconds(20);
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log);
  Devices.start(true);
  Platform &Gpus = *Devices.platforms()[0];
  Devices.devicesOf(Gpus); // the CPU's platform now found in the background, slowly
  const pid_t Child = fork();
  REQUIRE(Child >= 0);
  if (Child == 0) {
    alarm(10); // a hang fails the test instead of stalling it
    const bool Right = Devices.splitDevicesFor(Gpus).size() == 2;
    Devices.awaitAll(); // the parent's thread, which the child does not have: not joined
    _exit(Right ? 0 : 1);
  }
  int Status = 0;
  REQUIRE(waitpid(Child, &Status, 0) == Child);
  CHECK(WIFEXITED(Status));
  CHECK(WEXITSTATUS(Status) == 0);
  Devices.awaitAll();
}

TEST_CASE("a context made while another platform cannot answer: it splits without it, no hang",
          "[discovery]") {
  Fixture F({}, 1);
  FakeWorld::Held = true;
  DiscoveryWaits Waits;
  Waits.Bound = std::chrono::milliseconds(100);
  Waits.UnderLoader = [] { return false; };
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log, {}, Waits);
  Devices.start(true);
  Platform &Gpus = *Devices.platforms()[0];
  Devices.devicesOf(Gpus); // the CPU's platform asked in the background: it stalls
  // Where the context waited for it, the lock would never be released: the watchdog lets a
  // wrong version fail (too slow) instead of hanging.
  std::atomic<bool> LetGo{false};
  std::thread Watchdog([&LetGo] {
    for (int Tick = 0; Tick < 500 && !LetGo; ++Tick)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    FakeWorld::Held = false;
  });
  const auto Start = std::chrono::steady_clock::now();
  CHECK(Devices.splitDevicesFor(Gpus) == std::vector<cl_device_id>{FakeWorld::gpu(0)});
  CHECK(std::chrono::steady_clock::now() - Start < std::chrono::seconds(3));
  // A device of a platform found is found without waiting for the others.
  CHECK(Devices.findRootDevice(FakeWorld::gpu(0)) == Gpus.Devices.front());
  CHECK(std::chrono::steady_clock::now() - Start < std::chrono::seconds(3));
  LetGo = true; // the app's thread lets go of the lock
  Watchdog.join();
  Devices.awaitAll();
  // The contexts made from now on have every device.
  CHECK(Devices.splitDevicesFor(Gpus) ==
        std::vector<cl_device_id>{FakeWorld::gpu(0), FakeWorld::cpu()});
}

TEST_CASE("under the loader the other platforms are asked on the calling thread, not waited for",
          "[discovery]") {
  Fixture F({}, 1);
  DiscoveryWaits Waits;
  Waits.UnderLoader = [] { return true; };
  DeviceDiscovery Devices(F.Real, F.Settings, F.Log, {}, Waits);
  Devices.start(true);
  Platform &Gpus = *Devices.platforms()[0];
  Devices.devicesOf(Gpus); // the app asks about its platform: the CPU's is asked here, at once
  CHECK(FakeWorld::AskedFor[1] == 1);
  CHECK(FakeWorld::AskedOn[1] == std::this_thread::get_id());
  CHECK(Devices.splitDevicesFor(Gpus) ==
        std::vector<cl_device_id>{FakeWorld::gpu(0), FakeWorld::cpu()});
  Devices.awaitAll();
}
