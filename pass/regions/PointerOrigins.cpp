//===- PointerOrigins.cpp - Which buffer a pointer points into, and where -===//

#include "PointerOrigins.h"

#include "SymbolicArith.h"
#include "ValueTranslator.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

namespace libsplit::regions {

using namespace llvm;

namespace {

PointerOrigin unknown(std::string Why) {
  PointerOrigin Origin;
  Origin.Unknown = true;
  Origin.Why = std::move(Why);
  return Origin;
}

/// Adds \p Delta to every target's offset.
void shift(PointerOrigin &Origin, const std::optional<SymbolicValue> &Delta,
           const std::string &Why) {
  for (PointerTarget &Target : Origin.Targets) {
    if (!Target.Offset)
      continue;
    if (!Delta) {
      Target.Offset.reset();
      Target.Why = Why;
      continue;
    }
    Target.Offset = addValues(*Target.Offset, *Delta);
    if (Target.Offset->tooLarge()) {
      Target.Offset.reset();
      Target.Why = "expression too large";
    }
  }
}

} // namespace

PointerOrigin PointerResolver::resolve(const Value *Pointer) {
  if (auto Found = Cache.find(Pointer); Found != Cache.end())
    return Found->second;
  if (!InProgress.insert(Pointer).second)
    return unknown("a pointer defined in terms of itself");
  PointerOrigin Origin = compute(Pointer);
  InProgress.erase(Pointer);
  Cache[Pointer] = Origin;
  return Origin;
}

void PointerResolver::merge(PointerOrigin &Into, const PointerOrigin &From) {
  if (From.Unknown && !Into.Unknown) {
    Into.Unknown = true;
    Into.Why = From.Why;
  }
  for (const PointerTarget &Target : From.Targets) {
    PointerTarget *Same = nullptr;
    for (PointerTarget &Existing : Into.Targets)
      if (Existing.Arg == Target.Arg)
        Same = &Existing;
    if (!Same) {
      Into.Targets.push_back(Target);
      continue;
    }
    if (Same->Offset && Target.Offset) {
      Same->Offset = hull(*Same->Offset, *Target.Offset);
    } else if (Same->Offset) {
      Same->Offset.reset();
      Same->Why = Target.Why;
    }
  }
}

PointerOrigin PointerResolver::compute(const Value *Pointer) {
  if (const auto *Arg = dyn_cast<Argument>(Pointer)) {
    PointerOrigin Origin;
    const unsigned Index = Arg->getArgNo();
    if (Index < Args.size() && Args[Index].isBuffer()) {
      PointerTarget Target;
      Target.Arg = Index;
      Target.Offset = SymbolicValue::constant(0);
      Origin.Targets.push_back(std::move(Target));
    }
    return Origin; // local memory, a struct passed by value, an image: no buffer
  }
  if (isa<GlobalVariable>(Pointer) || isa<AllocaInst>(Pointer) ||
      isa<ConstantPointerNull>(Pointer) || isa<UndefValue>(Pointer))
    return PointerOrigin{}; // program-scope, private or no memory
  if (const auto *Cast = dyn_cast<Operator>(Pointer))
    if (Cast->getOpcode() == Instruction::BitCast ||
        Cast->getOpcode() == Instruction::AddrSpaceCast)
      return resolve(Cast->getOperand(0));
  if (isa<GEPOperator>(Pointer))
    return gep(Pointer);
  if (const auto *Select = dyn_cast<SelectInst>(Pointer)) {
    PointerOrigin Origin = resolve(Select->getTrueValue());
    merge(Origin, resolve(Select->getFalseValue()));
    return Origin;
  }
  if (const auto *Phi = dyn_cast<PHINode>(Pointer)) {
    const Loop *L = LI.getLoopFor(Phi->getParent());
    if (L && L->getHeader() == Phi->getParent())
      return recurrence(Pointer);
    PointerOrigin Origin;
    for (const Value *Incoming : Phi->incoming_values())
      merge(Origin, resolve(Incoming));
    return Origin;
  }
  if (isa<LoadInst>(Pointer))
    return unknown("a pointer loaded from memory");
  if (isa<IntToPtrInst>(Pointer) ||
      (isa<ConstantExpr>(Pointer) &&
       cast<ConstantExpr>(Pointer)->getOpcode() == Instruction::IntToPtr))
    return unknown("a pointer made from an integer");
  if (isa<CallBase>(Pointer))
    return unknown("a pointer returned by a call");
  if (isa<Constant>(Pointer))
    return PointerOrigin{}; // other constant addresses: program-scope data
  return unknown("a pointer computed by an unsupported operation");
}

PointerOrigin PointerResolver::gep(const Value *Pointer) {
  const auto *GEP = cast<GEPOperator>(Pointer);
  PointerOrigin Origin = resolve(GEP->getPointerOperand());
  if (Origin.Targets.empty())
    return Origin;
  if (GEP->getType()->isVectorTy())
    return unknown("a vector of pointers");
  // The byte offset: struct fields are constants, array indices are sign-extended to the
  // index width and scaled by the element size.
  std::optional<SymbolicValue> Delta = SymbolicValue::constant(0);
  std::string Why;
  for (gep_type_iterator It = gep_type_begin(GEP), End = gep_type_end(GEP); It != End; ++It) {
    const Value *Index = It.getOperand();
    if (StructType *Struct = It.getStructTypeOrNull()) {
      const auto FieldIndex = cast<ConstantInt>(Index)->getZExtValue();
      const auto FieldOffset = DL.getStructLayout(Struct)->getElementOffset(FieldIndex);
      Delta = addValues(*Delta, SymbolicValue::constant(static_cast<std::int64_t>(FieldOffset)));
      continue;
    }
    const TypeSize ElementSize = DL.getTypeAllocSize(It.getIndexedType());
    if (ElementSize.isScalable())
      return unknown("a scalable vector");
    std::optional<SymbolicValue> IndexValue = Values.value(Index, Interp::Signed);
    if (!IndexValue) {
      Why = Values.why();
      Delta.reset();
      break;
    }
    Delta =
        addValues(*Delta, mulValues(*IndexValue, SymbolicValue::constant(static_cast<std::int64_t>(
                                                     ElementSize.getFixedValue()))));
  }
  shift(Origin, Delta, Why);
  return Origin;
}

PointerOrigin PointerResolver::recurrence(const Value *Pointer) {
  // A pointer induction variable (p += stride in a loop): the base is found by
  // ScalarEvolution, the offset is an integer recurrence.
  Value *Mutable = const_cast<Value *>(Pointer);
  if (!SE.isSCEVable(Pointer->getType()))
    return unknown("a loop-carried pointer");
  const SCEV *S = SE.getSCEV(Mutable);
  const SCEV *Base = SE.getPointerBase(S);
  const auto *BaseValue = dyn_cast<SCEVUnknown>(Base);
  if (!BaseValue || BaseValue->getValue() == Pointer)
    return unknown("a loop-carried pointer that is not an induction variable");
  PointerOrigin Origin = resolve(BaseValue->getValue());
  if (Origin.Targets.empty())
    return Origin;
  const SCEV *Offset = SE.getMinusSCEV(S, Base);
  if (isa<SCEVCouldNotCompute>(Offset))
    return unknown("a loop-carried pointer that is not an induction variable");
  std::optional<SymbolicValue> Delta = Values.scev(Offset, Interp::Signed);
  shift(Origin, Delta, Delta ? "" : Values.why());
  return Origin;
}

} // namespace libsplit::regions
