//===- ProgramRegions.h - Region summaries of a whole OpenCL program ------===//
//
// From the app's source and build options to one analysis::KernelSummary per
// kernel: Clang 16 compiles the *original* program to LLVM IR exactly as the
// rewrite parses it (OpenCLFrontend.h: spir64, the app's -D/-I/-cl-std), the
// canonical pipeline runs (PrepareKernels.h), and KernelRegionsAnalysis reads
// each kernel. The original program, not the partition-ready one: a
// partition-ready work-item touches what the same work-item of the app's
// launch touches, and the original IR has plain NDRange queries.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_PROGRAMREGIONS_H
#define LIBSPLIT_PASS_REGIONS_PROGRAMREGIONS_H

#include "libsplit/analysis/summary.hpp"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace libsplit {

struct PartitionReadyProgram;
struct ProgramInput;

namespace regions {

/// Summaries of the kernels \p Rewritten lists, in its order. A kernel the
/// list calls unsplittable is unsplittable here too, with the list's reason.
/// When Clang cannot generate code, every kernel is unsplittable and the
/// diagnostics go to \p Diagnostics.
analysis::ProgramSummary analyzeProgram(const ProgramInput &Input,
                                        const PartitionReadyProgram &Rewritten,
                                        llvm::raw_ostream &Diagnostics);

} // namespace regions
} // namespace libsplit

#endif // LIBSPLIT_PASS_REGIONS_PROGRAMREGIONS_H
