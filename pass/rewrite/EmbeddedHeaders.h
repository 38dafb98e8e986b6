//===- EmbeddedHeaders.h - Clang's OpenCL header, built into the tool -----===//
//
// Clang needs opencl-c-base.h (the OpenCL C typedefs and macros) to parse any
// kernel. A copy is compiled into libsplit-cc and served from memory, so the
// tool also works where no Clang resource directory is installed (the GPU
// machine has no LLVM development packages).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_EMBEDDEDHEADERS_H
#define LIBSPLIT_PASS_REWRITE_EMBEDDEDHEADERS_H

#include "llvm/ADT/StringRef.h"

namespace libsplit {

/// Clang's resource directory at build time; the embedded header is served
/// under its include/ directory.
llvm::StringRef clangResourceDir();

/// The text of <resource dir>/include/opencl-c-base.h at build time.
llvm::StringRef openclBaseHeader();

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_EMBEDDEDHEADERS_H
