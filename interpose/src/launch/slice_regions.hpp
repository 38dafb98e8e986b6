// The regions of a kernel's slices (analysis::evaluateSlice), kept for the launch shape asked
// last: a split launch prices several cuts (the balancer's, the owner's, where its reads meet a
// buffer's split, and the cuts between, found by bisection), each evaluated over every argument,
// and an iterative kernel's launches ask the same ones every step (a 2-D stencil's planning
// took longer than its kernels).
#pragma once

#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/analysis/summary.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace libsplit {

class SliceRegionMemo {
public:
  // evaluateSlice's answer, evaluated once while the kernel's summary, NDRange and scalar
  // arguments stay those of the launches before (another shape starts over).
  // (Shared: the memory hands out what it keeps, never a copy.)
  analysis::SharedRegions regions(const analysis::KernelSummary &Kernel,
                                  const analysis::NDRange &Range, const analysis::LaunchArgs &Args,
                                  const analysis::Slice &S);
  // Slices evaluated so far, not answered from memory (for tests).
  std::size_t evaluated() const { return Evaluated; }

private:
  // Slices kept for one shape at most: a launch prices tens of cuts.
  static constexpr std::size_t MaxSlices = 4096;
  bool sameShape(const analysis::KernelSummary &Kernel, const analysis::NDRange &Range,
                 const analysis::LaunchArgs &Args) const;

  std::mutex Mutex;
  const analysis::KernelSummary *Summary = nullptr;
  analysis::NDRange Range;
  analysis::LaunchArgs Args;
  // The shape's access forms, computed at its first slice (shared: a slice evaluated meanwhile
  // by another thread keeps the ones it started with).
  std::shared_ptr<const analysis::AccessForms> Forms;
  std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>, analysis::SharedRegions> Slices;
  std::size_t Evaluated = 0;
};

} // namespace libsplit
