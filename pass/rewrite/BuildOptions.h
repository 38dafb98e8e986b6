//===- BuildOptions.h - The app's clBuildProgram options for Clang ---------===//
//
// The app's build options decide how its source preprocesses (-D, -U, -I) and
// which OpenCL C it is (-cl-std=). The rewrite must parse the source exactly
// as the vendor will, so those options are forwarded to Clang; the others
// (optimisation and vendor flags) do not change the source's meaning and are
// dropped, since Clang would reject the vendor-specific ones.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_BUILDOPTIONS_H
#define LIBSPLIT_PASS_REWRITE_BUILDOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace libsplit {

struct TranslatedBuildOptions {
  /// Clang -cc1 arguments, in the app's order.
  std::vector<std::string> ClangArgs;
  /// Non-empty when the options select a language the rewrite does not
  /// handle (C++ for OpenCL); the program is then rejected with this reason.
  std::string Unsupported;
};

/// Splits an options string as clBuildProgram receives it (blank-separated,
/// with shell-like quoting so that -I paths may contain spaces).
std::vector<std::string> splitBuildOptions(llvm::StringRef Options);

TranslatedBuildOptions translateBuildOptions(llvm::ArrayRef<std::string> Options);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_BUILDOPTIONS_H
