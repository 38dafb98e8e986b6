// A device's profiling times on the host's clock: where a command's events are stamped with the
// device's own start and end (Event::stampFromDevice).
#pragma once

#include <algorithm>
#include <cstdint>

namespace libsplit {

struct HostSpan {
  std::uint64_t Start = 0, End = 0;
};

// Start and End of a command in the device's clock, on the host's: shifted by the difference
// between the two clocks at the command's enqueueing, which both saw (EnqueuedNs on the host,
// Queued on the device; exact to the enqueue call's own duration). Never before NotBefore (what
// the host saw of the command's start, or its submission): the duration stays the device's.
inline HostSpan onHostClock(std::uint64_t EnqueuedNs, std::uint64_t Queued, std::uint64_t Start,
                            std::uint64_t End, std::uint64_t NotBefore) {
  const auto Shift = static_cast<std::int64_t>(EnqueuedNs) - static_cast<std::int64_t>(Queued);
  const auto Shifted = static_cast<std::uint64_t>(static_cast<std::int64_t>(Start) + Shift);
  const std::uint64_t Began = std::max(Shifted, NotBefore);
  return {Began, Began + (End >= Start ? End - Start : 0)};
}

} // namespace libsplit
