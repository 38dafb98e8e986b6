//===- ThreadingPlan.h - Which functions get the appended parameters -------===//
//
// The rewrite keeps every function body byte for byte: rewritten builtins and
// calls of threaded functions become macros (see Prelude.h) that name the
// appended parameters. So every function whose body expands such a macro must
// have those parameters in scope. This file decides which functions that is
// (kernels, and every function calling a rewritten builtin or a threaded
// function, transitively), which names need a call macro, and which kernels
// may be split.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_THREADINGPLAN_H
#define LIBSPLIT_PASS_REWRITE_THREADINGPLAN_H

#include "ProgramFacts.h"

#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace libsplit {

struct PreprocessorFacts;

struct KernelVerdict {
  std::string Name;
  unsigned NumArgs = 0;
  /// Empty when the kernel may be split; otherwise why not, on one line.
  std::string Problem;
  /// The kernel reaches no rewritten builtin: its own code, launched with a
  /// global work offset over some of its work-groups, runs exactly those.
  bool OffsetExact = false;
};

struct ThreadingPlan {
  /// Names whose every declaration gets the appended parameters.
  llvm::StringSet<> Threaded;
  /// Threaded names that are called somewhere: each gets a call macro that
  /// appends the arguments, and a parenthesised name in its declarators so
  /// the macro does not touch them. In first-seen order, for stable output.
  std::vector<std::string> CallMacros;
  std::vector<KernelVerdict> Kernels;
  /// Reasons why no kernel can be split (the output is then not usable).
  std::vector<std::string> ProgramProblems;
};

ThreadingPlan planThreading(const ProgramFacts &Program, const PreprocessorFacts &Preprocessor);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_THREADINGPLAN_H
