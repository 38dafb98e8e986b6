//===- KernelRegionsPrinter.cpp - print<libsplit-regions> -----------------===//

#include "KernelRegionsPrinter.h"

#include "KernelRegions.h"

#include "libsplit/analysis/summary_text.hpp"

#include "llvm/Support/raw_ostream.h"

namespace libsplit::regions {

llvm::PreservedAnalyses KernelRegionsPrinterPass::run(llvm::Function &F,
                                                      llvm::FunctionAnalysisManager &FAM) {
  const KernelRegionsAnalysis::Result &Regions = FAM.getResult<KernelRegionsAnalysis>(F);
  if (!Regions.IsKernel)
    return llvm::PreservedAnalyses::all();
  analysis::ProgramSummary One;
  One.Kernels.push_back(Regions.Summary);
  const std::string Text = analysis::toText(One);
  // The first line is the format header: once per program, not per kernel.
  OS << "libsplit regions for kernel '" << F.getName() << "':\n"
     << llvm::StringRef(Text).split('\n').second;
  return llvm::PreservedAnalyses::all();
}

} // namespace libsplit::regions
