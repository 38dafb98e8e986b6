//===- link_rate.hpp - What moving bytes to a device costs, as measured --===//
//
// The bytes per second one device received its slices' lacking data at, over its recent
// transfers. A transfer's seconds include what it waits for (the device that wrote the bytes
// ending its kernel, the host's copy between them) and its commands' own cost, which a fetch pays
// as surely as its bytes: the rate is that of whole fetches, not of the link alone, and it prices
// the bytes a cut would move (affinity.hpp) as they are found to cost on this machine.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace libsplit::planner {

class LinkRate {
public:
  // Smaller transfers tell the fixed cost of a fetch more than its rate: not counted.
  static constexpr double MinBytes = 16 * 1024;
  // Each transfer's weight in the running sums: a rate that follows the recent transfers.
  static constexpr double Weight = 0.1;
  // Transfers counted before the measured rate replaces the default.
  static constexpr std::size_t MinSamples = 3;

  void observe(double Seconds, double Bytes);
  // The measured bytes per second, or Default before MinSamples transfers were counted.
  double bytesPerSecond(double Default) const;
  std::size_t samples() const { return Samples; }

private:
  double Bytes = 0.0;
  double Seconds = 0.0;
  std::size_t Samples = 0;
};

} // namespace libsplit::planner
