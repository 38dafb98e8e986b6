//===- IncludeFlattener.cpp - Inline the user's #include files --------------===//

#include "IncludeFlattener.h"

#include "PreprocessorRecorder.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

namespace libsplit {

using namespace clang;

namespace {

/// The inclusions to inline, in preprocessing order (an includer always comes
/// before the files it includes).
std::vector<const Inclusion *> inlinedInclusions(const SourceManager &SM,
                                                 const PreprocessorFacts &Preprocessor) {
  llvm::DenseSet<FileID> Output{SM.getMainFileID()};
  std::vector<const Inclusion *> Inlined;
  for (const Inclusion &Directive : Preprocessor.Inclusions) {
    if (Directive.IsSystem || !Output.count(Directive.Includer))
      continue;
    Inlined.push_back(&Directive);
    if (Directive.Included.isValid())
      Output.insert(Directive.Included);
  }
  return Inlined;
}

std::string fileText(const Rewriter &Rewrite, FileID File) {
  if (const RewriteBuffer *Buffer = Rewrite.getRewriteBufferFor(File))
    return std::string(Buffer->begin(), Buffer->end());
  return Rewrite.getSourceMgr().getBufferData(File).str();
}

std::string lineDirective(unsigned Line, llvm::StringRef File) {
  return "#line " + std::to_string(Line) + " \"" + escapeForLineDirective(File) + "\"\n";
}

bool isPragmaOnce(llvm::StringRef Line) {
  Line = Line.trim();
  if (!Line.consume_front("#"))
    return false;
  Line = Line.ltrim();
  if (!Line.consume_front("pragma") || Line.empty() || !llvm::isSpace(Line.front()))
    return false;
  return Line.trim() == "once";
}

/// Disables each "#pragma once" line of an inlined file: in the flattened
/// text it would sit in the main file, where compilers warn about it, and it
/// is not needed since a skipped inclusion is not inlined at all. Done on the
/// text, so a match inside a comment or a disabled branch is possible; the
/// replacement is harmless there too: a null directive with a line comment
/// (no "*/" that could close an enclosing block comment).
void disablePragmaOnce(Rewriter &Rewrite, FileID File) {
  llvm::StringRef Text = Rewrite.getSourceMgr().getBufferData(File);
  size_t LineStart = 0;
  while (LineStart < Text.size()) {
    size_t LineEnd = Text.find('\n', LineStart);
    if (LineEnd == llvm::StringRef::npos)
      LineEnd = Text.size();
    llvm::StringRef Line = Text.slice(LineStart, LineEnd).rtrim('\r');
    if (isPragmaOnce(Line))
      Rewrite.ReplaceText(Rewrite.getSourceMgr().getComposedLoc(File, LineStart), Line.size(),
                          "# // #pragma once: file inlined by libsplit-cc");
    LineStart = LineEnd + 1;
  }
}

} // namespace

std::string escapeForLineDirective(llvm::StringRef Name) {
  std::string Escaped;
  for (char C : Name) {
    if (C == '\\' || C == '"')
      Escaped += '\\';
    Escaped += C;
  }
  return Escaped;
}

std::vector<FileID> outputFiles(const SourceManager &SM, const PreprocessorFacts &Preprocessor) {
  std::vector<FileID> Files{SM.getMainFileID()};
  for (const Inclusion *Directive : inlinedInclusions(SM, Preprocessor))
    if (Directive->Included.isValid())
      Files.push_back(Directive->Included);
  return Files;
}

std::string flattenIncludes(Rewriter &Rewrite, const PreprocessorFacts &Preprocessor) {
  const SourceManager &SM = Rewrite.getSourceMgr();
  std::vector<const Inclusion *> Inlined = inlinedInclusions(SM, Preprocessor);
  for (const Inclusion *Directive : Inlined)
    if (Directive->Included.isValid())
      disablePragmaOnce(Rewrite, Directive->Included);
  // Innermost first: a file's text is final once its own directives are done.
  for (auto It = Inlined.rbegin(); It != Inlined.rend(); ++It) {
    const Inclusion &Directive = **It;
    SourceLocation Begin = SM.getComposedLoc(Directive.Includer, Directive.Begin);
    llvm::StringRef Original = SM.getBufferData(Directive.Includer)
                                   .substr(Directive.Begin, Directive.End - Directive.Begin);
    // The original directive stays visible, disabled, for the reader.
    std::string Replacement =
        "#if 0 /* libsplit-cc: inlined below */\n" + Original.str() + "\n#endif\n";
    if (Directive.Included.isValid()) {
      PresumedLoc Start = SM.getPresumedLoc(SM.getLocForStartOfFile(Directive.Included));
      Replacement += lineDirective(1, Start.getFilename());
      std::string Text = fileText(Rewrite, Directive.Included);
      if (!Text.empty() && Text.back() != '\n')
        Text += '\n';
      Replacement += Text;
    } else {
      Replacement += "/* libsplit-cc: skipped here (#pragma once or include guard) */\n";
    }
    // Back to the includer, on the line after the directive.
    PresumedLoc After = SM.getPresumedLoc(SM.getComposedLoc(Directive.Includer, Directive.End));
    std::string Resume = lineDirective(After.getLine() + 1, After.getFilename());
    if (Directive.End < SM.getBufferData(Directive.Includer).size())
      Resume.pop_back(); // The directive's own newline follows.
    Replacement += Resume;
    Rewrite.ReplaceText(Begin, Directive.End - Directive.Begin, Replacement);
  }
  return fileText(Rewrite, SM.getMainFileID());
}

} // namespace libsplit
