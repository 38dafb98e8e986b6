//===- overlap_trial.hpp - Whether a kernel's slices start before their halo ---===//
//
// A stencil's split launch can queue each slice's interior before the bytes its device lacks
// arrive, the host fetching and sending them meanwhile, at the price of more commands a launch
// and of a launch that returns later: where the devices wait for the halo, they stop waiting;
// where the host's work is what paces the steps, the next kernel starts later. Which wins shows
// only in the steps' times, so a kernel's launches that exchange bytes run in blocks, without
// and with, and the trial keeps the way whose launches came at the shorter median interval (the
// wall time from one launch of the kernel to its next: the whole step, whatever else it runs).
// It tries again after RetryAfter launches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace libsplit::planner {

class OverlapTrial {
public:
  static constexpr std::size_t Block = 8;  // launches one way before the other
  static constexpr std::size_t Rounds = 2; // blocks each way before deciding
  static constexpr std::size_t TrialLaunches = 2 * Rounds * Block;
  // The overlap is kept only where its median interval is this much shorter: its extra
  // commands are a cost wherever the gain is noise.
  static constexpr double Margin = 0.97;
  static constexpr std::size_t RetryAfter = 1000;

  // Whether this launch queues its interiors early. Interval: seconds since the kernel's
  // previous launch that asked, none for the first.
  bool next(std::optional<double> Interval);
  // The way chosen by the last trial, none before the first ended.
  std::optional<bool> chosen() const { return Chosen; }

private:
  bool decide() const;

  bool Trying = true;
  std::size_t Count = 0; // launches since the trial, or the choice, began
  std::optional<bool> Previous;
  std::optional<bool> Chosen;
  std::vector<double> Without, With;
};

} // namespace libsplit::planner
