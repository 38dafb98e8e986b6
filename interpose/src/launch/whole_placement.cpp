#include "whole_placement.hpp"

#include <algorithm>
#include <cmath>

namespace libsplit {

std::size_t WholePlacement::choose(const std::string &Key, std::size_t AppDevice,
                                   const std::vector<std::size_t> &Candidates, bool MoreLater,
                                   bool &Settled) {
  std::lock_guard<std::mutex> Lock(Mutex);
  KeyState &State = Keys[Key];
  if (Candidates.empty()) {
    Settled = !MoreLater;
    if (Settled)
      State.Final = AppDevice;
    return AppDevice;
  }
  Settled = false;
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
  Settled = !MoreLater;
  std::size_t Best = AppDevice;
  double BestTime = Home.mean() * (1.0 - SwitchGain);
  for (std::size_t Device : Candidates)
    if (Device != AppDevice && State.Measured[Device].mean() < BestTime) {
      Best = Device;
      BestTime = State.Measured[Device].mean();
    }
  if (Settled)
    State.Final = Best;
  return Best;
}

std::optional<std::size_t> WholePlacement::settled(const std::string &Key) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Found = Keys.find(Key);
  return Found == Keys.end() ? std::nullopt : Found->second.Final;
}

void WholePlacement::observe(const std::string &Key, std::size_t Device, double KernelSeconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  KeyState &State = Keys[Key];
  Times &T = State.Measured[Device];
  State.Probing[Device] = false;
  if (!std::isfinite(KernelSeconds)) { // it cannot run the kernel: measured, never chosen
    if (State.Final == Device)
      State.Final.reset();
    T.First = T.LaterSum = KernelSeconds;
    T.Count = std::max(T.Count + 1, ProbeLaunches);
    return;
  }
  (T.Count ? T.LaterSum : T.First) += KernelSeconds;
  ++T.Count;
}

} // namespace libsplit
