// Where a buffer lives: the devices its copies may be on, and the services its transfers use.
// The app's context is one (objects/context.hpp); a unit test makes its own, on a fake backend.
#pragma once

#include "exec_device.hpp"
#include "memory_services.hpp"

#include <memory>
#include <vector>

namespace libsplit {

class Context;

class BufferHome {
public:
  virtual ~BufferHome() = default;

  // Every execution device, by index (a buffer keeps a copy per index); [0] is the app's.
  virtual std::vector<std::unique_ptr<ExecDevice>> &devices() = 0;
  ExecDevice &primary() { return *devices().front(); }
  // The devices launches split across, once open (none before): host writes may go to them.
  virtual const std::vector<ExecDevice *> &splitDevices() const = 0;
  // The first split's weights per splitting device: how a buffer is expected to be cut before
  // any split launch used it.
  virtual std::vector<double> firstSplitWeights(const ExecDevice &AppDevice) = 0;
  virtual MemoryServices &services() = 0;
  // The app's context this is, for the API's questions (null in unit tests).
  virtual Context *appContext() { return nullptr; }
};

} // namespace libsplit
