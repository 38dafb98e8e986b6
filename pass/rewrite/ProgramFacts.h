//===- ProgramFacts.h - Call graph and builtin uses of an OpenCL program ---===//
//
// What the rewrite needs to know about the parsed program, collected in one
// walk over the AST: for every user function (by name, since the rewrite's
// call macros work by name), whether it is a kernel, which rewritten builtins
// and which user functions it calls, and any construct that makes the
// kernels reaching it unsafe to split.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_PROGRAMFACTS_H
#define LIBSPLIT_PASS_REWRITE_PROGRAMFACTS_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace libsplit {

/// Everything known about the user functions of one name (all overloads and
/// redeclarations together).
struct FunctionFacts {
  bool IsKernel = false;
  /// Some declaration of this name has no parameters / has parameters: a
  /// call macro can only serve one of the two shapes.
  bool HasNullaryDecl = false;
  bool HasParamDecl = false;
  /// Calls a builtin of RewriteContract.h directly.
  bool CallsRewrittenBuiltin = false;
  /// User functions called by name, in first-call order.
  llvm::SmallVector<std::string, 4> Callees;
  /// Reasons why a kernel reaching this function must not be split.
  std::vector<std::string> Problems;
};

struct KernelFacts {
  std::string Name;
  unsigned NumArgs = 0;
};

struct ProgramFacts {
  /// In first-seen order, so that every output is stable.
  llvm::MapVector<std::string, FunctionFacts, std::map<std::string, unsigned>> Functions;
  /// Kernel definitions in source order.
  std::vector<KernelFacts> Kernels;
  /// Every declaration (not only definitions) of a user function.
  std::vector<const clang::FunctionDecl *> UserDecls;
  /// Names of non-user functions (OpenCL builtins) the program calls.
  llvm::StringSet<> BuiltinNamesCalled;
  /// Reasons why no kernel of this program can be split.
  std::vector<std::string> ProgramProblems;
};

ProgramFacts collectProgramFacts(clang::ASTContext &Context);

/// A function written by the user, as opposed to an OpenCL builtin (declared
/// implicitly by Clang or in a system header).
bool isUserFunction(const clang::FunctionDecl &Function);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_PROGRAMFACTS_H
