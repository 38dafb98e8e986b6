//===- Explain.h - Region summaries for people (libsplit-cc --explain) ----===//
//
// Per kernel: the regions in readable form (infix expressions, argument names,
// the checked conversions shown as i32(x) / u32(x)), which dimensions give
// disjoint writes on a representative launch, and for a kernel that cannot be
// split, the reason in one line. This is how a user finds out why a kernel
// did not split.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_EXPLAIN_H
#define LIBSPLIT_PASS_REGIONS_EXPLAIN_H

#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/analysis/summary.hpp"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace libsplit::regions {

/// \p E in infix, argument leaves by name when \p Kernel names them.
std::string readable(const analysis::Expr &E, const analysis::KernelSummary *Kernel = nullptr);

/// The launch --explain evaluates disjoint writes on: every dimension the
/// kernel's expressions mention (at least one), 64 work-items by groups of 8,
/// every integer argument 64.
void representativeLaunch(const analysis::KernelSummary &Kernel, analysis::NDRange &Range,
                          analysis::LaunchArgs &Args);

void explainProgram(const analysis::ProgramSummary &Program, llvm::raw_ostream &OS);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_EXPLAIN_H
