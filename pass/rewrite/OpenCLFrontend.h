//===- OpenCLFrontend.h - Run Clang on an OpenCL C program from memory ----===//
//
// Parses the program the way an OpenCL C compiler would: as OpenCL C for the
// spir64 target, with the OpenCL builtins declared, and with the app's -D, -I
// and -cl-std= options. The source is served from memory under its path, so
// quoted #includes resolve next to it and diagnostics name it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_OPENCLFRONTEND_H
#define LIBSPLIT_PASS_REWRITE_OPENCLFRONTEND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class FrontendAction;
} // namespace clang

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace libsplit {

/// Runs \p Action on \p Source parsed as \p Path. Diagnostics (errors only:
/// warnings are the vendor's business) go to \p Diagnostics. Returns false
/// when the program does not compile.
bool runOpenCLFrontend(llvm::StringRef Source, llvm::StringRef Path,
                       llvm::ArrayRef<std::string> ClangArgs, clang::FrontendAction &Action,
                       llvm::raw_ostream &Diagnostics);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_OPENCLFRONTEND_H
