//===- IncludeFlattener.h - Inline the user's #include files ----------------===//
//
// The partition-ready source must be one self-contained text: the vendor
// compiles it from a string, and helpers declared in the app's headers need
// edits too. Every #include that the preprocessor followed into a user file is
// replaced by that file's (edited) text between #line directives, so that
// diagnostics and __FILE__/__LINE__ still name the original files and lines.
//
// Unlike clang -frewrite-includes, conditionals are left alone: an #if on a
// vendor macro (__NV_CL_C_VERSION, cl_khr_fp64, ...) must be decided by the
// vendor's compiler, not by ours. An #include inside a branch Clang did not take
// stays a directive, resolved by the vendor with the app's own -I options.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_INCLUDEFLATTENER_H
#define LIBSPLIT_PASS_REWRITE_INCLUDEFLATTENER_H

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class Rewriter;
} // namespace clang

namespace libsplit {

struct PreprocessorFacts;

/// The main file followed by every user file it includes, directly or not:
/// the files whose text ends up in the output.
std::vector<clang::FileID> outputFiles(const clang::SourceManager &SM,
                                       const PreprocessorFacts &Preprocessor);

/// Applies the inlining to \p Rewrite (after all other edits) and returns the
/// main file's final text.
std::string flattenIncludes(clang::Rewriter &Rewrite, const PreprocessorFacts &Preprocessor);

/// \p Name as a C string literal body (backslashes and quotes escaped).
std::string escapeForLineDirective(llvm::StringRef Name);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_INCLUDEFLATTENER_H
