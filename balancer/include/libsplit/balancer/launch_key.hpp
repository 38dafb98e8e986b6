//===- launch_key.hpp - What the balancer keeps state for ----------------===//
//
// Balancing state belongs to one kernel at one NDRange shape: the same kernel launched on another
// size has other costs (granularity, offsets), so it is balanced separately.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace libsplit::balancer {

struct LaunchKey {
  // Any string that names the kernel uniquely within the process; the caller may prefix a
  // program identity when two programs define kernels of the same name.
  std::string Kernel;
  std::uint32_t WorkDim = 1;
  std::array<std::uint64_t, 3> Global = {1, 1, 1};
  std::array<std::uint64_t, 3> Local = {1, 1, 1};
  std::uint32_t SplitDim = 0;

  friend bool operator==(const LaunchKey &A, const LaunchKey &B) {
    return A.Kernel == B.Kernel && A.WorkDim == B.WorkDim && A.Global == B.Global &&
           A.Local == B.Local && A.SplitDim == B.SplitDim;
  }
  friend bool operator!=(const LaunchKey &A, const LaunchKey &B) { return !(A == B); }
};

struct LaunchKeyHash {
  std::size_t operator()(const LaunchKey &Key) const noexcept;
};

// "kernel[gxgxg/lxlxl@d]", for logs and traces only (not parsed back).
std::string describe(const LaunchKey &Key);

} // namespace libsplit::balancer
