//===- PrepareKernels.cpp - Make each kernel self-contained ---------------===//

#include "PrepareKernels.h"

#include "KernelArgs.h"
#include "OpenCLNames.h"
#include "WorkItemBuiltins.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>

namespace libsplit::regions {

using namespace llvm;

namespace {

/// Far more than any real kernel needs; a program that hits it keeps its calls
/// and the analysis then reports the kernel as unsplittable.
constexpr unsigned MaxInlinedCalls = 4000;

/// Functions that can reach themselves through calls: OpenCL C forbids recursion, but
/// Clang accepts it; inlining them would never end, so their calls stay (and the analysis
/// then reports the kernel as unsplittable).
SmallPtrSet<const Function *, 4> recursiveFunctions(Module &M) {
  SmallPtrSet<const Function *, 4> Recursive;
  CallGraph Graph(M);
  for (scc_iterator<CallGraph *> SCC = scc_begin(&Graph); !SCC.isAtEnd(); ++SCC) {
    if (!SCC.hasCycle())
      continue;
    for (CallGraphNode *Node : *SCC)
      if (const Function *F = Node->getFunction())
        Recursive.insert(F);
  }
  return Recursive;
}

bool inlineCallees(Function &Kernel, const SmallPtrSet<const Function *, 4> &Recursive,
                   unsigned &Budget) {
  bool Changed = false;
  while (Budget > 0) {
    CallBase *Site = nullptr;
    for (Instruction &I : instructions(Kernel))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (!Callee->isDeclaration() && Callee != &Kernel && !Recursive.count(Callee)) {
            Site = Call;
            break;
          }
    if (!Site)
      break;
    InlineFunctionInfo Info;
    if (!InlineFunction(*Site, Info).isSuccess())
      break;
    --Budget;
    Changed = true;
  }
  return Changed;
}

/// Creates (or finds) the declaration of a one-dimension query, mangled like
/// \p Like (the linear-id function being expanded).
FunctionCallee queryDeclaration(Module &M, const Function &Like, StringRef Name) {
  const bool Mangled = Like.getName().startswith("_Z");
  std::string Symbol = Mangled ? "_Z" + std::to_string(Name.size()) + Name.str() + "j" : Name.str();
  Type *SizeT = Like.getReturnType();
  FunctionCallee Callee =
      M.getOrInsertFunction(Symbol, FunctionType::get(SizeT, {Type::getInt32Ty(M.getContext())},
                                                      /*isVarArg=*/false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->setCallingConv(Like.getCallingConv());
    F->setAttributes(Like.getAttributes());
  }
  return Callee;
}

/// get_global_linear_id() = sum over d of (gid_d - goff_d) * prod_{e<d} gsize_e, and
/// get_local_linear_id() the same over lid and lsize (OpenCL 2.0, 6.13.1); unused
/// dimensions contribute 0 (their id is 0, their offset 0, their size 1).
Value *expandLinearId(Module &M, CallBase &Call, bool Global) {
  const Function &Like = *Call.getCalledFunction();
  IRBuilder<> Builder(&Call);
  FunctionCallee Id = queryDeclaration(M, Like, Global ? "get_global_id" : "get_local_id");
  FunctionCallee Size = queryDeclaration(M, Like, Global ? "get_global_size" : "get_local_size");
  FunctionCallee Offset = queryDeclaration(M, Like, "get_global_offset");
  Value *Sum = nullptr, *Stride = nullptr;
  for (unsigned Dim = 0; Dim < 3; ++Dim) {
    Value *DimArg = Builder.getInt32(Dim);
    Value *Term = Builder.CreateCall(Id, {DimArg});
    if (Global)
      Term = Builder.CreateSub(Term, Builder.CreateCall(Offset, {DimArg}));
    if (Stride)
      Term = Builder.CreateMul(Term, Stride);
    Sum = Sum ? Builder.CreateAdd(Sum, Term) : Term;
    Value *DimSize = Builder.CreateCall(Size, {DimArg});
    Stride = Stride ? Builder.CreateMul(Stride, DimSize) : DimSize;
  }
  return Sum;
}

/// One call per (query, dimension), at the top of the kernel, with its range.
bool canonicalizeQueries(Module &M, Function &Kernel) {
  SmallVector<CallBase *, 16> Calls;
  for (Instruction &I : instructions(Kernel))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (workItemFunction(*Callee))
          Calls.push_back(Call);
  if (Calls.empty())
    return false;

  // Expand linear ids first: they add queries of their own.
  for (CallBase *&Call : Calls) {
    WorkItemFunction Function = *workItemFunction(*Call->getCalledFunction());
    if (Function != WorkItemFunction::GlobalLinearId && Function != WorkItemFunction::LocalLinearId)
      continue;
    if (Call->arg_size() != 0 || !Call->getType()->isIntegerTy())
      continue;
    Value *Expanded = expandLinearId(M, *Call, Function == WorkItemFunction::GlobalLinearId);
    Call->replaceAllUsesWith(Expanded);
    Call->eraseFromParent();
    Call = nullptr;
  }
  Calls.clear();
  for (Instruction &I : instructions(Kernel))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (workItemFunction(*Callee))
          Calls.push_back(Call);

  BasicBlock &Entry = Kernel.getEntryBlock();
  BasicBlock::iterator Top = Entry.getFirstInsertionPt();
  while (Top != Entry.end() && isa<AllocaInst>(*Top))
    ++Top;
  // First create every canonical call (Top stays valid), then replace.
  std::map<std::pair<Function *, std::uint64_t>, CallInst *> Canonical;
  SmallVector<std::pair<CallBase *, CallInst *>, 16> Replacements;
  MDBuilder Metadata(M.getContext());
  for (CallBase *Call : Calls) {
    Function *Callee = Call->getCalledFunction();
    WorkItemFunction Function = *workItemFunction(*Callee);
    const bool HasDim = takesDimension(Function);
    if (!Call->getType()->isIntegerTy() || Call->arg_size() != (HasDim ? 1u : 0u))
      continue;
    std::uint64_t Dim = 0;
    if (HasDim) {
      auto *Constant = dyn_cast<ConstantInt>(Call->getArgOperand(0));
      if (!Constant)
        continue; // a run-time dimension: stays where it is, and is not a leaf
      Dim = Constant->getZExtValue();
    }
    CallInst *&Hoisted = Canonical[{Callee, Dim}];
    if (!Hoisted) {
      SmallVector<Value *, 1> Args(Call->args());
      Hoisted = CallInst::Create(Call->getFunctionType(), Callee, Args, "", &*Top);
      Hoisted->setCallingConv(Call->getCallingConv());
      Hoisted->setAttributes(Call->getAttributes());
      Hoisted->setName(sourceName(Callee->getName()) + (HasDim ? std::to_string(Dim) : ""));
      std::int64_t Min = 0, Max = 0;
      valueBounds(Function, Min, Max);
      const unsigned Bits = Call->getType()->getIntegerBitWidth();
      if (Dim < 3 && Bits <= 64) {
        APInt SignedMax = APInt::getSignedMaxValue(Bits);
        APInt Upper(Bits, static_cast<std::uint64_t>(Max));
        if (Bits < 64 && SignedMax.getZExtValue() < static_cast<std::uint64_t>(Max))
          Upper = SignedMax;
        APInt Lower(Bits, static_cast<std::uint64_t>(Min));
        Upper += 1;
        if (Lower != Upper)
          Hoisted->setMetadata(LLVMContext::MD_range, Metadata.createRange(Lower, Upper));
      }
    }
    Replacements.push_back({Call, Hoisted});
  }
  for (auto &[Call, Hoisted] : Replacements)
    if (Call != Hoisted) {
      Call->replaceAllUsesWith(Hoisted);
      Call->eraseFromParent();
    }
  return true;
}

} // namespace

PreservedAnalyses PrepareKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    // Transform passes skip optnone functions; the analysis needs them simplified.
    if (F.hasFnAttribute(Attribute::OptimizeNone)) {
      F.removeFnAttr(Attribute::OptimizeNone);
      Changed = true;
    }
    if (F.hasFnAttribute(Attribute::NoInline)) {
      F.removeFnAttr(Attribute::NoInline);
      Changed = true;
    }
  }
  unsigned Budget = MaxInlinedCalls;
  const SmallPtrSet<const Function *, 4> Recursive = recursiveFunctions(M);
  for (Function &F : M)
    if (isKernel(F)) {
      Changed |= inlineCallees(F, Recursive, Budget);
      Changed |= canonicalizeQueries(M, F);
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

const char *canonicalPipeline() {
  return "libsplit-prepare,"
         "function(sroa,early-cse,instcombine,simplifycfg,loop-simplify,lcssa,"
         "loop-mssa(loop-rotate,licm),loop(indvars),instcombine,simplifycfg,"
         "loop-simplify,lcssa)";
}

} // namespace libsplit::regions
