// Which of the split devices a run opens when nothing asks for them by name.
#pragma once

#include <cstddef>
#include <vector>

namespace libsplit::planner {

// One split device as the choice sees it: its kind (a CPU, a GPU, an accelerator: any values
// that compare equal for devices of one kind) and whether it is the app's own device.
struct DeviceKind {
  unsigned long Type = 0;
  bool App = false;
  bool Host = false; // runs on the host's cores (two such devices share them)
};

// Per device, whether it is opened. Beside another device of the app's device's kind (a second
// GPU), a device of another kind (the CPU beside two GPUs) is not: its runtime's context and
// compiler (PoCL's, LLVM compiling every program for it) cost a second of wall time and the
// host's cores once the devices open, for a share of the work of a few percent. Where no such
// peer exists (one GPU and a CPU), or the app's device runs on the host's cores (its peers
// there share them: a GPU is what can help it), every device is opened.
std::vector<bool> openedByDefault(const std::vector<DeviceKind> &Devices);

// Whether one platform's devices (App unused) are all the split devices an app on that platform
// opens by default, whichever device it picks: each has a peer of its kind there and none runs on
// the host's cores, so that openedByDefault keeps the app's device's kind alone. The other
// platforms' devices are then not asked for (PoCL, asked for its devices, starts its CPU device:
// about 20 ms of a process's run, for a CPU that would be left out beside two GPUs); a device of
// the app's kind there (another vendor's GPU), which openedByDefault would keep, is left out too.
bool platformSuffices(const std::vector<DeviceKind> &PlatformDevices);

} // namespace libsplit::planner
