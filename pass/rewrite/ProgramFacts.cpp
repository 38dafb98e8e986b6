//===- ProgramFacts.cpp - Call graph and builtin uses of an OpenCL program -===//

#include "ProgramFacts.h"

#include "PreprocessorRecorder.h"
#include "RewriteContract.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace libsplit {

using namespace clang;

bool isUserFunction(const FunctionDecl &Function) {
  if (Function.isImplicit() || Function.getLocation().isInvalid())
    return false;
  const SourceManager &SM = Function.getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(Function.getLocation()));
}

namespace {

class FactsCollector : public RecursiveASTVisitor<FactsCollector> {
public:
  FactsCollector(ASTContext &Context, ProgramFacts &Facts)
      : SM(Context.getSourceManager()), Facts(Facts) {}

  bool TraverseFunctionDecl(FunctionDecl *Function) {
    std::optional<std::string> Saved = CurrentName;
    if (Function->doesThisDeclarationHaveABody() && isUserFunction(*Function))
      CurrentName = Function->getName().str();
    bool Continue = RecursiveASTVisitor::TraverseFunctionDecl(Function);
    CurrentName = std::move(Saved);
    return Continue;
  }

  bool VisitFunctionDecl(FunctionDecl *Function) {
    if (!isUserFunction(*Function))
      return true;
    std::string Name = Function->getName().str();
    if (const RewrittenBuiltin *Builtin = findRewrittenBuiltin(Name))
      Facts.ProgramProblems.push_back("the program declares its own function '" +
                                      Builtin->Name.str() + "' (" + where(Function) +
                                      "), the name of a rewritten builtin");
    FunctionFacts &Named = Facts.Functions[Name];
    Facts.UserDecls.push_back(Function);
    (Function->getNumParams() == 0 ? Named.HasNullaryDecl : Named.HasParamDecl) = true;
    if (Function->hasAttr<OpenCLKernelAttr>()) {
      Named.IsKernel = true;
      if (Function->doesThisDeclarationHaveABody())
        Facts.Kernels.push_back({Name, Function->getNumParams()});
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *CalleeRef = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
    if (!Callee || !CalleeRef) {
      // The rewrite's macros only see a callee spelled as a name followed by
      // '('; anything else (a block call, a parenthesised name) escapes them.
      problem(Call, "calls a function through an expression that is not its plain name");
      return true;
    }
    DirectCallees.insert(CalleeRef);
    std::string Name = Callee->getName().str();
    if (!isUserFunction(*Callee)) {
      Facts.BuiltinNamesCalled.insert(Name);
      if (findRewrittenBuiltin(Name)) {
        if (FunctionFacts *Caller = current())
          Caller->CallsRewrittenBuiltin = true;
        else
          Facts.ProgramProblems.push_back("'" + Name + "' is used outside any function (" +
                                          where(Call) + ")");
      }
      return true;
    }
    const FunctionDecl *Definition = nullptr;
    if (!Callee->isDefined(Definition))
      problem(Call, "calls '" + Name +
                        "', which is declared but not defined in this program (code "
                        "compiled separately cannot be rewritten)");
    FunctionFacts *Caller = current();
    if (!Caller) {
      Facts.ProgramProblems.push_back("'" + Name + "' is called outside any function (" +
                                      where(Call) + ")");
      return true;
    }
    if (!llvm::is_contained(Caller->Callees, Name))
      Caller->Callees.push_back(Name);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    // Visited after the enclosing CallExpr, so direct callees are known.
    if (isa<FunctionDecl>(Ref->getDecl()) && !DirectCallees.count(Ref))
      problem(Ref, "refers to function '" + Ref->getDecl()->getNameAsString() +
                       "' other than by calling it");
    return true;
  }

  bool VisitBlockExpr(BlockExpr *Block) {
    problem(Block, "uses a block (device-side enqueue): work-item builtins inside a block "
                   "describe the NDRange it is enqueued with, not the kernel's");
    return true;
  }

private:
  template <typename Node> std::string where(const Node *N) const {
    return describeLocation(SM, N->getBeginLoc());
  }

  template <typename Node> void problem(const Node *N, const std::string &What) {
    if (FunctionFacts *Function = current())
      Function->Problems.push_back(What + " (" + where(N) + ")");
    else
      Facts.ProgramProblems.push_back("program scope code " + What + " (" + where(N) + ")");
  }

  const SourceManager &SM;
  ProgramFacts &Facts;
  /// Looked up again on each use: inserting into the MapVector moves entries.
  FunctionFacts *current() { return CurrentName ? &Facts.Functions[*CurrentName] : nullptr; }

  /// The user function whose body is being walked, if any.
  std::optional<std::string> CurrentName;
  llvm::SmallPtrSet<const DeclRefExpr *, 32> DirectCallees;
};

} // namespace

ProgramFacts collectProgramFacts(ASTContext &Context) {
  ProgramFacts Facts;
  FactsCollector Collector(Context, Facts);
  Collector.TraverseDecl(Context.getTranslationUnitDecl());
  return Facts;
}

} // namespace libsplit
