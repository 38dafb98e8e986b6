//===- RewriteContract.cpp - Names shared by the rewrite and its users ----===//

#include "RewriteContract.h"

#include <string>

namespace libsplit {

const RewrittenBuiltin *findRewrittenBuiltin(llvm::StringRef Name) {
  for (const RewrittenBuiltin &Builtin : RewrittenBuiltins)
    if (Builtin.Name == Name)
      return &Builtin;
  return nullptr;
}

std::string appendedParamDecls(bool Leading) {
  std::string Text;
  for (const AppendedParam &Param : AppendedParams) {
    if (Leading || !Text.empty())
      Text += ", ";
    Text += Param.Type;
    Text += ' ';
    Text += Param.Name;
  }
  return Text;
}

std::string appendedArgNames() {
  std::string Text;
  for (const AppendedParam &Param : AppendedParams) {
    if (!Text.empty())
      Text += ", ";
    Text += Param.Name;
  }
  return Text;
}

} // namespace libsplit
