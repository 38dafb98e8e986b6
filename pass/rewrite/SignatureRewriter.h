//===- SignatureRewriter.h - Append the split parameters to declarations ---===//
//
// The only edits made inside the user's text: every declaration of a threaded
// function gets the appended parameters before its ')', and, when the name has
// a call macro, its name is parenthesised ("float (helper)(...)") so that the
// function-like macro leaves the declarator alone. Bodies are not touched.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_SIGNATUREREWRITER_H
#define LIBSPLIT_PASS_REWRITE_SIGNATUREREWRITER_H

#include <string>
#include <vector>

namespace clang {
class Rewriter;
} // namespace clang

namespace libsplit {

struct ProgramFacts;
struct ThreadingPlan;

/// Records the edits in \p Rewrite. Returns why some declaration could not be
/// edited (its parameter list or name comes from a macro, ...); the program
/// must then be rejected, since a half-rewritten program would not compile.
std::vector<std::string> rewriteSignatures(clang::Rewriter &Rewrite, const ProgramFacts &Program,
                                           const ThreadingPlan &Plan);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_SIGNATUREREWRITER_H
