//===- LibsplitCC.cpp - libsplit-cc: the kernel compiler's driver ---------===//
//
// Runs as a child process of the runtime (never inside the app: see
// ../README.md for why LLVM must stay out of the app's process). Reads the
// program, writes the partition-ready source, the kernel list and the region
// summaries (or explains them).
//
//===----------------------------------------------------------------------===//

#include "KernelList.h"
#include "PartitionReady.h"
#include "ToolOptions.h"

#include "Explain.h"
#include "ProgramRegions.h"

#include "libsplit/analysis/summary_text.hpp"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace libsplit;

namespace {

enum ExitCode { Success = 0, DoesNotCompile = 1, UsageOrIOError = 2 };

/// Writes through a temporary file renamed into place, so that a reader (or
/// a concurrent run) never sees a half-written output.
bool writeOutput(const std::string &Path, llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  llvm::Error Failure = llvm::writeToOutput(Path, [&](llvm::raw_ostream &Out) {
    Write(Out);
    return llvm::Error::success();
  });
  if (!Failure)
    return true;
  llvm::errs() << "libsplit-cc: cannot write '" << Path
               << "': " << llvm::toString(std::move(Failure)) << "\n";
  return false;
}

/// \p Text with every "*/" broken, to sit inside a C comment.
std::string commentSafe(std::string Text) {
  for (size_t At = Text.find("*/"); At != std::string::npos; At = Text.find("*/", At))
    Text.insert(At + 1, " ");
  return Text;
}

} // namespace

int main(int Argc, char **Argv) {
  ToolOptions Options;
  std::string Error = parseToolOptions(Argc, Argv, Options);
  if (!Error.empty()) {
    llvm::errs() << "libsplit-cc: " << Error << "\n" << ToolUsage;
    return UsageOrIOError;
  }
  if (Options.Help) {
    llvm::outs() << ToolUsage;
    return Success;
  }
  if (Options.Version) {
    llvm::outs() << "libsplit-cc " LIBSPLIT_VERSION " (Clang " LIBSPLIT_CLANG_VERSION ")\n";
    return Success;
  }

  ProgramInput Input;
  Input.Path = Options.ParseName;
  Input.BuildOptions = Options.BuildOptions;
  for (const std::string &Path : Options.Inputs) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
        llvm::MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false);
    if (!Buffer) {
      llvm::errs() << "libsplit-cc: cannot read '" << Path << "': " << Buffer.getError().message()
                   << "\n";
      return UsageOrIOError;
    }
    Input.Source += (*Buffer)->getBuffer();
  }

  PartitionReadyProgram Program = makePartitionReady(Input, llvm::errs());
  if (!Program.Compiled)
    return DoesNotCompile;

  if (!Options.SourceOutput.empty() &&
      !writeOutput(Options.SourceOutput, [&](llvm::raw_ostream &Out) {
        if (Program.Rewritten)
          Out << Program.Source;
        else
          Out << "/* libsplit-cc: no partition-ready source: " << commentSafe(Program.ProgramReason)
              << " */\n";
      }))
    return UsageOrIOError;
  if (!Options.KernelListOutput.empty() &&
      !writeOutput(Options.KernelListOutput,
                   [&](llvm::raw_ostream &Out) { writeKernelList(Out, Program); }))
    return UsageOrIOError;
  if (!Options.SummaryOutput.empty() || Options.Explain) {
    analysis::ProgramSummary Summary = regions::analyzeProgram(Input, Program, llvm::errs());
    if (!Options.SummaryOutput.empty() &&
        !writeOutput(Options.SummaryOutput,
                     [&](llvm::raw_ostream &Out) { Out << analysis::toText(Summary); }))
      return UsageOrIOError;
    if (Options.Explain)
      regions::explainProgram(Summary, llvm::outs());
  }
  return Success;
}
