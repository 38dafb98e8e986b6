//===- ToolOptions.cpp - Command line of libsplit-cc -----------------------===//

#include "ToolOptions.h"

#include "BuildOptions.h"

#include "llvm/ADT/StringRef.h"

namespace libsplit {

const char ToolUsage[] =
    R"(Usage: libsplit-cc [options] <input.cl>... [-- <build option>...]

Writes the partition-ready OpenCL C source of the program made of the inputs
(concatenated without separator, as clCreateProgramWithSource does), the list
of its kernels and the region summary of each kernel. The rewrite contract and
the list format are in pass/README.md, the summary format in analysis/README.md.

Options:
  -o <file>                 partition-ready source ("-": standard output, the
                            default when no other output is asked for)
  --kernels <file>          kernel list ("-": standard output)
  --summary <file>          region summaries, format libsplit-summary 3: what
                            each kernel reads and writes of each buffer ("-":
                            standard output)
  --explain                 print, per kernel, the regions in readable form,
                            the dimensions that split with disjoint writes on a
                            representative launch, or why the kernel cannot be
                            split (standard output)
  --build-options <text>    the app's clBuildProgram options as one string;
                            options after "--" are added one per argument
  --name <path>             path the program is parsed under: its directory is
                            searched first by quoted #includes, and it names the
                            main file in diagnostics and #line (default: the only
                            input, else "program.cl")
  -                         read the program from standard input
  --help, --version

Exit status: 0 outputs written (some kernels may be unsplittable, see the list
and the summary), 1 the program does not compile (Clang's diagnostics on
standard error), 2 usage or I/O error.
)";

std::string parseToolOptions(int Argc, const char *const *Argv, ToolOptions &Options) {
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    auto Value = [&](std::string &Into) -> bool {
      if (I + 1 >= Argc)
        return false;
      Into = Argv[++I];
      return true;
    };
    if (Arg == "--") {
      for (++I; I < Argc; ++I)
        Options.BuildOptions.push_back(Argv[I]);
      break;
    }
    if (Arg == "-h" || Arg == "--help") {
      Options.Help = true;
    } else if (Arg == "--version") {
      Options.Version = true;
    } else if (Arg == "-o") {
      if (!Value(Options.SourceOutput))
        return "-o needs a file name";
    } else if (Arg == "--kernels") {
      if (!Value(Options.KernelListOutput))
        return "--kernels needs a file name";
    } else if (Arg == "--summary") {
      if (!Value(Options.SummaryOutput))
        return "--summary needs a file name";
    } else if (Arg == "--explain") {
      Options.Explain = true;
    } else if (Arg == "--name") {
      if (!Value(Options.ParseName))
        return "--name needs a path";
    } else if (Arg == "--build-options") {
      std::string Text;
      if (!Value(Text))
        return "--build-options needs a string";
      for (std::string &Option : splitBuildOptions(Text))
        Options.BuildOptions.push_back(std::move(Option));
    } else if (Arg.startswith("-") && Arg != "-") {
      return "unknown option '" + Arg.str() + "' (build options go after --)";
    } else {
      Options.Inputs.push_back(Arg.str());
    }
  }
  if (Options.Help || Options.Version)
    return "";
  if (Options.Inputs.empty())
    return "no input";
  if (Options.SourceOutput.empty() && Options.KernelListOutput.empty() &&
      Options.SummaryOutput.empty() && !Options.Explain)
    Options.SourceOutput = "-";
  const int ToStdout = (Options.SourceOutput == "-") + (Options.KernelListOutput == "-") +
                       (Options.SummaryOutput == "-") + Options.Explain;
  if (ToStdout > 1)
    return "only one of -o, --kernels, --summary and --explain can use standard output";
  if (Options.ParseName.empty())
    Options.ParseName =
        (Options.Inputs.size() == 1 && Options.Inputs[0] != "-") ? Options.Inputs[0] : "program.cl";
  return "";
}

} // namespace libsplit
