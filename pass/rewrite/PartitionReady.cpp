//===- PartitionReady.cpp - OpenCL C source to partition-ready source -----===//

#include "PartitionReady.h"

#include "BuildOptions.h"
#include "IncludeFlattener.h"
#include "OpenCLFrontend.h"
#include "Prelude.h"
#include "PreprocessorRecorder.h"
#include "ProgramFacts.h"
#include "RewriteContract.h"
#include "SignatureRewriter.h"
#include "ThreadingPlan.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"

namespace libsplit {

using namespace clang;

namespace {

/// Why the program may not use the reserved prefix: the rewrite's names
/// would collide with the user's.
void checkReservedPrefix(const SourceManager &SM, const PreprocessorFacts &Preprocessor,
                         const ProgramInput &Input, std::vector<std::string> &Problems) {
  for (FileID File : outputFiles(SM, Preprocessor)) {
    llvm::StringRef Text = SM.getBufferData(File);
    size_t At = Text.find_insensitive(ReservedPrefix);
    if (At == llvm::StringRef::npos)
      continue;
    Problems.push_back("the source uses the prefix '" + ReservedPrefix.str() +
                       "', reserved for the rewrite (" +
                       describeLocation(SM, SM.getComposedLoc(File, At)) + ")");
    return;
  }
  for (const std::string &Option : Input.BuildOptions)
    if (llvm::StringRef(Option).contains_insensitive(ReservedPrefix)) {
      Problems.push_back("the build option '" + Option + "' uses the prefix '" +
                         ReservedPrefix.str() + "', reserved for the rewrite");
      return;
    }
}

class PartitionReadyConsumer : public ASTConsumer {
public:
  PartitionReadyConsumer(CompilerInstance &Compiler, const ProgramInput &Input,
                         const PreprocessorFacts &Preprocessor,
                         const TranslatedBuildOptions &Options, PartitionReadyProgram &Result)
      : Compiler(Compiler), Input(Input), Preprocessor(Preprocessor), Options(Options),
        Result(Result) {}

  void HandleTranslationUnit(ASTContext &Context) override {
    if (Context.getDiagnostics().hasErrorOccurred())
      return;
    const SourceManager &SM = Context.getSourceManager();
    ProgramFacts Program = collectProgramFacts(Context);
    ThreadingPlan Plan = planThreading(Program, Preprocessor);
    std::vector<std::string> &Problems = Plan.ProgramProblems;
    if (!Options.Unsupported.empty())
      Problems.insert(Problems.begin(), Options.Unsupported);
    checkReservedPrefix(SM, Preprocessor, Input, Problems);

    Rewriter Rewrite(Compiler.getSourceManager(), Compiler.getLangOpts());
    if (Problems.empty())
      Problems = rewriteSignatures(Rewrite, Program, Plan);

    if (!Problems.empty()) {
      Result.ProgramReason = Problems.front();
      if (Problems.size() > 1)
        Result.ProgramReason += " (and " + std::to_string(Problems.size() - 1) + " more)";
    } else {
      Result.Rewritten = true;
      PresumedLoc Main = SM.getPresumedLoc(SM.getLocForStartOfFile(SM.getMainFileID()));
      Result.Source =
          buildPrelude(Program, Plan, Main.getFilename()) + flattenIncludes(Rewrite, Preprocessor);
    }

    for (const KernelVerdict &Verdict : Plan.Kernels) {
      KernelEntry Entry;
      Entry.Name = Verdict.Name;
      Entry.NumArgs = Verdict.NumArgs;
      Entry.Splittable = Result.Rewritten && Verdict.Problem.empty();
      Entry.OffsetExact = Entry.Splittable && Verdict.OffsetExact;
      if (!Result.Rewritten)
        Entry.Reason = "the program was rejected: " + Result.ProgramReason;
      else
        Entry.Reason = Verdict.Problem;
      Result.Kernels.push_back(std::move(Entry));
    }
  }

private:
  CompilerInstance &Compiler;
  const ProgramInput &Input;
  const PreprocessorFacts &Preprocessor;
  const TranslatedBuildOptions &Options;
  PartitionReadyProgram &Result;
};

class PartitionReadyAction : public ASTFrontendAction {
public:
  PartitionReadyAction(const ProgramInput &Input, const TranslatedBuildOptions &Options,
                       PartitionReadyProgram &Result)
      : Input(Input), Options(Options), Result(Result) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 llvm::StringRef) override {
    Compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorRecorder>(Compiler.getSourceManager(), Preprocessor));
    return std::make_unique<PartitionReadyConsumer>(Compiler, Input, Preprocessor, Options, Result);
  }

private:
  const ProgramInput &Input;
  const TranslatedBuildOptions &Options;
  PartitionReadyProgram &Result;
  PreprocessorFacts Preprocessor;
};

} // namespace

PartitionReadyProgram makePartitionReady(const ProgramInput &Input,
                                         llvm::raw_ostream &Diagnostics) {
  PartitionReadyProgram Result;
  TranslatedBuildOptions Options = translateBuildOptions(Input.BuildOptions);
  PartitionReadyAction Action(Input, Options, Result);
  Result.Compiled =
      runOpenCLFrontend(Input.Source, Input.Path, Options.ClangArgs, Action, Diagnostics);
  if (!Result.Compiled) {
    Result.Rewritten = false;
    Result.Source.clear();
    Result.Kernels.clear();
  }
  return Result;
}

} // namespace libsplit
