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
    Queued.fetch_add(1);
  }
  Wake.notify_one();
}

bool DeviceWorker::tryHold() {
  // A job posted at the same moment runs after this caller's: both were concurrent.
  if (Queued.load() != 0)
    return false;
  bool Idle = false;
  return Running.compare_exchange_strong(Idle, true);
}

void DeviceWorker::release() {
  Running.store(false);
  // Only a posted job needs the worker: waking it for nothing cost a launch run here two
  // futex calls and a context switch of the worker. Notified under the lock: the worker, if it
  // found this caller running, is asleep by then.
  if (Queued.load() != 0) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Wake.notify_one();
  }
}

void DeviceWorker::runHere(const std::function<void()> &Job) {
  if (tryHold()) {
    struct Release {
      DeviceWorker &Worker;
      ~Release() { Worker.release(); }
    } Released{*this};
    Job();
    return;
  }
  Countdown Done(1);
  std::exception_ptr Escaped;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Jobs.push_back({std::cref(Job), &Done, &Escaped});
    Queued.fetch_add(1);
  }
  Wake.notify_one();
  Done.wait();
  if (Escaped)
    std::rethrow_exception(Escaped);
}

void DeviceWorker::loop() {
  nameThisThread("libsplit-device");
  nameCallingThreadTrack("device worker " + std::to_string(::syscall(SYS_gettid)));
  for (;;) {
    Posted Next;
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      bool Idle = false;
      // Jobs left when it stops still run, each holding the worker as any job does.
      Wake.wait(Lock, [&] {
        Idle = false;
        return Jobs.empty() ? Stopping : Running.compare_exchange_strong(Idle, true);
      });
      if (Jobs.empty())
        return;
      Next = std::move(Jobs.front());
      Jobs.pop_front();
      Queued.fetch_sub(1);
    }
    if (Next.Escaped) {
      try {
        Next.Job();
      } catch (...) {
        *Next.Escaped = std::current_exception();
      }
    } else {
      Next.Job(); // a posted job catches its own (post)
    }
    Running.store(false);
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
