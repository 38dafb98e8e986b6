//===- BuildOptions.cpp - The app's clBuildProgram options for Clang -------===//

#include "BuildOptions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

namespace libsplit {

std::vector<std::string> splitBuildOptions(llvm::StringRef Options) {
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver(Allocator);
  llvm::SmallVector<const char *, 16> Tokens;
  llvm::cl::TokenizeGNUCommandLine(Options, Saver, Tokens);
  return std::vector<std::string>(Tokens.begin(), Tokens.end());
}

TranslatedBuildOptions translateBuildOptions(llvm::ArrayRef<std::string> Options) {
  TranslatedBuildOptions Result;
  for (size_t I = 0; I < Options.size(); ++I) {
    llvm::StringRef Option = Options[I];
    // -D, -U and -I take their value joined or as the next option.
    for (llvm::StringRef Flag : {"-D", "-U", "-I"}) {
      if (!Option.startswith(Flag))
        continue;
      Result.ClangArgs.push_back(Flag.str());
      if (Option.size() > Flag.size())
        Result.ClangArgs.push_back(Option.drop_front(Flag.size()).str());
      else if (I + 1 < Options.size())
        Result.ClangArgs.push_back(Options[++I]);
      else
        Result.ClangArgs.pop_back(); // A dangling flag: the vendor ignores it too.
      break;
    }
    if (Option.startswith("-cl-std=")) {
      if (Option.contains_insensitive("c++"))
        Result.Unsupported = "C++ for OpenCL (" + Option.str() + ") is not supported";
      Result.ClangArgs.push_back(Option.str());
    } else if (Option == "-cl-fast-relaxed-math") {
      // Defines __FAST_RELAXED_MATH__, which sources may test.
      Result.ClangArgs.push_back(Option.str());
    }
  }
  return Result;
}

} // namespace libsplit
