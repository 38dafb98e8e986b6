//===- KernelRegions.h - The region analysis of one kernel ----------------===//
//
// opt-16 -load-pass-plugin=libsplit_regions.so -disable-output
//        -passes='libsplit-canonicalize,function(print<libsplit-regions>)' kernel.ll
//
// For every buffer argument (__global, __constant) of a kernel: the bytes each
// work-item may read, write and update atomically, as guarded intervals
// `if id in [lower, upper] : [first, last]` over the kernel's scalar arguments,
// the NDRange and the work-item ids, or *unknown* with a reason (and, for an
// index loaded from memory, where it was loaded from). Or a verdict that the
// kernel must not be split, with a one-line reason. The result is the
// runtime's analysis::KernelSummary (analysis/include/libsplit/analysis).
//
// The IR must be canonical (PrepareKernels.h: helpers inlined, work-item
// queries hoisted, loops simplified): that is what makes ScalarEvolution see
// the induction variables and trip counts.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_KERNELREGIONS_H
#define LIBSPLIT_PASS_REGIONS_KERNELREGIONS_H

#include "libsplit/analysis/summary.hpp"

#include "llvm/IR/PassManager.h"

namespace libsplit::regions {

class KernelRegionsAnalysis : public llvm::AnalysisInfoMixin<KernelRegionsAnalysis> {
public:
  struct Result {
    bool IsKernel = false;
    analysis::KernelSummary Summary;
    bool invalidate(llvm::Function &, const llvm::PreservedAnalyses &PA,
                    llvm::FunctionAnalysisManager::Invalidator &) {
      auto Checker = PA.getChecker<KernelRegionsAnalysis>();
      return !Checker.preserved() && !Checker.preservedSet<llvm::AllAnalysesOn<llvm::Function>>();
    }
  };

  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

private:
  friend llvm::AnalysisInfoMixin<KernelRegionsAnalysis>;
  static llvm::AnalysisKey Key;
};

/// Sorts an argument's accesses into a short list: identical ones once, and
/// those that differ only by constant offsets with touching byte ranges (a
/// stencil's A[x-1], A[x], A[x+1]) as one.
std::vector<analysis::Access> mergeAccesses(const std::vector<analysis::Access> &Accesses);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_KERNELREGIONS_H
