//===- MemoryAccesses.cpp - The memory operations of a kernel -------------===//

#include "MemoryAccesses.h"

#include "OpenCLNames.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace libsplit::regions {

using namespace llvm;
using analysis::AccessKind;

namespace {

std::uint64_t storeSize(const DataLayout &DL, Type *T) {
  return DL.getTypeStoreSize(T).getKnownMinValue();
}

unsigned lanes(Type *T) {
  if (auto *Vector = dyn_cast<FixedVectorType>(T))
    return Vector->getNumElements();
  return 1;
}

/// Removes the rounding-mode suffix of vstore_half (_rte, _rtz, _rtp, _rtn).
StringRef withoutRounding(StringRef Name) {
  for (StringRef Suffix : {"_rte", "_rtz", "_rtp", "_rtn"})
    if (Name.endswith(Suffix))
      return Name.drop_back(Suffix.size());
  return Name;
}

/// N of a name ending in N (vload4 -> 4), 0 if none.
unsigned trailingWidth(StringRef Name, StringRef Prefix) {
  if (!Name.startswith(Prefix))
    return 0;
  unsigned Width = 0;
  if (Name.drop_front(Prefix.size()).getAsInteger(10, Width))
    return 0;
  return Width;
}

std::optional<AccessKind> atomicKind(StringRef Name) {
  Name.consume_back("_explicit");
  return StringSwitch<std::optional<AccessKind>>(Name)
      .Cases("atomic_add", "atom_add", "atomic_fetch_add", AccessKind::AtomicAdd)
      .Cases("atomic_sub", "atom_sub", "atomic_fetch_sub", AccessKind::AtomicSub)
      .Cases("atomic_inc", "atom_inc", AccessKind::AtomicInc)
      .Cases("atomic_dec", "atom_dec", AccessKind::AtomicDec)
      .Cases("atomic_min", "atom_min", "atomic_fetch_min", AccessKind::AtomicMin)
      .Cases("atomic_max", "atom_max", "atomic_fetch_max", AccessKind::AtomicMax)
      .Cases("atomic_and", "atom_and", "atomic_fetch_and", AccessKind::AtomicAnd)
      .Cases("atomic_or", "atom_or", "atomic_fetch_or", AccessKind::AtomicOr)
      .Cases("atomic_xor", "atom_xor", "atomic_fetch_xor", AccessKind::AtomicXor)
      .Cases("atomic_xchg", "atom_xchg", "atomic_exchange", "atomic_flag_test_and_set",
             AccessKind::AtomicXchg)
      .Cases("atomic_cmpxchg", "atom_cmpxchg", "atomic_compare_exchange_strong",
             "atomic_compare_exchange_weak", AccessKind::AtomicCmpXchg)
      .Case("atomic_load", AccessKind::Read)
      .Cases("atomic_store", "atomic_init", "atomic_flag_clear", AccessKind::Write)
      .Default(std::nullopt);
}

AccessKind atomicRMWKind(AtomicRMWInst::BinOp Operation) {
  switch (Operation) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::FAdd:
    return AccessKind::AtomicAdd;
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::FSub:
    return AccessKind::AtomicSub;
  case AtomicRMWInst::And:
    return AccessKind::AtomicAnd;
  case AtomicRMWInst::Or:
    return AccessKind::AtomicOr;
  case AtomicRMWInst::Xor:
    return AccessKind::AtomicXor;
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMin:
  case AtomicRMWInst::FMin:
    return AccessKind::AtomicMin;
  case AtomicRMWInst::Max:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::FMax:
    return AccessKind::AtomicMax;
  case AtomicRMWInst::Xchg:
    return AccessKind::AtomicXchg;
  default:
    // Nand, the wrapping increments (CUDA's atomicInc: back to 0 past a bound, not a sum) and
    // future operations: recorded like cmpxchg, which is never combined.
    return AccessKind::AtomicCmpXchg;
  }
}

/// The element of an LLVM atomic of type \p T; its signedness only from min and max.
analysis::AtomicElement atomicRMWElement(AtomicRMWInst::BinOp Operation, Type *T) {
  using analysis::AtomicElement;
  if (T->isFloatTy())
    return AtomicElement::F32;
  if (T->isDoubleTy())
    return AtomicElement::F64;
  const bool Signed = Operation == AtomicRMWInst::Min || Operation == AtomicRMWInst::Max;
  if (T->isIntegerTy(32))
    return Signed ? AtomicElement::I32 : AtomicElement::U32;
  if (T->isIntegerTy(64))
    return Signed ? AtomicElement::I64 : AtomicElement::U64;
  return AtomicElement::Unknown;
}

/// The element of an OpenCL atomic builtin: the mangled name says what the pointer points to
/// (`_Z10atomic_minPU3AS1Vjj`: volatile __global uint). A name that is not mangled gives the
/// width from the LLVM type only, which is enough except for min and max.
analysis::AtomicElement builtinAtomicElement(StringRef Symbol, AccessKind Kind, Type *Value) {
  using analysis::AtomicElement;
  if (std::optional<char> Code = mangledPointeeScalar(Symbol, 0)) {
    switch (*Code) {
    case 'i':
      return AtomicElement::I32;
    case 'j':
      return AtomicElement::U32;
    case 'l':
    case 'x':
      return AtomicElement::I64;
    case 'm':
    case 'y':
      return AtomicElement::U64;
    case 'f':
      return AtomicElement::F32;
    case 'd':
      return AtomicElement::F64;
    default:
      return AtomicElement::Unknown;
    }
  }
  if (!Value || Kind == AccessKind::AtomicMin || Kind == AccessKind::AtomicMax)
    return AtomicElement::Unknown;
  if (Value->isFloatTy())
    return AtomicElement::F32;
  if (Value->isDoubleTy())
    return AtomicElement::F64;
  if (Value->isIntegerTy(32))
    return AtomicElement::U32;
  if (Value->isIntegerTy(64))
    return AtomicElement::U64;
  return AtomicElement::Unknown;
}

MemoryAccess at(const CallBase &Call, unsigned PointerArg, AccessKind Kind, std::uint64_t Bytes) {
  MemoryAccess Access;
  Access.At = &Call;
  Access.Pointer = Call.getArgOperand(PointerArg);
  Access.Kind = Kind;
  Access.Bytes = Bytes;
  return Access;
}

} // namespace

std::optional<std::vector<MemoryAccess>> builtinMemoryAccesses(const CallBase &Call,
                                                               const DataLayout &DL) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return std::nullopt;
  const StringRef Symbol = Callee->getName();
  const StringRef Name = sourceName(Symbol);
  const unsigned NumArgs = Call.arg_size();
  std::vector<MemoryAccess> Out;
  Type *Result = Call.getType();

  if (std::optional<AccessKind> Kind = atomicKind(Name)) {
    if (NumArgs == 0 || !Call.getArgOperand(0)->getType()->isPointerTy())
      return std::nullopt;
    std::uint64_t Bytes = 0;
    if (Name.startswith("atomic_flag"))
      Bytes = 4;
    else if (Name.startswith("atomic_store") || Name.startswith("atomic_init"))
      Bytes = NumArgs > 1 ? storeSize(DL, Call.getArgOperand(1)->getType()) : 0;
    else if (Name.startswith("atomic_compare_exchange"))
      Bytes = NumArgs > 2 ? storeSize(DL, Call.getArgOperand(2)->getType()) : 0;
    else
      Bytes = Result->isVoidTy() ? 0 : storeSize(DL, Result);
    if (Bytes == 0)
      return std::nullopt;
    MemoryAccess Access = at(Call, 0, *Kind, Bytes);
    if (analysis::isAtomic(*Kind)) {
      Type *Value = Result->isVoidTy() ? nullptr : Result;
      if (Name.startswith("atomic_compare_exchange") && NumArgs > 2)
        Value = Call.getArgOperand(2)->getType();
      Access.Element = builtinAtomicElement(Symbol, *Kind, Value);
      Access.ResultUsed = !Call.use_empty();
    }
    Out.push_back(Access);
    if (Name.startswith("atomic_compare_exchange") && NumArgs > 1) {
      // The expected value is read, and written back on failure.
      Out.push_back(at(Call, 1, AccessKind::Read, Bytes));
      Out.push_back(at(Call, 1, AccessKind::Write, Bytes));
    }
    return Out;
  }

  // vloadN(offset, p), vload_half[N](offset, p), vloada_halfN(offset, p).
  if (Name.startswith("vload") && NumArgs == 2 && Call.getArgOperand(1)->getType()->isPointerTy()) {
    const bool Half = Name.startswith("vload_half") || Name.startswith("vloada_half");
    const bool Aligned = Name.startswith("vloada_half");
    unsigned N = Half ? trailingWidth(Name, Aligned ? "vloada_half" : "vload_half")
                      : trailingWidth(Name, "vload");
    if (Half && N == 0 && (Name == "vload_half" || Name == "vloada_half"))
      N = 1;
    if (N == 0)
      return std::nullopt;
    const std::uint64_t Element = Half ? 2 : storeSize(DL, Result->getScalarType());
    MemoryAccess Access = at(Call, 1, AccessKind::Read, Element * N);
    Access.Index = Call.getArgOperand(0);
    Access.IndexScale = Element * (Aligned && N == 3 ? 4 : N);
    Out.push_back(Access);
    return Out;
  }
  // vstoreN(data, offset, p), vstore[a]_half[N][_rounding](data, offset, p).
  if (Name.startswith("vstore") && NumArgs == 3 &&
      Call.getArgOperand(2)->getType()->isPointerTy()) {
    StringRef Plain = withoutRounding(Name);
    const bool Half = Plain.startswith("vstore_half") || Plain.startswith("vstorea_half");
    const bool Aligned = Plain.startswith("vstorea_half");
    unsigned N = lanes(Call.getArgOperand(0)->getType());
    const std::uint64_t Element =
        Half ? 2 : storeSize(DL, Call.getArgOperand(0)->getType()->getScalarType());
    MemoryAccess Access = at(Call, 2, AccessKind::Write, Element * N);
    Access.Index = Call.getArgOperand(1);
    Access.IndexScale = Element * (Aligned && N == 3 ? 4 : N);
    Out.push_back(Access);
    return Out;
  }
  if (Name == "async_work_group_copy" || Name == "async_work_group_strided_copy") {
    if (NumArgs < 3)
      return std::nullopt;
    std::optional<std::uint64_t> Element = mangledPointeeSize(Symbol, 0);
    MemoryAccess Destination = at(Call, 0, AccessKind::Write, 0);
    MemoryAccess Source = at(Call, 1, AccessKind::Read, 0);
    for (MemoryAccess *Side : {&Destination, &Source}) {
      if (Name == "async_work_group_strided_copy")
        Side->Unbounded = "a strided asynchronous copy";
      else if (!Element)
        Side->Unbounded = "an asynchronous copy of an element type the analysis cannot size";
      Side->ByteCount = Call.getArgOperand(2);
      Side->CountScale = Element.value_or(1);
      Out.push_back(*Side);
    }
    return Out;
  }
  // Output pointers of math functions.
  if ((Name == "fract" || Name == "modf" || Name == "sincos") && NumArgs == 2) {
    Out.push_back(at(Call, 1, AccessKind::Write, storeSize(DL, Result)));
    return Out;
  }
  if ((Name == "frexp" || Name == "lgamma_r") && NumArgs == 2) {
    Out.push_back(at(Call, 1, AccessKind::Write, 4 * lanes(Result)));
    return Out;
  }
  if (Name == "remquo" && NumArgs == 3) {
    Out.push_back(at(Call, 2, AccessKind::Write, 4 * lanes(Result)));
    return Out;
  }
  // Known to touch no memory through their pointer arguments.
  if (Name == "prefetch" || Name == "printf" || Name == "wait_group_events")
    return Out;
  return std::nullopt;
}

std::vector<MemoryAccess> collectMemoryAccesses(const Function &Kernel, const DataLayout &DL) {
  std::vector<MemoryAccess> Out;
  for (const Instruction &I : instructions(Kernel)) {
    MemoryAccess Access;
    Access.At = &I;
    if (const auto *Load = dyn_cast<LoadInst>(&I)) {
      Access.Pointer = Load->getPointerOperand();
      Access.Bytes = storeSize(DL, Load->getType());
      Out.push_back(Access);
    } else if (const auto *Store = dyn_cast<StoreInst>(&I)) {
      Access.Pointer = Store->getPointerOperand();
      Access.Kind = AccessKind::Write;
      Access.Bytes = storeSize(DL, Store->getValueOperand()->getType());
      Out.push_back(Access);
    } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Access.Pointer = RMW->getPointerOperand();
      Access.Kind = atomicRMWKind(RMW->getOperation());
      Access.Bytes = storeSize(DL, RMW->getValOperand()->getType());
      Access.Element = atomicRMWElement(RMW->getOperation(), RMW->getValOperand()->getType());
      Access.ResultUsed = !RMW->use_empty();
      Out.push_back(Access);
    } else if (const auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Access.Pointer = CmpXchg->getPointerOperand();
      Access.Kind = AccessKind::AtomicCmpXchg;
      Access.Bytes = storeSize(DL, CmpXchg->getNewValOperand()->getType());
      Access.Element =
          atomicRMWElement(AtomicRMWInst::Xchg, CmpXchg->getNewValOperand()->getType());
      Access.ResultUsed = !CmpXchg->use_empty();
      Out.push_back(Access);
    } else if (const auto *Transfer = dyn_cast<MemTransferInst>(&I)) {
      Access.Kind = AccessKind::Write;
      Access.Pointer = Transfer->getRawDest();
      Access.ByteCount = Transfer->getLength();
      Out.push_back(Access);
      Access.Kind = AccessKind::Read;
      Access.Pointer = Transfer->getRawSource();
      Out.push_back(Access);
    } else if (const auto *Set = dyn_cast<MemSetInst>(&I)) {
      Access.Kind = AccessKind::Write;
      Access.Pointer = Set->getRawDest();
      Access.ByteCount = Set->getLength();
      Out.push_back(Access);
    } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
      if (std::optional<std::vector<MemoryAccess>> Builtin = builtinMemoryAccesses(*Call, DL))
        Out.insert(Out.end(), Builtin->begin(), Builtin->end());
    }
  }
  return Out;
}

} // namespace libsplit::regions
