//===- PreprocessorRecorder.h - What the preprocessor did, for the rewrite -===//
//
// Two facts only the preprocessor sees:
//  - which #include directives were followed, and into which FileID, so that
//    the output can inline them (see IncludeFlattener.h);
//  - which macro names the source defines, undefines or tests, because the
//    rewrite works by defining macros named after builtins and helpers, and a
//    source that touches such a name would behave differently.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_PREPROCESSORRECORDER_H
#define LIBSPLIT_PASS_REWRITE_PREPROCESSORRECORDER_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
} // namespace clang

namespace libsplit {

/// One #include directive that the preprocessor followed or skipped.
struct Inclusion {
  /// The file holding the directive.
  clang::FileID Includer;
  /// Offsets of the directive in the includer: from '#' to the end of its
  /// logical line, newline excluded.
  unsigned Begin = 0;
  unsigned End = 0;
  /// The included file; invalid when the preprocessor skipped it (include
  /// guard already defined, #pragma once).
  clang::FileID Included;
  /// Found in a system directory (Clang's own headers): left as a directive.
  bool IsSystem = false;
};

struct PreprocessorFacts {
  /// In the order the directives were processed.
  std::vector<Inclusion> Inclusions;
  /// Macro names defined, undefined or tested (#ifdef, defined()), with the
  /// first place where that happened ("file:line").
  llvm::StringMap<std::string> TouchedMacros;
};

/// Fills a PreprocessorFacts owned by the caller (the Preprocessor owns the
/// callbacks object and outlives nothing we need).
class PreprocessorRecorder : public clang::PPCallbacks {
public:
  PreprocessorRecorder(const clang::SourceManager &SM, PreprocessorFacts &Facts)
      : SM(SM), Facts(Facts) {}

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef RelativePath,
                          const clang::Module *Imported,
                          clang::SrcMgr::CharacteristicKind FileType) override;
  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind FileType, clang::FileID PrevFID) override;
  void FileSkipped(const clang::FileEntryRef &SkippedFile, const clang::Token &FilenameTok,
                   clang::SrcMgr::CharacteristicKind FileType) override;

  void MacroDefined(const clang::Token &MacroNameTok, const clang::MacroDirective *MD) override;
  void MacroUndefined(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
                      const clang::MacroDirective *Undef) override;
  void Defined(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
               clang::SourceRange Range) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
             const clang::MacroDefinition &MD) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
              const clang::MacroDefinition &MD) override;
  void Elifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
               const clang::MacroDefinition &MD) override;
  void Elifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
                const clang::MacroDefinition &MD) override;

private:
  void touch(const clang::Token &MacroNameTok);

  const clang::SourceManager &SM;
  PreprocessorFacts &Facts;
  /// The directive seen last, waiting to learn whether its file is entered.
  std::optional<Inclusion> Pending;
};

/// End offset (exclusive, before the newline) of the preprocessor directive
/// starting at \p Begin in \p Text: follows backslash-newlines, and comments
/// and quoted names that may hide a newline or a comment opener.
unsigned findDirectiveEnd(llvm::StringRef Text, unsigned Begin);

/// "file:line" of \p Loc as the user sees it (honours #line).
std::string describeLocation(const clang::SourceManager &SM, clang::SourceLocation Loc);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_PREPROCESSORRECORDER_H
