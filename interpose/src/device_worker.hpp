// One host thread per execution device. It owns the device's real in-order queue and runs jobs
// one after the other. PoCL's "basic" device executes a kernel inside clEnqueueNDRangeKernel on
// the calling thread, so devices only overlap when each has a thread of its own.
//
// Locking contract: post() may be called from any thread; a job runs on the worker thread only,
// so a job may use the real queue and the device's real kernels without locks.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace libsplit {

class DeviceWorker {
public:
  DeviceWorker();
  DeviceWorker(const DeviceWorker &) = delete;
  DeviceWorker &operator=(const DeviceWorker &) = delete;
  ~DeviceWorker(); // finishes the queued jobs, then joins

  void post(std::function<void()> Job);

private:
  void loop();

  std::mutex Mutex;
  std::condition_variable Wake;
  std::deque<std::function<void()>> Jobs;
  bool Stopping = false;
  std::thread Thread;
};

// Waits until N posted jobs have called done().
class Countdown {
public:
  explicit Countdown(int Count) : Remaining(Count) {}
  void done();
  void wait();

private:
  std::mutex Mutex;
  std::condition_variable Zero;
  int Remaining;
};

} // namespace libsplit
