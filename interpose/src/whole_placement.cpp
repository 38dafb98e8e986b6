#include "whole_placement.hpp"

#include <algorithm>
#include <cmath>

namespace libsplit {

std::size_t WholePlacement::choose(const std::string &Key, std::size_t AppDevice,
                                   const std::vector<std::size_t> &Candidates, bool &Settled) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Settled = Candidates.empty();
  if (Settled)
    return AppDevice;
  KeyState &State = Keys[Key];
  const Times &Home = State.Measured[AppDevice];
  if (Home.Count < WarmLaunches)
    return AppDevice;
  for (const auto &[Device, Pending] : State.Probing)
    if (Pending)
      return AppDevice; // a probe still runs: its time decides what comes next
  for (std::size_t Device : Candidates)
    if (Device != AppDevice && State.Measured[Device].Count < ProbeLaunches) {
      State.Probing[Device] = true;
      return Device;
    }
  Settled = true;
  std::size_t Best = AppDevice;
  double BestTime = Home.mean() * (1.0 - SwitchGain);
  for (std::size_t Device : Candidates)
    if (Device != AppDevice && State.Measured[Device].mean() < BestTime) {
      Best = Device;
      BestTime = State.Measured[Device].mean();
    }
  return Best;
}

void WholePlacement::observe(const std::string &Key, std::size_t Device, double KernelSeconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  KeyState &State = Keys[Key];
  Times &T = State.Measured[Device];
  State.Probing[Device] = false;
  if (!std::isfinite(KernelSeconds)) { // it cannot run the kernel: measured, never chosen
    T.First = T.LaterSum = KernelSeconds;
    T.Count = std::max(T.Count + 1, ProbeLaunches);
    return;
  }
  (T.Count ? T.LaterSum : T.First) += KernelSeconds;
  ++T.Count;
}

} // namespace libsplit
