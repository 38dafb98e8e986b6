//===- IndexSources.cpp - Where an unknown index was loaded from ----------===//

#include "IndexSources.h"

#include "PointerOrigins.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

namespace libsplit::regions {

using namespace llvm;

namespace {

constexpr unsigned MaxVisited = 256;

/// The integer loads \p Roots depend on, in discovery order.
SmallVector<const LoadInst *, 4> indexLoads(ArrayRef<const Value *> Roots, LoopInfo &LI) {
  SmallVector<const LoadInst *, 4> Loads;
  SmallVector<const Value *, 16> Worklist(Roots.begin(), Roots.end());
  SmallPtrSet<const Value *, 32> Seen(Roots.begin(), Roots.end());
  auto Push = [&](const Value *V) {
    if (V && Seen.size() < MaxVisited && Seen.insert(V).second)
      Worklist.push_back(V);
  };
  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      continue;
    if (const auto *Load = dyn_cast<LoadInst>(I)) {
      if (Load->getType()->isIntegerTy())
        Loads.push_back(Load);
      continue; // the load's own address is where the index lives, not what it depends on
    }
    for (const Value *Operand : I->operands())
      Push(Operand);
    // An induction variable's range depends on its loop's exit conditions too.
    if (const auto *Phi = dyn_cast<PHINode>(I))
      if (const Loop *L = LI.getLoopFor(Phi->getParent()); L && L->getHeader() == I->getParent()) {
        SmallVector<BasicBlock *, 4> Exiting;
        L->getExitingBlocks(Exiting);
        for (const BasicBlock *Block : Exiting)
          if (const auto *Branch = dyn_cast<BranchInst>(Block->getTerminator()))
            if (Branch->isConditional())
              Push(Branch->getCondition());
      }
  }
  return Loads;
}

} // namespace

std::optional<analysis::Indirection> findIndexSource(ArrayRef<const Value *> Roots,
                                                     PointerResolver &Pointers, LoopInfo &LI,
                                                     const DataLayout &DL) {
  std::optional<analysis::Indirection> Via;
  for (const LoadInst *Load : indexLoads(Roots, LI)) {
    PointerOrigin Origin = Pointers.resolve(Load->getPointerOperand());
    if (Origin.Unknown || Origin.Targets.size() != 1)
      return std::nullopt;
    const PointerTarget &Target = Origin.Targets.front();
    if (Via && Via->SourceArg != Target.Arg)
      continue; // one source is recorded: the first buffer the index comes from
    if (!Target.Offset)
      return std::nullopt;
    const std::int64_t Bytes =
        static_cast<std::int64_t>(DL.getTypeStoreSize(Load->getType()).getFixedValue());
    const Expr First = Target.Offset->Lo;
    const Expr Last = add(Target.Offset->Hi, analysis::constant(Bytes - 1));
    if (!Via) {
      Via = analysis::Indirection{Target.Arg, First, Last};
      continue;
    }
    Via->First = min(Via->First, First);
    Via->Last = max(Via->Last, Last);
  }
  if (Via && (tooLarge(Via->First) || tooLarge(Via->Last)))
    return std::nullopt;
  return Via;
}

} // namespace libsplit::regions
