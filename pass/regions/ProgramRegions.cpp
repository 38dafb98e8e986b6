//===- ProgramRegions.cpp - Region summaries of a whole OpenCL program ----===//

#include "ProgramRegions.h"

#include "BuildOptions.h"
#include "KernelRegions.h"
#include "OpenCLFrontend.h"
#include "PartitionReady.h"
#include "PrepareKernels.h"
#include "RegionsPlugin.h"

#include "clang/CodeGen/CodeGenAction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace libsplit::regions {

using namespace llvm;

namespace {

/// Optimised code generation without the optimisation pipeline: no `optnone`
/// or `noinline` on every function (as -O0 would add), TBAA and lifetime
/// markers as usual; the analysis runs its own pipeline.
const char *const CodeGenArgs[] = {"-O2", "-disable-llvm-passes"};

std::map<std::string, analysis::KernelSummary> analyzeModule(Module &M) {
  PassBuilder PB;
  getLibsplitRegionsPluginInfo().RegisterPassBuilderCallbacks(PB);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  std::map<std::string, analysis::KernelSummary> Summaries;
  if (Error Failure = PB.parsePassPipeline(MPM, canonicalPipeline())) {
    consumeError(std::move(Failure)); // cannot happen: the pipeline is fixed text
    return Summaries;
  }
  MPM.run(M, MAM);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    const KernelRegionsAnalysis::Result &Regions = FAM.getResult<KernelRegionsAnalysis>(F);
    if (Regions.IsKernel)
      Summaries[F.getName().str()] = Regions.Summary;
  }
  return Summaries;
}

} // namespace

analysis::ProgramSummary analyzeProgram(const ProgramInput &Input,
                                        const PartitionReadyProgram &Rewritten,
                                        raw_ostream &Diagnostics) {
  std::map<std::string, analysis::KernelSummary> ByName;
  std::string Failure;
  {
    LLVMContext Context;
    clang::EmitLLVMOnlyAction Action(&Context);
    TranslatedBuildOptions Options = translateBuildOptions(Input.BuildOptions);
    std::vector<std::string> Args = Options.ClangArgs;
    Args.insert(Args.end(), std::begin(CodeGenArgs), std::end(CodeGenArgs));
    std::string Messages;
    raw_string_ostream MessageStream(Messages);
    const bool Compiled = runOpenCLFrontend(Input.Source, Input.Path, Args, Action, MessageStream);
    std::unique_ptr<Module> M = Compiled ? Action.takeModule() : nullptr;
    if (M) {
      ByName = analyzeModule(*M);
    } else {
      Diagnostics << Messages;
      Failure = "Clang could not generate code for the program";
    }
  }

  analysis::ProgramSummary Program;
  for (const KernelEntry &Entry : Rewritten.Kernels) {
    analysis::KernelSummary Kernel;
    if (auto Found = ByName.find(Entry.Name); Found != ByName.end()) {
      Kernel = Found->second;
    } else {
      Kernel.Name = Entry.Name;
      Kernel.Splittable = false;
      Kernel.NotSplittableReason =
          Failure.empty() ? "no code was generated for the kernel" : Failure;
    }
    // The partition-ready program decides first: a kernel it cannot split is never split.
    if (!Entry.Splittable) {
      Kernel.Splittable = false;
      Kernel.NotSplittableReason = Entry.Reason;
    }
    if (!Kernel.Splittable)
      for (analysis::ArgSummary &Arg : Kernel.Args)
        Arg.Accesses.clear();
    Program.Kernels.push_back(std::move(Kernel));
  }
  return Program;
}

} // namespace libsplit::regions
