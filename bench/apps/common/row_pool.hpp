// Rows of a host reference computed in parallel: the apps' checks recompute a stencil's
// dependency cones on the host, which at thousands of steps took longer than the run itself (a
// device machine's time spent on one core). Each row is computed by one thread exactly as the
// loop alone would, so the reference is the same, bit for bit, with any number of threads.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace app {

class RowPool {
public:
  RowPool() : Shares(std::max(1u, std::thread::hardware_concurrency())) {
    for (std::size_t I = 1; I < Shares; ++I)
      Workers.emplace_back([this, I] { work(I); });
  }
  ~RowPool() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Stopping = true;
    }
    Start.notify_all();
    for (std::thread &T : Workers)
      T.join();
  }
  RowPool(const RowPool &) = delete;
  RowPool &operator=(const RowPool &) = delete;

  // Calls Row(I) for each I in [Begin, End), returning once all have returned. Few rows run on
  // the calling thread alone (waking the workers would cost more).
  void rows(std::size_t Begin, std::size_t End, const std::function<void(std::size_t)> &Row) {
    if (End <= Begin)
      return;
    if (Shares == 1 || End - Begin < MinRowsToShare) {
      for (std::size_t I = Begin; I < End; ++I)
        Row(I);
      return;
    }
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Job = &Row;
      First = Begin;
      Last = End;
      Pending = Shares - 1;
      ++Generation;
    }
    Start.notify_all();
    runShare(0, Begin, End, Row);
    std::unique_lock<std::mutex> Lock(Mutex);
    Done.wait(Lock, [this] { return Pending == 0; });
    Job = nullptr;
  }

private:
  static constexpr std::size_t MinRowsToShare = 64;

  // Share Index of the rows [Begin, End), the shares as even as whole rows allow.
  void runShare(std::size_t Index, std::size_t Begin, std::size_t End,
                const std::function<void(std::size_t)> &Row) const {
    const std::size_t Rows = End - Begin;
    const std::size_t From = Begin + Rows * Index / Shares,
                      To = Begin + Rows * (Index + 1) / Shares;
    for (std::size_t I = From; I < To; ++I)
      Row(I);
  }

  void work(std::size_t Index) {
    std::size_t Seen = 0;
    for (;;) {
      const std::function<void(std::size_t)> *Row;
      std::size_t Begin, End;
      {
        std::unique_lock<std::mutex> Lock(Mutex);
        Start.wait(Lock, [&] { return Stopping || Generation != Seen; });
        if (Stopping)
          return;
        Seen = Generation;
        Row = Job;
        Begin = First;
        End = Last;
      }
      runShare(Index, Begin, End, *Row);
      std::lock_guard<std::mutex> Lock(Mutex);
      if (--Pending == 0)
        Done.notify_one();
    }
  }

  const std::size_t Shares; // the calling thread's and each worker's
  std::vector<std::thread> Workers;
  std::mutex Mutex;
  std::condition_variable Start, Done;
  const std::function<void(std::size_t)> *Job = nullptr; // Mutex
  std::size_t First = 0, Last = 0;                       // Mutex
  std::size_t Pending = 0;                               // Mutex
  std::size_t Generation = 0;                            // Mutex
  bool Stopping = false;                                 // Mutex
};

} // namespace app
