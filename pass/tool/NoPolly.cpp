//===- NoPolly.cpp - Polly's plugin entry point, empty ---------------------===//
//
// Only in the static build (LIBSPLIT_CC_STATIC): Debian builds Clang with Polly linked into
// its tools, so the static libclangCodeGen.a refers to getPollyPluginInfo(), but the package
// ships no static Polly. libsplit-cc never runs Polly; an empty plugin satisfies the link.
//
//===----------------------------------------------------------------------===//

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly (not linked)", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &) {}};
}
