//===- key_trace.hpp - The balancer's state of one key, for the trace ----===//
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace libsplit::balancer {

// What the next launch of a key is for.
enum class KeyState {
  Fixed,       // uniform and static strategies
  Initial,     // its first launch
  Search,      // a step of the search
  Converged,   // the held split
  Single,      // converged on one device
  ProbeDevice, // a probe of a device the split does not use
  ProbeSingle, // a probe of one device alone
};

// "fixed", "initial", "search", "converged", "single", "probe-device", "probe-single".
std::string_view stateName(KeyState State);

// What a launch asks of a key's state (whether the split is held, what comes next): KeyTrace
// without its per-device lists and noise estimates, whose medians every split launch paid for.
struct KeyStatus {
  KeyState Next = KeyState::Initial;
  bool Converged = false; // the split is held (probes aside)
};

struct KeyTrace {
  KeyState Next = KeyState::Initial;
  std::string_view State;       // stateName(Next), as the trace writes it
  bool Converged = false;       // the split is held (probes aside)
  std::vector<double> Shares;   // shares of the next balancing launch, in device order
  std::vector<bool> Active;     // devices the split currently uses (others are dropped)
  unsigned Iterations = 0;      // solver steps since the search last (re)started
  std::uint64_t Launches = 0;   // launches observed for this key
  unsigned Resumes = 0;         // times the search restarted after converging
  unsigned Refinements = 0;     // corrections made while holding
  unsigned PostponedProbes = 0; // probes put off because their price exceeded the probe credit
  unsigned Adoptions = 0;       // splits the caller ran instead of the proposal, then held
  unsigned AloneReversals = 0;  // devices gone alone, then measured slower than what they replaced
  // Last launch, per device (0 for a device that ran nothing).
  std::vector<double> LastSeconds; // kernel + transfer
  std::vector<double> LastKernelSeconds;
  std::vector<double> LastTransferSeconds;
  std::vector<std::uint64_t> LastBytesMoved;
  double LastSpread = 0.0;    // (max - min) / mean over the devices that ran
  double NoiseEstimate = 0.0; // relative standard deviation of a device's time, 0 if unknown
  // The same for times relative to their launch's mean (load common to all devices removed).
  double SpreadNoiseEstimate = 0.0;
};

} // namespace libsplit::balancer
