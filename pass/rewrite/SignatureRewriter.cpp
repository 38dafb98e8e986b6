//===- SignatureRewriter.cpp - Append the split parameters to declarations -===//

#include "SignatureRewriter.h"

#include "PreprocessorRecorder.h"
#include "ProgramFacts.h"
#include "RewriteContract.h"
#include "ThreadingPlan.h"

#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/STLExtras.h"

namespace libsplit {

using namespace clang;

namespace {

/// Edits one declaration; returns an empty string or why it cannot.
std::string rewriteDeclaration(Rewriter &Rewrite, const FunctionDecl &Function,
                               bool ParenthesiseName) {
  const SourceManager &SM = Rewrite.getSourceMgr();
  std::string Where = "the declaration of '" + Function.getNameAsString() + "' (" +
                      describeLocation(SM, Function.getLocation()) + ")";
  FunctionTypeLoc Type = Function.getFunctionTypeLoc();
  if (!Type)
    return Where + " has no parameter list of its own (declared through a typedef?)";
  SourceLocation LParen = Type.getLParenLoc();
  SourceLocation RParen = Type.getRParenLoc();
  if (!LParen.isFileID() || !RParen.isFileID() || SM.getFileID(LParen) != SM.getFileID(RParen))
    return Where + " has a parameter list written by a macro";

  if (Function.getNumParams() == 0) {
    // "()" or "(void)": the parameters replace what is between the parens.
    unsigned Begin = SM.getFileOffset(LParen) + 1;
    unsigned End = SM.getFileOffset(RParen);
    llvm::StringRef Inside =
        SM.getBufferData(SM.getFileID(LParen)).substr(Begin, End - Begin).trim();
    if (!Inside.empty() && Inside != "void")
      return Where + " has an empty parameter list spelled '" + Inside.str() + "'";
    if (Rewrite.ReplaceText(LParen.getLocWithOffset(1), End - Begin, appendedParamDecls(false)))
      return Where + " cannot be edited";
  } else if (Rewrite.InsertTextBefore(RParen, appendedParamDecls(true))) {
    return Where + " cannot be edited";
  }

  if (ParenthesiseName) {
    SourceLocation Name = Function.getLocation();
    if (!Name.isFileID())
      return Where + " has its name written by a macro";
    if (Rewrite.InsertTextBefore(Name, "(") || Rewrite.InsertTextAfterToken(Name, ")"))
      return Where + " cannot be edited";
  }
  return "";
}

} // namespace

std::vector<std::string> rewriteSignatures(Rewriter &Rewrite, const ProgramFacts &Program,
                                           const ThreadingPlan &Plan) {
  std::vector<std::string> Problems;
  for (const FunctionDecl *Function : Program.UserDecls) {
    std::string Name = Function->getNameAsString();
    if (!Plan.Threaded.count(Name))
      continue;
    std::string Problem =
        rewriteDeclaration(Rewrite, *Function, llvm::is_contained(Plan.CallMacros, Name));
    if (!Problem.empty())
      Problems.push_back(std::move(Problem));
  }
  return Problems;
}

} // namespace libsplit
