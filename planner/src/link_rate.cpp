#include "libsplit/planner/link_rate.hpp"

namespace libsplit::planner {

void LinkRate::observe(double TransferSeconds, double TransferBytes) {
  if (!(TransferBytes >= MinBytes) || !(TransferSeconds > 0.0))
    return;
  const double Keep = Samples ? 1.0 - Weight : 0.0;
  Bytes = Keep * Bytes + (1.0 - Keep) * TransferBytes;
  Seconds = Keep * Seconds + (1.0 - Keep) * TransferSeconds;
  ++Samples;
}

double LinkRate::bytesPerSecond(double Default) const {
  return Samples >= MinSamples && Seconds > 0.0 ? Bytes / Seconds : Default;
}

} // namespace libsplit::planner
