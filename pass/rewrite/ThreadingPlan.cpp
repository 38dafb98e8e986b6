//===- ThreadingPlan.cpp - Which functions get the appended parameters -----===//

#include "ThreadingPlan.h"

#include "PreprocessorRecorder.h"
#include "RewriteContract.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

namespace libsplit {

namespace {

/// Least fixed point: a name is threaded when it is a kernel, calls a
/// rewritten builtin, or calls a threaded name. OpenCL C has no recursion, but
/// the iteration does not rely on that.
llvm::StringSet<> findThreaded(const ProgramFacts &Program) {
  llvm::StringSet<> Threaded;
  for (const auto &[Name, Facts] : Program.Functions)
    if (Facts.IsKernel || Facts.CallsRewrittenBuiltin)
      Threaded.insert(Name);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &[Name, Facts] : Program.Functions) {
      if (Threaded.count(Name))
        continue;
      for (const std::string &Callee : Facts.Callees) {
        if (Threaded.count(Callee)) {
          Threaded.insert(Name);
          Changed = true;
          break;
        }
      }
    }
  }
  return Threaded;
}

/// The first function reachable from \p Kernel (itself included), depth first
/// in call order, for which \p Matches holds; null when none does. \p Name is
/// set to its name.
const FunctionFacts *firstReachable(const ProgramFacts &Program, const std::string &Kernel,
                                    llvm::function_ref<bool(const FunctionFacts &)> Matches,
                                    std::string &Name) {
  llvm::StringSet<> Seen;
  std::vector<std::string> Stack{Kernel};
  while (!Stack.empty()) {
    Name = Stack.back();
    Stack.pop_back();
    if (!Seen.insert(Name).second)
      continue;
    auto It = Program.Functions.find(Name);
    if (It == Program.Functions.end())
      continue;
    const FunctionFacts &Facts = It->second;
    if (Matches(Facts))
      return &Facts;
    for (auto Callee = Facts.Callees.rbegin(); Callee != Facts.Callees.rend(); ++Callee)
      Stack.push_back(*Callee);
  }
  return nullptr;
}

/// The first problem of any function reachable from \p Kernel, so that the
/// reported reason is stable.
std::string firstReachableProblem(const ProgramFacts &Program, const std::string &Kernel) {
  std::string Name;
  const FunctionFacts *Facts = firstReachable(
      Program, Kernel, [](const FunctionFacts &F) { return !F.Problems.empty(); }, Name);
  if (!Facts)
    return "";
  return (Name == Kernel ? "the kernel " : "'" + Name + "', called by the kernel, ") +
         Facts->Problems.front();
}

/// Whether \p Kernel or a function it reaches calls a rewritten builtin: only
/// those builtins answer differently under a global work offset.
bool reachesRewrittenBuiltin(const ProgramFacts &Program, const std::string &Kernel) {
  std::string Name;
  return firstReachable(
             Program, Kernel, [](const FunctionFacts &F) { return F.CallsRewrittenBuiltin; },
             Name) != nullptr;
}

} // namespace

ThreadingPlan planThreading(const ProgramFacts &Program, const PreprocessorFacts &Preprocessor) {
  ThreadingPlan Plan;
  Plan.Threaded = findThreaded(Program);
  Plan.ProgramProblems = Program.ProgramProblems;

  llvm::StringSet<> Called;
  for (const auto &[Name, Facts] : Program.Functions)
    for (const std::string &Callee : Facts.Callees)
      Called.insert(Callee);
  for (const auto &[Name, Facts] : Program.Functions) {
    if (!Plan.Threaded.count(Name) || !Called.count(Name))
      continue;
    Plan.CallMacros.push_back(Name);
    if (Facts.HasNullaryDecl && Facts.HasParamDecl)
      Plan.ProgramProblems.push_back("'" + Name +
                                     "' has overloads with and without parameters; one call "
                                     "macro cannot append the arguments to both");
    if (Program.BuiltinNamesCalled.count(Name))
      Plan.ProgramProblems.push_back("'" + Name +
                                     "' overloads an OpenCL builtin that the program also "
                                     "calls; its call macro would change those calls");
  }

  // The rewrite defines macros named after these; a source that defines,
  // undefines or tests them would see the rewrite's macro instead.
  llvm::StringSet<> MacroNames;
  for (const RewrittenBuiltin &Builtin : RewrittenBuiltins)
    MacroNames.insert(Builtin.Name);
  for (const std::string &Name : Plan.CallMacros)
    MacroNames.insert(Name);
  std::vector<std::string> Clashes;
  for (const auto &Touched : Preprocessor.TouchedMacros)
    if (MacroNames.count(Touched.getKey()))
      Clashes.push_back("the macro name '" + Touched.getKey().str() +
                        "' is defined, undefined or tested (" + Touched.getValue() +
                        "); the rewrite needs that name for its own macro");
  llvm::sort(Clashes); // StringMap order is not stable across runs.
  Plan.ProgramProblems.insert(Plan.ProgramProblems.end(), Clashes.begin(), Clashes.end());

  for (const KernelFacts &Kernel : Program.Kernels)
    Plan.Kernels.push_back({Kernel.Name, Kernel.NumArgs,
                            firstReachableProblem(Program, Kernel.Name),
                            !reachesRewrittenBuiltin(Program, Kernel.Name)});
  return Plan;
}

} // namespace libsplit
