// Which device runs the launches of a kernel that cannot split (global atomics whose returned
// value is used, xchg/cmpxchg, ...), per NDRange: the fastest measured for it,
// rather than always the app's device (an app that took the first platform's CPU beside a GPU).
//
// The app's device runs the first WarmLaunches; then each other candidate runs it
// ProbeLaunches times (one probe at a time, each observed before the next); then the device with
// the shortest kernel time keeps it, if it beats the app's device by SwitchGain. A device's time
// leaves out its first launch when there are later ones: PoCL compiles the kernel for its local
// size inside the first (the atomics app's compaction: its first launch took pthread twice what
// basic's did).
// Kernel times only: a device that keeps the kernel keeps its data too, so what moved for the
// probe does not recur.
// Candidates are chosen by the caller (never a CPU beside an app's GPU: a CPU's single probe of
// a whole GPU-sized launch could cost a hundred of the app's launches).
//
// Thread safety: every member locks; launches observe from whichever thread completes them.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace libsplit {

class WholePlacement {
public:
  static constexpr unsigned WarmLaunches = 2;
  static constexpr unsigned ProbeLaunches = 2;
  static constexpr double SwitchGain = 0.10;

  // The device (an index of the context's execution devices) for the next launch of Key.
  // Settled is false while that launch's time is still needed for the choice: the caller then
  // waits for its kernel (the next choice sees its time) rather than queueing launches ahead.
  // MoreLater: a device may become a candidate later (its program is being built).
  std::size_t choose(const std::string &Key, std::size_t AppDevice,
                     const std::vector<std::size_t> &Candidates, bool MoreLater, bool &Settled);
  // The settled choice for Key, if there is one: the caller need not gather candidates again.
  std::optional<std::size_t> settled(const std::string &Key);
  void observe(const std::string &Key, std::size_t Device, double KernelSeconds);

private:
  struct Times {
    double First = 0.0;
    double LaterSum = 0.0;
    unsigned Count = 0;
    double mean() const { return Count > 1 ? LaterSum / (Count - 1) : First; }
  };
  struct KeyState {
    std::map<std::size_t, Times> Measured;
    std::map<std::size_t, bool> Probing; // chosen once, not observed yet
    std::optional<std::size_t> Final;    // the choice, once settled
  };
  std::mutex Mutex;
  std::map<std::string, KeyState> Keys;
};

} // namespace libsplit
