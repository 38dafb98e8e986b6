#include "device_worker.hpp"
#include "thread_name.hpp"
#include "timeline.hpp"

#include <sys/syscall.h>
#include <unistd.h>

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
    Jobs.push_back({std::move(Job), nullptr});
  }
  Wake.notify_one();
}

bool DeviceWorker::tryHold() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Running || !Jobs.empty())
    return false;
  Running = true;
  return true;
}

void DeviceWorker::release() {
  bool JobsWaiting = false;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Running = false;
    JobsWaiting = !Jobs.empty();
  }
  // Only a posted job needs the worker: waking it for nothing cost a launch run here two
  // futex calls and a context switch of the worker.
  if (JobsWaiting)
    Wake.notify_one();
}

void DeviceWorker::runHere(const std::function<void()> &Job) {
  if (tryHold()) {
    Job();
    release();
    return;
  }
  Countdown Done(1);
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Jobs.push_back({std::cref(Job), &Done});
  }
  Wake.notify_one();
  Done.wait();
}

void DeviceWorker::loop() {
  nameThisThread("libsplit-device");
  nameCallingThreadTrack("device worker " + std::to_string(::syscall(SYS_gettid)));
  for (;;) {
    Posted Next;
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      Wake.wait(Lock, [this] { return Stopping || (!Jobs.empty() && !Running); });
      if (Jobs.empty())
        return;
      Next = std::move(Jobs.front());
      Jobs.pop_front();
      Running = true;
    }
    Next.Job();
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Running = false;
    }
    if (Next.Done)
      Next.Done->done();
  }
}

void Countdown::add() {
  std::lock_guard<std::mutex> Lock(Mutex);
  ++Remaining;
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
