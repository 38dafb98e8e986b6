// A home for buffers under test: Count execution devices on a FakeBackend, each with its worker
// thread (as a context's), all of them splitting, and services of the test's own (no trace, no
// timeline, host writes copied rather than deferred unless told). SharedContext: the devices
// share one real context (two GPUs of one platform).
#pragma once

#include "buffer_home.hpp"
#include "fake_backend.hpp"

#include <string>

namespace libsplit::testing {

class TestHome final : public BufferHome {
public:
  explicit TestHome(std::size_t Count, config::DeferMode Defer = config::DeferMode::Copy,
                    bool SharedContext = false)
      : Backend(Count, SharedContext), Recorder("", false),
        Spans(""), Services{Backend, Deferred, Defer, Live, Recorder, Spans, Log} {
    for (std::size_t I = 0; I < Count; ++I) {
      auto D = std::make_unique<ExecDevice>();
      D->Index = I;
      D->Name = "fake #" + std::to_string(I);
      D->Model = "fake";
      D->RealContext = Backend.contextOf(I);
      D->RealQueue = Backend.queueOf(I);
      D->Splits = true;
      D->Type = CL_DEVICE_TYPE_GPU;
      D->Worker = std::make_unique<DeviceWorker>();
      D->Ready.store(true);
      Split.push_back(D.get());
      Exec.push_back(std::move(D));
    }
  }

  std::vector<std::unique_ptr<ExecDevice>> &devices() override { return Exec; }
  const std::vector<ExecDevice *> &splitDevices() const override { return Split; }
  std::vector<double> firstSplitWeights(const ExecDevice &) override {
    return std::vector<double>(Split.size(), 1.0);
  }
  MemoryServices &services() override { return Services; }

  FakeBackend Backend;
  LiveMemory Live;

private:
  DeferredWrites Deferred;
  RunRecorder Recorder;
  Timeline Spans;
  config::Logger Log;
  MemoryServices Services;
  std::vector<std::unique_ptr<ExecDevice>> Exec;
  std::vector<ExecDevice *> Split;
};

} // namespace libsplit::testing
