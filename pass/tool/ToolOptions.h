//===- ToolOptions.h - Command line of libsplit-cc -------------------------===//
//
// Hand-parsed rather than with llvm::cl: everything after "--" is the app's
// build options, passed through untouched, and the runtime that calls this
// tool needs a small, fixed, documented interface.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_TOOL_TOOLOPTIONS_H
#define LIBSPLIT_PASS_TOOL_TOOLOPTIONS_H

#include <string>
#include <vector>

namespace libsplit {

struct ToolOptions {
  std::vector<std::string> Inputs;
  std::vector<std::string> BuildOptions;
  std::string SourceOutput;
  std::string KernelListOutput;
  std::string SummaryOutput;
  std::string ParseName;
  bool Explain = false;
  bool Help = false;
  bool Version = false;
};

/// Fills \p Options from argv; returns an error message, or "" on success.
std::string parseToolOptions(int Argc, const char *const *Argv, ToolOptions &Options);

extern const char ToolUsage[];

} // namespace libsplit

#endif // LIBSPLIT_PASS_TOOL_TOOLOPTIONS_H
