// An app whose OpenCL work starts in a constructor of a library it loads with dlopen (a plugin
// that sets itself up as it loads): the constructor runs while the dynamic loader holds its
// lock, and its OpenCL calls, the process's first ones included, up to the kernel made, happen
// then; the kernel runs once the library is loaded (plugin_context_module.cpp). A thread that
// loads a library or registers a thread_local's destructor meanwhile waits for that lock: under
// libsplit, its device workers did (their timeline track's name), and the context that joined
// one hung; a context that waits for a thread finding the other platforms' devices would too
// (PoCL loads its device drivers then: DeviceDiscovery). The device is the one --device
// names, handed to the constructor in API_PLUGIN_DEVICE.
#include "api_test.hpp"

#include <dlfcn.h>
#include <unistd.h>

using namespace api;

int main(int Argc, char **Argv) {
  const char *Device = "0:0";
  for (int I = 1; I + 1 < Argc; ++I)
    if (std::strcmp(Argv[I], "--device") == 0)
      Device = Argv[I + 1];
  setenv("API_PLUGIN_DEVICE", Device, 1);
  char Self[4096] = {};
  const ssize_t Length = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (Length <= 0)
    fatal("cannot read /proc/self/exe", CL_INVALID_VALUE);
  std::string Module(Self, static_cast<size_t>(Length));
  Module = Module.substr(0, Module.rfind('/') + 1) + "api_plugin_context_module.so";
  say("loading the plugin");
  void *Plugin = dlopen(Module.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Plugin) {
    say("dlopen failed: %s", dlerror());
    return 1;
  }
  say("loaded");
  auto *Run = reinterpret_cast<void (*)()>(dlsym(Plugin, "apiPluginRun"));
  if (!Run)
    fatal("no apiPluginRun in the plugin", CL_INVALID_VALUE);
  Run();
  dlclose(Plugin);
  say("done");
  return 0;
}
