//===- measurement.hpp - What one device did in one launch ---------------===//
//
// The interposer fills one of these per device after each launch it split. Transfer time counts
// so that a split which makes the runtime move more data is seen as more expensive.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace libsplit::balancer {

struct DeviceMeasurement {
  std::uint64_t Groups = 0;     // work-groups this device ran along the split dimension
  std::uint64_t FirstGroup = 0; // its first work-group
  double KernelSeconds = 0.0;   // from event profiling (END - START of its sub-kernel)
  double TransferSeconds = 0.0; // transfers this launch caused for this device, before and after
  std::uint64_t BytesMoved = 0; // bytes of those transfers (reported to the trace only)

  double seconds() const { return KernelSeconds + TransferSeconds; }
};

} // namespace libsplit::balancer
