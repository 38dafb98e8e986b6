#include "device_worker.hpp"

namespace libsplit {

DeviceWorker::DeviceWorker() : Thread([this] { loop(); }) {}

DeviceWorker::~DeviceWorker() {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stopping = true;
  }
  Wake.notify_one();
  Thread.join();
}

void DeviceWorker::post(std::function<void()> Job) {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Jobs.push_back(std::move(Job));
  }
  Wake.notify_one();
}

void DeviceWorker::loop() {
  for (;;) {
    std::function<void()> Job;
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      Wake.wait(Lock, [this] { return Stopping || !Jobs.empty(); });
      if (Jobs.empty())
        return;
      Job = std::move(Jobs.front());
      Jobs.pop_front();
    }
    Job();
  }
}

void Countdown::done() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (--Remaining == 0)
    Zero.notify_all();
}

void Countdown::wait() {
  std::unique_lock<std::mutex> Lock(Mutex);
  Zero.wait(Lock, [this] { return Remaining <= 0; });
}

} // namespace libsplit
