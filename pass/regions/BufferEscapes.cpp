//===- BufferEscapes.cpp - Constructs that forbid splitting a kernel ------===//

#include "BufferEscapes.h"

#include "MemoryAccesses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

namespace libsplit::regions {

using namespace llvm;

namespace {

bool isHarmlessIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::prefetch:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_assign:
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
    return true;
  default:
    return false;
  }
}

std::string calleeName(const CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction())
    return "'" + Callee->getName().str() + "'";
  return "an indirect call";
}

/// Why a use of a buffer pointer (or of a pointer derived from one) is not an
/// access the analysis bounds; "" when it is, and \p Derived set when the user
/// is itself a derived pointer to follow.
std::string checkUse(const Use &U, const DataLayout &DL, bool &Derived) {
  Derived = false;
  const auto *User = dyn_cast<Instruction>(U.getUser());
  if (!User) {
    // Constant expressions over arguments do not exist; anything else is a surprise.
    if (isa<Operator>(U.getUser()))
      Derived = true;
    return "";
  }
  switch (User->getOpcode()) {
  case Instruction::GetElementPtr:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PHI:
    Derived = true;
    return "";
  case Instruction::Select:
    Derived = U.getOperandNo() != 0;
    return "";
  case Instruction::Load:
  case Instruction::ICmp:
    return "";
  case Instruction::Store:
    return U.getOperandNo() == 1 ? "" : "a buffer pointer is stored to memory";
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg:
    return U.getOperandNo() == 0 ? "" : "a buffer pointer is stored to memory";
  case Instruction::PtrToInt:
    return "a buffer pointer is converted to an integer";
  case Instruction::Call:
  case Instruction::Invoke:
  case Instruction::CallBr: {
    const auto *Call = cast<CallBase>(User);
    if (!Call->isArgOperand(&U))
      return "a buffer pointer is called as a function";
    if (const auto *Intrinsic = dyn_cast<IntrinsicInst>(Call))
      return isHarmlessIntrinsic(Intrinsic->getIntrinsicID())
                 ? ""
                 : "a buffer pointer is passed to the intrinsic " + calleeName(*Call);
    if (builtinMemoryAccesses(*Call, DL))
      return "";
    return "a buffer pointer is passed to " + calleeName(*Call) +
           ", which the analysis does not model";
  }
  default:
    return std::string("a buffer pointer is used by '") + User->getOpcodeName() + "'";
  }
}

} // namespace

std::string findUnsplittableConstruct(const Function &Kernel, const std::vector<KernelArg> &Args,
                                      const DataLayout &DL) {
  for (const KernelArg &Arg : Args)
    if (Arg.Object == MemoryObject::Pipe)
      return "pipe arguments are not supported";

  for (const Instruction &I : instructions(Kernel)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    if (Call->isInlineAsm())
      return "inline assembly";
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return "an indirect call";
    if (!Callee->isDeclaration())
      return "a call to '" + Callee->getName().str() + "' that could not be inlined";
  }

  // Every pointer derived from a buffer argument, and each of its uses.
  SmallVector<const Value *, 16> Worklist;
  SmallPtrSet<const Value *, 32> Seen;
  for (const Argument &Arg : Kernel.args())
    if (Arg.getArgNo() < Args.size() && Args[Arg.getArgNo()].isBuffer()) {
      Worklist.push_back(&Arg);
      Seen.insert(&Arg);
    }
  while (!Worklist.empty()) {
    const Value *Pointer = Worklist.pop_back_val();
    for (const Use &U : Pointer->uses()) {
      bool Derived = false;
      std::string Why = checkUse(U, DL, Derived);
      if (!Why.empty())
        return Why;
      if (Derived && Seen.insert(U.getUser()).second)
        Worklist.push_back(U.getUser());
    }
  }
  return "";
}

} // namespace libsplit::regions
