//===- Prelude.h - Macros and functions placed before the user's text -----===//
//
// The rewrite works through the preprocessor rather than by editing bodies:
// the prelude redefines each rewritten builtin as a function-like macro that
// calls a prelude function with the appended parameters
//   #define get_group_id(d) __libsplit_group_id((d), __libsplit_splitdim, ...)
// and defines a call macro for each threaded function that is called
//   #define helper(...) helper(__VA_ARGS__, __libsplit_splitdim, ...)
// so that uses written inside the app's own macros, -D options or headers are
// rewritten exactly like direct ones. The macros name the appended parameters
// by their fixed names, which are in scope in every threaded function; a use
// anywhere else (for instance in a preprocessor branch the vendor takes and
// Clang did not) refers to an undeclared identifier and fails to compile,
// which the runtime notices, rather than computing a wrong value.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_PRELUDE_H
#define LIBSPLIT_PASS_REWRITE_PRELUDE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace libsplit {

struct ProgramFacts;
struct ThreadingPlan;

/// The text to put before the (edited, flattened) main file, ending with a
/// #line directive that restores the main file's name and line 1.
std::string buildPrelude(const ProgramFacts &Program, const ThreadingPlan &Plan,
                         llvm::StringRef MainFileName);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_PRELUDE_H
