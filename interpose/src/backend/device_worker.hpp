// One host thread per execution device. It owns the device's real in-order queue and runs jobs
// one after the other. PoCL's "basic" device executes a kernel inside clEnqueueNDRangeKernel on
// the calling thread, so devices only overlap when each has a thread of its own.
//
// Locking contract: post(), runHere() and tryHold() may be called from any thread; jobs run one
// at a time (on the worker thread, or on a caller's while the worker is idle and held), so a job
// may use the real queue and the device's real kernels without locks.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace libsplit {

// Waits until N posted jobs have called done(); add() counts one more to wait for.
class Countdown {
public:
  explicit Countdown(int Count) : Remaining(Count) {}
  void add();
  void done();
  void wait();

private:
  std::mutex Mutex;
  std::condition_variable Zero;
  int Remaining;
};

class DeviceWorker {
public:
  DeviceWorker();
  DeviceWorker(const DeviceWorker &) = delete;
  DeviceWorker &operator=(const DeviceWorker &) = delete;
  ~DeviceWorker(); // finishes the queued jobs, then joins

  // Job must not throw: it catches its own exceptions and tells whoever waits for it (an
  // exception out of a posted job ends the process).
  void post(std::function<void()> Job);
  // Runs Job on the calling thread when the worker is idle (saving two thread hand-offs, tens of
  // microseconds per launch), holding the worker meanwhile; else posts it and waits. An exception
  // out of Job comes out of runHere, once the worker is free again.
  void runHere(const std::function<void()> &Job);
  // When the worker is idle, holds it (no posted job starts) and returns true: the caller may
  // then run a job for this device itself, and must call release() after.
  bool tryHold();
  void release();

private:
  void loop();

  struct Posted {
    std::function<void()> Job;
    // A runHere caller waiting for it: told once the worker is idle again, so that its next
    // runHere finds it so (told from inside the job, the caller came back while the worker was
    // still busy and posted its next job too, and so did every launch after it: each a thread
    // hand-off, NVIDIA's enqueue running on the worker).
    Countdown *Done = nullptr;
    // The runHere caller's: where the job's exception goes.
    std::exception_ptr *Escaped = nullptr;
  };
  std::mutex Mutex;
  std::condition_variable Wake;
  std::deque<Posted> Jobs; // Mutex
  // Jobs' size, and whether a job runs (on the worker or on a runHere caller): atomics, so that
  // a launch that finds the worker idle holds and releases it without the lock (each launch run
  // on the app's thread does).
  std::atomic<std::size_t> Queued{0};
  std::atomic<bool> Running{false};
  bool Stopping = false; // Mutex
  std::thread Thread;
};

} // namespace libsplit
