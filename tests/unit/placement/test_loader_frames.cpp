// Whether the calling thread runs code the dynamic loader called (interpose/src/backend/
// loader_frames.*): yes in a library's constructor during dlopen, no on the main thread, on
// another thread, or in the same library's function called once it is loaded.
#include "loader_frames.hpp"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <thread>

using namespace libsplit;

TEST_CASE("a library's constructor runs under the loader; its callers and threads do not",
          "[discovery]") {
  CHECK_FALSE(mayRunUnderLoader());
  bool OnThread = true;
  std::thread([&OnThread] { OnThread = mayRunUnderLoader(); }).join();
  CHECK_FALSE(OnThread);
  void *Module = dlopen(LOADER_PROBE_MODULE, RTLD_NOW | RTLD_LOCAL);
  REQUIRE(Module != nullptr);
  auto *InConstructor = reinterpret_cast<int (*)()>(dlsym(Module, "loaderProbeInConstructor"));
  auto *Now = reinterpret_cast<int (*)()>(dlsym(Module, "loaderProbeNow"));
  REQUIRE(InConstructor);
  REQUIRE(Now);
  CHECK(InConstructor() == 1);
  CHECK(Now() == 0);
  dlclose(Module);
}
