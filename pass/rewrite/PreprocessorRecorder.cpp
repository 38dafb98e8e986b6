//===- PreprocessorRecorder.cpp - What the preprocessor did ----------------===//

#include "PreprocessorRecorder.h"

#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Token.h"

namespace libsplit {

using namespace clang;

unsigned findDirectiveEnd(llvm::StringRef Text, unsigned Begin) {
  unsigned I = Begin;
  while (I < Text.size()) {
    char C = Text[I];
    if (C == '\n')
      return (I > Begin && Text[I - 1] == '\r') ? I - 1 : I;
    if (C == '\\' && I + 1 < Text.size() && (Text[I + 1] == '\n' || Text[I + 1] == '\r')) {
      I += (Text[I + 1] == '\r' && I + 2 < Text.size() && Text[I + 2] == '\n') ? 3 : 2;
      continue;
    }
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '*') {
      // A block comment is one blank, even when it spans lines.
      size_t Close = Text.find("*/", I + 2);
      I = Close == llvm::StringRef::npos ? Text.size() : Close + 2;
      continue;
    }
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '/') {
      size_t Newline = Text.find('\n', I);
      I = Newline == llvm::StringRef::npos ? Text.size() : Newline;
      continue;
    }
    if (C == '"' || C == '<') {
      // A header name: "//" or "/*" inside it is not a comment.
      char Close = C == '"' ? '"' : '>';
      unsigned Stop = I + 1;
      while (Stop < Text.size() && Text[Stop] != Close && Text[Stop] != '\n')
        ++Stop;
      if (Stop < Text.size() && Text[Stop] == Close) {
        I = Stop + 1;
        continue;
      }
    }
    ++I;
  }
  return Text.size();
}

std::string describeLocation(const SourceManager &SM, SourceLocation Loc) {
  PresumedLoc Presumed = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (Presumed.isInvalid())
    return "<unknown>";
  return std::string(Presumed.getFilename()) + ":" + std::to_string(Presumed.getLine());
}

void PreprocessorRecorder::InclusionDirective(SourceLocation HashLoc, const Token &,
                                              llvm::StringRef, bool, CharSourceRange,
                                              OptionalFileEntryRef, llvm::StringRef,
                                              llvm::StringRef, const Module *,
                                              SrcMgr::CharacteristicKind FileType) {
  Pending.reset();
  if (HashLoc.isInvalid() || !HashLoc.isFileID())
    return;
  Inclusion Directive;
  std::pair<FileID, unsigned> Decomposed = SM.getDecomposedLoc(HashLoc);
  Directive.Includer = Decomposed.first;
  Directive.Begin = Decomposed.second;
  Directive.End = findDirectiveEnd(SM.getBufferData(Decomposed.first), Decomposed.second);
  Directive.IsSystem = FileType != SrcMgr::C_User;
  Pending = Directive;
}

void PreprocessorRecorder::FileChanged(SourceLocation Loc, FileChangeReason Reason,
                                       SrcMgr::CharacteristicKind, FileID) {
  if (Reason != EnterFile || !Pending)
    return;
  Pending->Included = SM.getFileID(Loc);
  Facts.Inclusions.push_back(*Pending);
  Pending.reset();
}

void PreprocessorRecorder::FileSkipped(const FileEntryRef &, const Token &,
                                       SrcMgr::CharacteristicKind) {
  if (!Pending)
    return;
  Facts.Inclusions.push_back(*Pending);
  Pending.reset();
}

void PreprocessorRecorder::touch(const Token &MacroNameTok) {
  const IdentifierInfo *Name = MacroNameTok.getIdentifierInfo();
  if (!Name)
    return;
  Facts.TouchedMacros.try_emplace(Name->getName(),
                                  describeLocation(SM, MacroNameTok.getLocation()));
}

void PreprocessorRecorder::MacroDefined(const Token &MacroNameTok, const MacroDirective *) {
  touch(MacroNameTok);
}

void PreprocessorRecorder::MacroUndefined(const Token &MacroNameTok, const MacroDefinition &,
                                          const MacroDirective *) {
  touch(MacroNameTok);
}

void PreprocessorRecorder::Defined(const Token &MacroNameTok, const MacroDefinition &,
                                   SourceRange) {
  touch(MacroNameTok);
}

void PreprocessorRecorder::Ifdef(SourceLocation, const Token &MacroNameTok,
                                 const MacroDefinition &) {
  touch(MacroNameTok);
}

void PreprocessorRecorder::Ifndef(SourceLocation, const Token &MacroNameTok,
                                  const MacroDefinition &) {
  touch(MacroNameTok);
}

void PreprocessorRecorder::Elifdef(SourceLocation, const Token &MacroNameTok,
                                   const MacroDefinition &) {
  touch(MacroNameTok);
}

void PreprocessorRecorder::Elifndef(SourceLocation, const Token &MacroNameTok,
                                    const MacroDefinition &) {
  touch(MacroNameTok);
}

} // namespace libsplit
