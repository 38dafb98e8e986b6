//===- PrepareKernels.h - Make each kernel self-contained for the analysis ===//
//
// `opt -load-pass-plugin=libsplit_regions.so -passes=libsplit-prepare`
//
// The region analysis looks at one kernel function at a time, so helper
// functions are inlined into every kernel (OpenCL C forbids recursion), and
// the work-item queries become one call per query and dimension at the top of
// the kernel, with the value ranges OpenCL guarantees: ScalarEvolution then
// sees `get_global_size(0)` in a grid-stride loop as loop-invariant and
// positive. get_global_linear_id() and get_local_linear_id() are expanded
// into their definition over the per-dimension queries.
//
// The whole canonicalisation the analysis expects is the pipeline
// `libsplit-canonicalize` (canonicalPipeline() below).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_PREPAREKERNELS_H
#define LIBSPLIT_PASS_REGIONS_PREPAREKERNELS_H

#include "llvm/IR/PassManager.h"

namespace libsplit::regions {

class PrepareKernelsPass : public llvm::PassInfoMixin<PrepareKernelsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// The textual pipeline that turns Clang's unoptimised IR into what the
/// region analysis expects: prepared kernels, promoted and simplified
/// scalars, loops in simplified and rotated form with canonical induction
/// variables (ScalarEvolution's trip counts).
const char *canonicalPipeline();

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_PREPAREKERNELS_H
