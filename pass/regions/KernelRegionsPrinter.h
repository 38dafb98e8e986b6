//===- KernelRegionsPrinter.h - print<libsplit-regions> -------------------===//
//
// opt-16 -load-pass-plugin=libsplit_regions.so -disable-output
//        -passes='libsplit-canonicalize,function(print<libsplit-regions>)' kernel.ll
//
// Prints each kernel's summary in the runtime's text format (summary v1,
// analysis/README.md), one block per kernel, to the given stream.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_KERNELREGIONSPRINTER_H
#define LIBSPLIT_PASS_REGIONS_KERNELREGIONSPRINTER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace libsplit::regions {

class KernelRegionsPrinterPass : public llvm::PassInfoMixin<KernelRegionsPrinterPass> {
public:
  explicit KernelRegionsPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_KERNELREGIONSPRINTER_H
