//===- OpenCLFrontend.cpp - Run Clang on an OpenCL C program from memory --===//

#include "OpenCLFrontend.h"

#include "EmbeddedHeaders.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

namespace libsplit {

using namespace clang;

namespace {

/// The real file system, with the program and Clang's OpenCL header on top.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeFileSystem(llvm::StringRef Source,
                                                               llvm::StringRef Path) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real = llvm::vfs::getRealFileSystem();
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Real);
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  // Relative paths (the program's, -I options) mean the same in both layers.
  if (llvm::ErrorOr<std::string> WorkingDir = Real->getCurrentWorkingDirectory())
    Memory->setCurrentWorkingDirectory(*WorkingDir);
  llvm::SmallString<256> Header(clangResourceDir());
  llvm::sys::path::append(Header, "include", "opencl-c-base.h");
  Memory->addFile(Header, 0, llvm::MemoryBuffer::getMemBuffer(openclBaseHeader(), Header));
  Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Source, Path));
  Overlay->pushOverlay(Memory);
  return Overlay;
}

} // namespace

bool runOpenCLFrontend(llvm::StringRef Source, llvm::StringRef Path,
                       llvm::ArrayRef<std::string> ClangArgs, FrontendAction &Action,
                       llvm::raw_ostream &Diagnostics) {
  std::string ResourceDir = clangResourceDir().str();
  std::vector<std::string> Args = {"-triple",
                                   "spir64-unknown-unknown",
                                   "-x",
                                   "cl",
                                   "-fsyntax-only",
                                   "-fdeclare-opencl-builtins",
                                   "-finclude-default-header",
                                   "-resource-dir",
                                   ResourceDir,
                                   "-w"};
  Args.insert(Args.end(), ClangArgs.begin(), ClangArgs.end());
  Args.push_back(Path.str());
  std::vector<const char *> ArgPointers;
  for (const std::string &Arg : Args)
    ArgPointers.push_back(Arg.c_str());

  auto Invocation = std::make_shared<CompilerInvocation>();
  {
    llvm::IntrusiveRefCntPtr<DiagnosticOptions> Options = new DiagnosticOptions;
    llvm::IntrusiveRefCntPtr<DiagnosticsEngine> ArgDiagnostics =
        CompilerInstance::createDiagnostics(Options.get(),
                                            new TextDiagnosticPrinter(Diagnostics, Options.get()));
    if (!CompilerInvocation::CreateFromArgs(*Invocation, ArgPointers, *ArgDiagnostics))
      return false;
  }

  CompilerInstance Compiler;
  Compiler.setInvocation(std::move(Invocation));
  Compiler.createDiagnostics(new TextDiagnosticPrinter(Diagnostics, &Compiler.getDiagnosticOpts()),
                             /*ShouldOwnClient=*/true);
  Compiler.createFileManager(makeFileSystem(Source, Path));
  bool Succeeded = Compiler.ExecuteAction(Action);
  return Succeeded && !Compiler.getDiagnostics().hasErrorOccurred();
}

} // namespace libsplit
