//===- RegionsPlugin.cpp - The libsplit passes, by name -------------------===//

#include "RegionsPlugin.h"

#include "KernelRegions.h"
#include "KernelRegionsPrinter.h"
#include "PrepareKernels.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace libsplit::regions {

using namespace llvm;

namespace {

void registerCallbacks(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
    FAM.registerPass([] { return KernelRegionsAnalysis(); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<libsplit-regions>") {
          FPM.addPass(KernelRegionsPrinterPass(errs()));
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "libsplit-prepare") {
          MPM.addPass(PrepareKernelsPass());
          return true;
        }
        if (Name == "libsplit-canonicalize") {
          if (Error Failure = PB.parsePassPipeline(MPM, canonicalPipeline())) {
            errs() << "libsplit-canonicalize: " << toString(std::move(Failure)) << "\n";
            return false;
          }
          return true;
        }
        return false;
      });
}

} // namespace

PassPluginLibraryInfo getLibsplitRegionsPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "LibsplitRegions", LLVM_VERSION_STRING, registerCallbacks};
}

} // namespace libsplit::regions

#ifndef LIBSPLIT_REGIONS_LINK_INTO_TOOLS
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return libsplit::regions::getLibsplitRegionsPluginInfo();
}
#endif
