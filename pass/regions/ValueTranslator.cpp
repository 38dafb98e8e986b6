//===- ValueTranslator.cpp - Integers of a kernel as summary expressions --===//

#include "ValueTranslator.h"

#include "OpenCLNames.h"
#include "SymbolicArith.h"
#include "WorkItemBuiltins.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

#include <limits>

namespace libsplit::regions {

using namespace llvm;
using analysis::Leaf;
using analysis::ScalarType;

namespace {

constexpr std::int64_t Int64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t Int64Min = std::numeric_limits<std::int64_t>::min();
/// An index the analysis cannot follow (loaded from memory, say) but whose range is known
/// and at most this wide (a byte, a masked hash, a small table) is taken as that range.
constexpr std::int64_t MaxUnknownRange = std::int64_t(1) << 20;

/// The values a Bits-bit integer takes under a reading, as int64 (the
/// unsigned 64-bit range stops at INT64_MAX: the evaluator cannot go above).
void readingRange(unsigned Bits, Interp How, std::int64_t &Lo, std::int64_t &Hi) {
  if (Bits >= 64) {
    Lo = How == Interp::Signed ? Int64Min : 0;
    Hi = Int64Max;
    return;
  }
  if (How == Interp::Signed) {
    Lo = -(std::int64_t(1) << (Bits - 1));
    Hi = (std::int64_t(1) << (Bits - 1)) - 1;
  } else {
    Lo = 0;
    Hi = Bits >= 63 ? Int64Max : (std::int64_t(1) << Bits) - 1;
  }
}

bool within(const SymbolicValue &V, std::int64_t Lo, std::int64_t Hi) {
  return V.Min && V.Max && *V.Min >= Lo && *V.Max <= Hi;
}

unsigned bitsOf(ScalarType Type) {
  switch (Type) {
  case ScalarType::I8:
  case ScalarType::U8:
    return 8;
  case ScalarType::I16:
  case ScalarType::U16:
    return 16;
  case ScalarType::I32:
  case ScalarType::U32:
    return 32;
  case ScalarType::I64:
  case ScalarType::U64:
    return 64;
  case ScalarType::None:
    break;
  }
  return 0;
}

bool isUnsignedType(ScalarType Type) {
  return Type == ScalarType::U8 || Type == ScalarType::U16 || Type == ScalarType::U32 ||
         Type == ScalarType::U64;
}

std::string opcodeName(const Value *V) {
  if (const auto *I = dyn_cast<Instruction>(V))
    return I->getOpcodeName();
  return "constant expression";
}

} // namespace

SymbolicValue fitTo(SymbolicValue V, unsigned Bits, Interp How) {
  std::int64_t Lo, Hi;
  readingRange(Bits, How, Lo, Hi);
  if (Bits >= 64 || within(V, Lo, Hi)) {
    clampBounds(V, Lo, Hi);
    return V;
  }
  auto Check = [&](const Expr &E) {
    return How == Interp::Signed ? checkedSigned(E, Bits) : checkedUnsigned(E, Bits);
  };
  const bool Point = V.isPoint();
  V.Lo = Check(V.Lo);
  V.Hi = Point ? V.Lo : Check(V.Hi);
  if (V.Linear) {
    V.Linear->Checks.push_back(V.Lo);
    if (!Point)
      V.Linear->Checks.push_back(V.Hi);
  }
  clampBounds(V, Lo, Hi);
  return V;
}

SymbolicValue convert(SymbolicValue V, Interp From, Interp To, unsigned Bits) {
  if (From == To)
    return V;
  if (To == Interp::Unsigned) {
    // A negative signed value is a large unsigned one: only non-negative values carry over.
    if (!V.knownNonNegative()) {
      addCheck(V, rangeCheck(V.Lo, 0, 63));
      clampBounds(V, 0, Int64Max);
    }
    return V;
  }
  // Unsigned to signed: the same value below 2^(Bits-1); in 64 bits the evaluator
  // already finds anything above INT64_MAX unbounded.
  return fitTo(std::move(V), Bits, Interp::Signed);
}

std::optional<SymbolicValue> ValueTranslator::fail(std::string Reason) {
  Why = std::move(Reason);
  return std::nullopt;
}

std::optional<SymbolicValue> ValueTranslator::value(const Value *V, Interp How) {
  const auto Key = std::make_pair(V, static_cast<int>(How));
  if (auto Found = Values.find(Key); Found != Values.end()) {
    if (!Found->second.Result)
      Why = Found->second.Why;
    return Found->second.Result;
  }
  if (!InProgress.insert(Key).second)
    return fail("a value defined in terms of itself");
  std::optional<SymbolicValue> Result = compute(V, How);
  InProgress.erase(Key);
  if (!Result)
    Result = smallRange(V, How); // an unknown value of a small known range
  if (Result) {
    refineWithScev(V, How, *Result);
    if (Result->tooLarge())
      Result = fail("expression too large");
  }
  Memo &Entry = Values[Key];
  Entry.Result = Result;
  Entry.Why = Result ? "" : Why;
  return Result;
}

std::optional<SymbolicValue> ValueTranslator::smallRange(const Value *V, Interp How) {
  if (!SE.isSCEVable(V->getType()) || V->getType()->getScalarSizeInBits() > 64)
    return std::nullopt;
  SymbolicValue Bounds = SymbolicValue::point(analysis::constant(0));
  Bounds.Min.reset();
  refineWithScev(V, How, Bounds);
  std::int64_t Width;
  if (!Bounds.Min || !Bounds.Max || __builtin_sub_overflow(*Bounds.Max, *Bounds.Min, &Width) ||
      Width > MaxUnknownRange)
    return std::nullopt;
  return constantRange(*Bounds.Min, *Bounds.Max);
}

void ValueTranslator::refineWithScev(const Value *V, Interp How, SymbolicValue &Result) {
  if (!SE.isSCEVable(V->getType()) || V->getType()->getScalarSizeInBits() > 64)
    return;
  const SCEV *S = SE.getSCEV(const_cast<Value *>(V));
  ConstantRange Range = How == Interp::Signed ? SE.getSignedRange(S) : SE.getUnsignedRange(S);
  if (Range.isFullSet())
    return;
  if (How == Interp::Signed) {
    clampBounds(Result, Range.getSignedMin().getSExtValue(), Range.getSignedMax().getSExtValue());
    return;
  }
  const APInt UMax = Range.getUnsignedMax();
  if (UMax.getActiveBits() < 64)
    clampBounds(Result, static_cast<std::int64_t>(Range.getUnsignedMin().getZExtValue()),
                static_cast<std::int64_t>(UMax.getZExtValue()));
}

std::optional<SymbolicValue> ValueTranslator::argument(unsigned Index, unsigned Bits, Interp How) {
  if (Index >= Args.size() || Args[Index].Kind != analysis::ArgKind::Scalar ||
      Args[Index].Scalar == ScalarType::None || bitsOf(Args[Index].Scalar) != Bits)
    return fail("argument " + std::to_string(Index) + " is not an integer the summary can read");
  const ScalarType Type = Args[Index].Scalar;
  const Interp Declared = isUnsignedType(Type) ? Interp::Unsigned : Interp::Signed;
  SymbolicValue V = SymbolicValue::point(analysis::leaf(Leaf::ScalarArg, Index));
  std::int64_t Lo, Hi;
  readingRange(Bits, Declared, Lo, Hi);
  V.Min = Lo;
  V.Max = Hi;
  return convert(std::move(V), Declared, How, Bits);
}

std::optional<SymbolicValue> ValueTranslator::compute(const Value *V, Interp How) {
  auto *IntType = dyn_cast<IntegerType>(V->getType());
  if (!IntType || IntType->getBitWidth() > 64)
    return fail("not an integer of at most 64 bits");
  const unsigned Bits = IntType->getBitWidth();

  if (const auto *C = dyn_cast<ConstantInt>(V)) {
    if (How == Interp::Signed || Bits < 64)
      return SymbolicValue::constant(
          How == Interp::Signed ? C->getSExtValue() : static_cast<std::int64_t>(C->getZExtValue()));
    if (C->getValue().isNegative())
      return fail("an unsigned 64-bit constant above INT64_MAX");
    return SymbolicValue::constant(static_cast<std::int64_t>(C->getZExtValue()));
  }
  if (const auto *Arg = dyn_cast<Argument>(V))
    return argument(Arg->getArgNo(), Bits, How);
  if (std::optional<WorkItemQuery> Query = asWorkItemQuery(V)) {
    SymbolicValue Leaf = SymbolicValue::point(analysis::leaf(Query->Kind, Query->Dim));
    std::int64_t Min, Max;
    valueBounds(*workItemFunction(*cast<CallBase>(V)->getCalledFunction()), Min, Max);
    Leaf.Min = Min;
    Leaf.Max = Max;
    if (Query->Kind == Leaf::GlobalId || Query->Kind == Leaf::LocalId ||
        Query->Kind == Leaf::GroupId) {
      LinearForm Form;
      Form.Id = Query->Kind;
      Form.Dim = Query->Dim;
      Form.RestLo = Form.RestHi = analysis::constant(0);
      Leaf.Linear = Form;
    }
    return fitTo(std::move(Leaf), Bits, How);
  }
  if (isa<UndefValue>(V) || isa<PoisonValue>(V))
    return fail("an undefined value");
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return fail("an unsupported " + opcodeName(V));

  switch (I->getOpcode()) {
  case Instruction::Trunc: {
    std::optional<SymbolicValue> Source = value(I->getOperand(0), How);
    if (!Source)
      return std::nullopt;
    return fitTo(std::move(*Source), Bits, How);
  }
  case Instruction::ZExt:
    return value(I->getOperand(0), Interp::Unsigned);
  case Instruction::SExt: {
    std::optional<SymbolicValue> Source = value(I->getOperand(0), Interp::Signed);
    if (!Source)
      return std::nullopt;
    return convert(std::move(*Source), Interp::Signed, How, Bits);
  }
  case Instruction::Freeze:
    return value(I->getOperand(0), How);
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Shl:
  case Instruction::Or:
  case Instruction::And:
  case Instruction::Xor:
  case Instruction::LShr:
  case Instruction::AShr:
    return binary(*I, How);
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
    return division(*I, How);
  case Instruction::ICmp:
  case Instruction::FCmp:
    // A boolean: 0 or 1 (-1 or 0 read as signed i1).
    return Bits == 1 && How == Interp::Signed ? constantRange(-1, 0) : constantRange(0, 1);
  case Instruction::Select: {
    const auto *Select = cast<SelectInst>(I);
    std::optional<SymbolicValue> A = value(Select->getTrueValue(), How);
    if (!A)
      return std::nullopt;
    std::optional<SymbolicValue> B = value(Select->getFalseValue(), How);
    if (!B)
      return std::nullopt;
    // min/max idioms keep their meaning; any other condition may go either way.
    Value *L = nullptr, *R = nullptr;
    SelectPatternResult Pattern = matchSelectPattern(const_cast<SelectInst *>(Select), L, R);
    const bool Direct = L == Select->getTrueValue() && R == Select->getFalseValue();
    const bool SignedPattern = Pattern.Flavor == SPF_SMIN || Pattern.Flavor == SPF_SMAX;
    const bool UnsignedPattern = Pattern.Flavor == SPF_UMIN || Pattern.Flavor == SPF_UMAX;
    if (Direct && ((SignedPattern && How == Interp::Signed) ||
                   (UnsignedPattern && How == Interp::Unsigned))) {
      if (Pattern.Flavor == SPF_SMIN || Pattern.Flavor == SPF_UMIN)
        return minValues(*A, *B);
      return maxValues(*A, *B);
    }
    return hull(*A, *B);
  }
  case Instruction::PHI:
    return phi(*cast<PHINode>(I), How);
  case Instruction::Load:
    return fail("an index loaded from memory");
  case Instruction::Call: {
    const auto *Call = cast<CallInst>(I);
    if (const auto *Intrinsic = dyn_cast<IntrinsicInst>(Call)) {
      const Intrinsic::ID ID = Intrinsic->getIntrinsicID();
      if (ID == Intrinsic::smin || ID == Intrinsic::smax || ID == Intrinsic::umin ||
          ID == Intrinsic::umax) {
        const bool Signed = ID == Intrinsic::smin || ID == Intrinsic::smax;
        const Interp Reading = Signed ? Interp::Signed : Interp::Unsigned;
        std::optional<SymbolicValue> A = value(Call->getArgOperand(0), Reading);
        if (!A)
          return std::nullopt;
        std::optional<SymbolicValue> B = value(Call->getArgOperand(1), Reading);
        if (!B)
          return std::nullopt;
        SymbolicValue R =
            ID == Intrinsic::smin || ID == Intrinsic::umin ? minValues(*A, *B) : maxValues(*A, *B);
        return convert(std::move(R), Reading, How, Bits);
      }
      if (ID == Intrinsic::abs) {
        std::optional<SymbolicValue> A = value(Call->getArgOperand(0), Interp::Signed);
        if (!A)
          return std::nullopt;
        SymbolicValue R = maxValues(*A, negValue(*A));
        // |x| >= max(0, lo, -hi): the low bound of the hull above can be negative.
        R.Lo = max(analysis::constant(0), R.Lo);
        clampBounds(R, 0, Int64Max);
        return fitTo(std::move(R), Bits, Interp::Signed);
      }
    }
    if (std::optional<SymbolicValue> Builtin = integerBuiltin(*Call, How))
      return Builtin;
    const Function *Callee = Call->getCalledFunction();
    return fail("a value returned by " +
                (Callee ? "'" + Callee->getName().str() + "'" : std::string("an indirect call")));
  }
  case Instruction::FPToSI:
  case Instruction::FPToUI:
    return fail("an index computed in floating point");
  case Instruction::PtrToInt:
    return fail("an index computed from a pointer");
  default:
    return fail(std::string("an unsupported '") + I->getOpcodeName() + "'");
  }
}

std::optional<SymbolicValue> ValueTranslator::integerBuiltin(const CallInst &Call, Interp How) {
  // OpenCL's integer min, max and clamp: declared functions, mangled with their operand
  // types (_Z3minii, _Z5clampjjj), whose first letter gives the signedness.
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !Call.getType()->isIntegerTy())
    return std::nullopt;
  const StringRef Name = sourceName(Callee->getName());
  const bool Clamp = Name == "clamp";
  if (!(Name == "min" || Name == "max" || Clamp) || Call.arg_size() != (Clamp ? 3u : 2u))
    return std::nullopt;
  const StringRef Params = Callee->getName().drop_front(Callee->getName().find(Name) + Name.size());
  if (Params.empty())
    return std::nullopt;
  const char Code = Params.front();
  Interp Reading;
  if (StringRef("casil").contains(Code))
    Reading = Interp::Signed;
  else if (StringRef("htjm").contains(Code))
    Reading = Interp::Unsigned;
  else
    return std::nullopt;
  std::vector<SymbolicValue> Operands;
  for (const Value *Operand : Call.args()) {
    std::optional<SymbolicValue> V = value(Operand, Reading);
    if (!V)
      return std::nullopt;
    Operands.push_back(std::move(*V));
  }
  SymbolicValue R = Name == "min"   ? minValues(Operands[0], Operands[1])
                    : Name == "max" ? maxValues(Operands[0], Operands[1])
                                    : minValues(maxValues(Operands[0], Operands[1]), Operands[2]);
  return convert(std::move(R), Reading, How, Call.getType()->getIntegerBitWidth());
}

std::optional<SymbolicValue> ValueTranslator::binary(const Instruction &I, Interp How) {
  const unsigned Bits = I.getType()->getIntegerBitWidth();
  const Value *A = I.getOperand(0), *B = I.getOperand(1);
  const auto *ConstB = dyn_cast<ConstantInt>(B);
  const unsigned Opcode = I.getOpcode();

  if (Opcode == Instruction::Or || Opcode == Instruction::Xor) {
    // (x << 4) | 3 and friends: an add whose operands share no bit.
    if (Opcode == Instruction::Or &&
        haveNoCommonBitsSet(const_cast<Value *>(A), const_cast<Value *>(B), DL)) {
      std::optional<SymbolicValue> X = value(A, Interp::Unsigned);
      if (!X)
        return std::nullopt;
      std::optional<SymbolicValue> Y = value(B, Interp::Unsigned);
      if (!Y)
        return std::nullopt;
      return convert(addValues(*X, *Y), Interp::Unsigned, How, Bits);
    }
    if (Opcode == Instruction::Xor && ConstB && ConstB->isMinusOne()) {
      // ~x == -1 - x
      std::optional<SymbolicValue> X = value(A, Interp::Signed);
      if (!X)
        return std::nullopt;
      return convert(subValues(SymbolicValue::constant(-1), *X), Interp::Signed, How, Bits);
    }
    return fail(std::string("an index computed with '") + I.getOpcodeName() + "'");
  }

  if (Opcode == Instruction::And) {
    const Value *Other = A;
    const ConstantInt *Mask = ConstB;
    if (!Mask) {
      Mask = dyn_cast<ConstantInt>(A);
      Other = B;
    }
    if (Mask && !Mask->getValue().isNegative()) {
      const std::int64_t M = static_cast<std::int64_t>(Mask->getZExtValue());
      std::optional<SymbolicValue> X = value(Other, Interp::Unsigned);
      if (!X)
        return convert(constantRange(0, M), Interp::Unsigned, How, Bits);
      if (X->Max && *X->Max <= M)
        return convert(*X, Interp::Unsigned, How, Bits); // the mask changes nothing
      // x & (2^k - 1) with large k is how InstCombine writes zext(trunc x): exact
      // while x fits, which is what the program meant.
      if (Mask->getValue().isMask() && Mask->getValue().countTrailingOnes() >= 16)
        return convert(fitTo(*X, Mask->getValue().countTrailingOnes(), Interp::Unsigned),
                       Interp::Unsigned, How, Bits);
      // Any other mask: the result lies in [0, mask], whatever x is.
      return convert(constantRange(0, M), Interp::Unsigned, How, Bits);
    }
    // x & y lies in [0, y] when y >= 0, whatever x is.
    for (const Value *Side : {A, B}) {
      std::optional<SymbolicValue> Y = value(Side, Interp::Unsigned);
      if (Y && Y->knownNonNegative()) {
        SymbolicValue R;
        R.Lo = analysis::constant(0);
        R.Hi = Y->Hi;
        R.Min = 0;
        R.Max = Y->Max;
        return convert(std::move(R), Interp::Unsigned, How, Bits);
      }
    }
    return fail("an index computed with 'and'");
  }

  if (Opcode == Instruction::LShr || Opcode == Instruction::AShr) {
    if (!ConstB || ConstB->getZExtValue() >= Bits)
      return fail("a shift by a non-constant amount");
    const unsigned Amount = static_cast<unsigned>(ConstB->getZExtValue());
    using namespace PatternMatch;
    Value *Inner = nullptr;
    // sext(trunc x) as InstCombine writes it: (x << c) >>s c.
    if (Opcode == Instruction::AShr && match(A, m_Shl(m_Value(Inner), m_SpecificInt(Amount)))) {
      std::optional<SymbolicValue> X = value(Inner, Interp::Signed);
      if (!X)
        return std::nullopt;
      return convert(fitTo(std::move(*X), Bits - Amount, Interp::Signed), Interp::Signed, How,
                     Bits);
    }
    const Interp Reading = Opcode == Instruction::LShr ? Interp::Unsigned : Interp::Signed;
    std::optional<SymbolicValue> X = value(A, Reading);
    if (!X)
      return std::nullopt;
    return convert(ashrValue(*X, Amount), Reading, How, Bits);
  }

  // Add, Sub, Mul, Shl: exact mathematics under the matching no-wrap flag or in 64 bits,
  // otherwise checked.
  const auto *Op = cast<OverflowingBinaryOperator>(&I);
  const bool NSW = Op->hasNoSignedWrap(), NUW = Op->hasNoUnsignedWrap();
  auto Apply = [&](const SymbolicValue &X, const SymbolicValue &Y) -> SymbolicValue {
    switch (Opcode) {
    case Instruction::Add:
      return addValues(X, Y);
    case Instruction::Sub:
      return subValues(X, Y);
    default:
      return mulValues(X, Y);
    }
  };
  auto Operands = [&](Interp Reading, SymbolicValue &X, SymbolicValue &Y) -> bool {
    std::optional<SymbolicValue> L = value(A, Reading);
    if (!L)
      return false;
    std::optional<SymbolicValue> R;
    if (Opcode == Instruction::Shl) {
      if (!ConstB || ConstB->getZExtValue() >= Bits || ConstB->getZExtValue() > 62) {
        fail("a shift by a non-constant amount");
        return false;
      }
      R = SymbolicValue::constant(std::int64_t(1) << ConstB->getZExtValue());
    } else {
      R = value(B, Reading);
      if (!R)
        return false;
    }
    X = std::move(*L);
    Y = std::move(*R);
    return true;
  };
  SymbolicValue X, Y;
  if (How == Interp::Signed) {
    if (!Operands(Interp::Signed, X, Y))
      return std::nullopt;
    SymbolicValue R = Apply(X, Y);
    return NSW ? R : fitTo(std::move(R), Bits, Interp::Signed);
  }
  // A negative constant operand would read as a huge unsigned one: take the signed route.
  const auto *ConstA = dyn_cast<ConstantInt>(A);
  const bool NegativeConstant =
      (ConstA && ConstA->getValue().isNegative()) || (ConstB && ConstB->getValue().isNegative());
  if (NUW || (Opcode != Instruction::Sub && !NegativeConstant)) {
    // Unsigned operands are non-negative, so their sum or product is too: exact under nuw,
    // checked against 2^Bits otherwise.
    if (!Operands(Interp::Unsigned, X, Y))
      return std::nullopt;
    SymbolicValue R = Apply(X, Y);
    if (NUW) {
      clampBounds(R, 0, Int64Max);
      return R;
    }
    if (Bits >= 64)
      return convert(std::move(R), Interp::Signed, Interp::Unsigned, Bits);
    clampBounds(R, 0, Int64Max);
    return fitTo(std::move(R), Bits, Interp::Unsigned);
  }
  std::optional<SymbolicValue> Signed = value(&I, Interp::Signed);
  if (!Signed)
    return std::nullopt;
  return convert(std::move(*Signed), Interp::Signed, Interp::Unsigned, Bits);
}

std::optional<SymbolicValue> ValueTranslator::division(const Instruction &I, Interp How) {
  const unsigned Bits = I.getType()->getIntegerBitWidth();
  const unsigned Opcode = I.getOpcode();
  const bool Signed = Opcode == Instruction::SDiv || Opcode == Instruction::SRem;
  const Interp Reading = Signed ? Interp::Signed : Interp::Unsigned;
  std::optional<SymbolicValue> A = value(I.getOperand(0), Reading);
  if (!A)
    return std::nullopt;
  std::optional<SymbolicValue> B = value(I.getOperand(1), Reading);
  if (!B)
    return std::nullopt;
  if (!B->isPoint())
    return fail("a division by a loop-varying value");
  SymbolicValue R;
  if (Opcode == Instruction::UDiv || Opcode == Instruction::SDiv) {
    R = divValues(*A, *B);
  } else {
    std::optional<std::int64_t> Divisor = asConstant(B->Lo);
    if (A->isPoint()) {
      R = SymbolicValue::point(rem(A->Lo, B->Lo));
    } else if (Divisor && *Divisor != 0 && *Divisor != Int64Min) {
      const std::int64_t Bound = (*Divisor < 0 ? -*Divisor : *Divisor) - 1;
      R = constantRange(A->knownNonNegative() ? 0 : -Bound, Bound);
    } else {
      return fail("a remainder of a loop-varying value by a non-constant");
    }
    if (Divisor && *Divisor != 0 && *Divisor != Int64Min) {
      const std::int64_t Bound = (*Divisor < 0 ? -*Divisor : *Divisor) - 1;
      clampBounds(R, A->knownNonNegative() ? 0 : -Bound, Bound);
    } else if (A->knownNonNegative()) {
      clampBounds(R, 0, Int64Max);
    }
  }
  return convert(std::move(R), Reading, How, Bits);
}

std::optional<SymbolicValue> ValueTranslator::phi(const PHINode &Phi, Interp How) {
  const Loop *L = LI.getLoopFor(Phi.getParent());
  if (L && L->getHeader() == Phi.getParent()) {
    const SCEV *S = SE.getSCEV(const_cast<PHINode *>(&Phi));
    const auto *Rec = dyn_cast<SCEVAddRecExpr>(S);
    if (!Rec || Rec->getLoop() != L)
      return fail("a loop-carried value that is not an induction variable");
    const Value *Start = nullptr;
    if (const BasicBlock *Preheader = L->getLoopPreheader())
      Start = Phi.getIncomingValueForBlock(Preheader);
    return recurrence(Rec, How, Start);
  }
  // A merge of branches: any incoming value.
  std::optional<SymbolicValue> Result;
  for (const Value *Incoming : Phi.incoming_values()) {
    std::optional<SymbolicValue> V = value(Incoming, How);
    if (!V)
      return std::nullopt;
    Result = Result ? hull(*Result, *V) : *V;
  }
  if (!Result)
    return fail("an empty phi");
  return Result;
}

std::optional<SymbolicValue> ValueTranslator::recurrence(const SCEVAddRecExpr *Rec, Interp How,
                                                         const Value *StartValue) {
  if (!Rec->isAffine())
    return fail("a non-affine induction variable");
  const Loop *L = Rec->getLoop();
  const unsigned Bits = static_cast<unsigned>(SE.getTypeSizeInBits(Rec->getType()));
  if (Bits > 64)
    return fail("an induction variable wider than 64 bits");

  // The reading in which start + k * step is exact mathematics: unsigned under nuw with a
  // non-negative constant step, otherwise signed (checked below unless nsw or 64 bits).
  const SCEV *StepScev = Rec->getStepRecurrence(SE);
  const auto *ConstStepScev = dyn_cast<SCEVConstant>(StepScev);
  const Interp Reading = How == Interp::Unsigned && Rec->hasNoUnsignedWrap() && ConstStepScev &&
                                 !ConstStepScev->getAPInt().isNegative()
                             ? Interp::Unsigned
                             : Interp::Signed;
  std::optional<SymbolicValue> Start;
  if (StartValue && SE.isSCEVable(StartValue->getType()) &&
      SE.getSCEV(const_cast<Value *>(StartValue)) == Rec->getStart())
    Start = value(StartValue, Reading);
  else
    Start = scev(Rec->getStart(), Reading);
  if (!Start)
    return std::nullopt;
  std::optional<SymbolicValue> Step = scev(StepScev, Interp::Signed);
  if (!Step)
    return std::nullopt;

  // Iterations 0 .. BTC: every block of the loop runs at most BTC + 1 times.
  const SCEV *Count = SE.getSymbolicMaxBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Count))
    return boundedByExitTest(Rec, How);
  // The count is unsigned; when ScalarEvolution proves it below 2^(Bits-1), the signed
  // reading is the same and needs no check.
  Interp CountReading = Interp::Unsigned;
  if (const auto *Max = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(L)))
    if (!Max->getAPInt().isNegative())
      CountReading = Interp::Signed;
  // The conditions guarding the loop may simplify the count (n - 1 is not negative when
  // the loop runs, as n > 0 guards it) or complicate it: keep the shorter.
  std::optional<SymbolicValue> Trips = scev(Count, CountReading);
  const SCEV *Guarded = SE.applyLoopGuards(Count, L);
  if (Guarded != Count)
    if (std::optional<SymbolicValue> Alternative = scev(Guarded, CountReading))
      if (!Trips || Alternative->Hi.Nodes.size() < Trips->Hi.Nodes.size())
        Trips = std::move(Alternative);
  if (!Trips)
    return std::nullopt;
  SymbolicValue K = SymbolicValue::point(Trips->Hi);
  K.Min = 0;
  K.Max = Trips->Max;

  // start + k * step for k in [0, K]: k * step lies between 0 and K * step.
  SymbolicValue StepLo = SymbolicValue::point(Step->Lo), StepHi = SymbolicValue::point(Step->Hi);
  StepLo.Min = StepHi.Min = Step->Min;
  StepLo.Max = StepHi.Max = Step->Max;
  Expr SpanLo, SpanHi;
  std::optional<std::int64_t> ConstStep = asConstant(Step->Lo);
  if (Step->knownNonNegative() || (ConstStep && Step->isPoint() && *ConstStep >= 0)) {
    SpanLo = analysis::constant(0);
    SpanHi = mulValues(K, StepHi).Hi;
  } else if ((Step->Max && *Step->Max <= 0) || (ConstStep && Step->isPoint() && *ConstStep < 0)) {
    SpanLo = mulValues(K, StepLo).Lo;
    SpanHi = analysis::constant(0);
  } else {
    SpanLo = min(analysis::constant(0), mulValues(K, StepLo).Lo);
    SpanHi = max(analysis::constant(0), mulValues(K, StepHi).Hi);
  }
  SymbolicValue Result;
  Result.Lo = add(Start->Lo, SpanLo);
  Result.Hi = add(Start->Hi, SpanHi);
  // Constant bounds: start + [min(0, K * step), max(0, K * step)].
  if (Start->Min && Start->Max && Step->Min && Step->Max && K.Max) {
    std::int64_t A, B, Lo, Hi;
    if (!__builtin_mul_overflow(*K.Max, *Step->Min, &A) &&
        !__builtin_mul_overflow(*K.Max, *Step->Max, &B) &&
        !__builtin_add_overflow(*Start->Min, std::min<std::int64_t>(0, A), &Lo) &&
        !__builtin_add_overflow(*Start->Max, std::max<std::int64_t>(0, B), &Hi)) {
      Result.Min = Lo;
      Result.Max = Hi;
    }
  }
  // With a counter the summary names, the value is start + counter * step itself: the
  // iterations stay apart (a column read row by row is its elements, not their hull), with the
  // same constant bounds.
  if (Start->isPoint() && Step->isPoint())
    if (std::optional<std::uint32_t> Counter = counterOf(L, Trips->Hi)) {
      SymbolicValue Counted = SymbolicValue::point(
          add(Start->Lo, mul(analysis::leaf(Leaf::LoopCount, *Counter), Step->Lo)));
      Counted.Min = Result.Min;
      Counted.Max = Result.Max;
      Result = std::move(Counted);
    }
  const bool Exact = Bits >= 64 || Reading == Interp::Unsigned || Rec->hasNoSignedWrap();
  if (!Exact)
    Result = fitTo(std::move(Result), Bits, Interp::Signed);
  return convert(std::move(Result), Reading, How, Bits);
}

std::optional<std::uint32_t> ValueTranslator::counterOf(const Loop *L, const Expr &Last) {
  for (std::size_t I = 0; I < Counters.size(); ++I)
    if (Counters[I].first == L)
      return static_cast<std::uint32_t>(I);
  if (Counters.size() >= analysis::MaxSummaryLoops || regions::tooLarge(Last))
    return std::nullopt;
  // Its last count may name the counters of loops registered before it only (they were
  // translated first), which the evaluator ranges in order.
  for (const analysis::ExprNode &Node : Last.Nodes)
    if (Node.IsLeaf && Node.Kind == Leaf::LoopCount && Node.Index >= Counters.size())
      return std::nullopt;
  Counters.emplace_back(L, Last);
  return static_cast<std::uint32_t>(Counters.size() - 1);
}

std::vector<Expr> ValueTranslator::loopLasts() const {
  std::vector<Expr> Lasts;
  for (const auto &[L, Last] : Counters)
    Lasts.push_back(Last);
  return Lasts;
}

std::optional<SymbolicValue> ValueTranslator::boundedByExitTest(const SCEVAddRecExpr *Rec,
                                                                Interp How) {
  // Without a trip count, a rotated loop that continues only while the next value is below
  // a loop-invariant bound still bounds every value: the first, and each one that passed
  // the test (a grid-stride loop: i += get_global_size(0) while i < n).
  const Loop *L = Rec->getLoop();
  const unsigned Bits = static_cast<unsigned>(SE.getTypeSizeInBits(Rec->getType()));
  const BasicBlock *Latch = L->getLoopLatch();
  const auto *Branch = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  const auto *Compare =
      Branch && Branch->isConditional() ? dyn_cast<ICmpInst>(Branch->getCondition()) : nullptr;
  if (!Compare)
    return fail("a loop whose trip count is unknown");
  const bool ContinueWhenTrue = Branch->getSuccessor(0) == L->getHeader();
  if (!ContinueWhenTrue && Branch->getSuccessor(1) != L->getHeader())
    return fail("a loop whose trip count is unknown");
  CmpInst::Predicate Predicate =
      ContinueWhenTrue ? Compare->getPredicate() : Compare->getInversePredicate();
  // The tested value is the next one (operands of equal sums may be ordered differently, so
  // compare by difference).
  const SCEV *Next = Rec->getPostIncExpr(SE);
  auto IsNext = [&](const Value *V) {
    const SCEV *Difference = SE.getMinusSCEV(SE.getSCEV(const_cast<Value *>(V)), Next);
    return !isa<SCEVCouldNotCompute>(Difference) && Difference->isZero();
  };
  const Value *Bound = nullptr;
  if (IsNext(Compare->getOperand(0))) {
    Bound = Compare->getOperand(1);
  } else if (IsNext(Compare->getOperand(1))) {
    Bound = Compare->getOperand(0);
    Predicate = CmpInst::getSwappedPredicate(Predicate);
  }
  if (!Bound || !SE.isLoopInvariant(SE.getSCEV(const_cast<Value *>(Bound)), L) ||
      (Predicate != CmpInst::ICMP_ULT && Predicate != CmpInst::ICMP_ULE &&
       Predicate != CmpInst::ICMP_SLT && Predicate != CmpInst::ICMP_SLE))
    return fail("a loop whose trip count is unknown");
  const Interp Reading = CmpInst::isUnsigned(Predicate) ? Interp::Unsigned : Interp::Signed;
  std::optional<SymbolicValue> Start = scev(Rec->getStart(), Reading);
  if (!Start)
    return std::nullopt;
  std::optional<SymbolicValue> Step = scev(Rec->getStepRecurrence(SE), Reading);
  if (!Step)
    return std::nullopt;
  if (!Step->knownNonNegative())
    return fail("a loop whose trip count is unknown");
  std::optional<SymbolicValue> Limit = value(Bound, Reading);
  if (!Limit)
    return std::nullopt;
  const bool Strict = Predicate == CmpInst::ICMP_ULT || Predicate == CmpInst::ICMP_SLT;
  SymbolicValue Result;
  Result.Lo = Start->Lo;
  Result.Hi = max(Start->Hi, Strict ? add(Limit->Hi, analysis::constant(-1)) : Limit->Hi);
  Result.Min = Start->Min;
  // Values grow from the start only while adding the step cannot wrap: largest value plus
  // step must stay within the reading's range.
  const bool NoWrap =
      Reading == Interp::Unsigned ? Rec->hasNoUnsignedWrap() : Rec->hasNoSignedWrap();
  const Expr Reach = add(Result.Hi, Step->Hi);
  // A counter the summary names: every value the test lets through is start + k * step with
  // k <= (last value - start) / step (a grid-stride loop: a work-item's stripes, not its hull).
  if (Start->isPoint() && Step->isPoint()) {
    const Expr Last = divTrunc(sub(Result.Hi, Start->Lo), Step->Lo);
    if (std::optional<std::uint32_t> Counter = counterOf(L, Last)) {
      SymbolicValue Counted = SymbolicValue::point(
          add(Start->Lo, mul(analysis::leaf(Leaf::LoopCount, *Counter), Step->Lo)));
      Counted.Min = Result.Min;
      Result = std::move(Counted);
    }
  }
  if (!NoWrap) {
    if (Bits >= 64)
      addCheck(Result, Reach); // bounded exactly when the sum does not overflow
    else if (Reading == Interp::Unsigned)
      addCheck(Result, rangeCheck(Reach, 0, Bits));
    else
      addCheck(Result, rangeCheck(Reach, -(std::int64_t(1) << (Bits - 1)), Bits));
  }
  return convert(std::move(Result), Reading, How, Bits);
}

std::optional<SymbolicValue> ValueTranslator::scev(const SCEV *S, Interp How) {
  std::optional<SymbolicValue> Result = computeScev(S, How);
  if (Result && Result->tooLarge())
    return fail("expression too large");
  return Result;
}

std::optional<SymbolicValue> ValueTranslator::computeScev(const SCEV *S, Interp How) {
  const unsigned Bits = static_cast<unsigned>(SE.getTypeSizeInBits(S->getType()));
  if (Bits > 64 || S->getType()->isPointerTy())
    return fail("not an integer of at most 64 bits");
  switch (S->getSCEVType()) {
  case scConstant: {
    const APInt &C = cast<SCEVConstant>(S)->getAPInt();
    if (How == Interp::Signed)
      return SymbolicValue::constant(C.getSExtValue());
    if (C.getActiveBits() > 63)
      return fail("an unsigned 64-bit constant above INT64_MAX");
    return SymbolicValue::constant(static_cast<std::int64_t>(C.getZExtValue()));
  }
  case scUnknown:
    return value(cast<SCEVUnknown>(S)->getValue(), How);
  case scTruncate: {
    std::optional<SymbolicValue> Source = scev(cast<SCEVCastExpr>(S)->getOperand(), How);
    if (!Source)
      return std::nullopt;
    return fitTo(std::move(*Source), Bits, How);
  }
  case scZeroExtend:
    return scev(cast<SCEVCastExpr>(S)->getOperand(), Interp::Unsigned);
  case scSignExtend: {
    std::optional<SymbolicValue> Source = scev(cast<SCEVCastExpr>(S)->getOperand(), Interp::Signed);
    if (!Source)
      return std::nullopt;
    return convert(std::move(*Source), Interp::Signed, How, Bits);
  }
  case scAddExpr:
  case scMulExpr: {
    const auto *Nary = cast<SCEVNAryExpr>(S);
    const bool Add = S->getSCEVType() == scAddExpr;
    const bool NSW = Nary->hasNoSignedWrap(), NUW = Nary->hasNoUnsignedWrap();
    // The reading in which the operation is exact, or checked against.
    // A negative constant operand would read as a huge unsigned one.
    bool NegativeConstant = false;
    for (const SCEV *Operand : Nary->operands())
      if (const auto *C = dyn_cast<SCEVConstant>(Operand))
        NegativeConstant |= C->getAPInt().isNegative();
    Interp Reading;
    if (How == Interp::Signed)
      Reading = NSW || !NUW ? Interp::Signed : Interp::Unsigned;
    else
      Reading = NUW || (!NSW && !NegativeConstant) ? Interp::Unsigned : Interp::Signed;
    std::optional<SymbolicValue> Acc;
    for (const SCEV *Operand : Nary->operands()) {
      std::optional<SymbolicValue> V = scev(Operand, Reading);
      if (!V)
        return std::nullopt;
      Acc = !Acc ? *V : Add ? addValues(*Acc, *V) : mulValues(*Acc, *V);
    }
    const bool Exact = Reading == Interp::Signed ? NSW : NUW;
    if (!Exact) {
      if (Reading == Interp::Unsigned)
        clampBounds(*Acc, 0, Int64Max); // sum or product of non-negative operands
      Acc = fitTo(std::move(*Acc), Bits, Reading);
    } else if (Reading == Interp::Unsigned) {
      clampBounds(*Acc, 0, Int64Max);
    }
    return convert(std::move(*Acc), Reading, How, Bits);
  }
  case scUDivExpr: {
    const auto *Div = cast<SCEVUDivExpr>(S);
    std::optional<SymbolicValue> A = scev(Div->getLHS(), Interp::Unsigned);
    if (!A)
      return std::nullopt;
    std::optional<SymbolicValue> B = scev(Div->getRHS(), Interp::Unsigned);
    if (!B)
      return std::nullopt;
    if (!B->isPoint())
      return fail("a division by a loop-varying value");
    SymbolicValue R = divValues(*A, *B);
    clampBounds(R, 0, Int64Max);
    return convert(std::move(R), Interp::Unsigned, How, Bits);
  }
  case scAddRecExpr:
    return recurrence(cast<SCEVAddRecExpr>(S), How, nullptr);
  case scSMaxExpr:
  case scSMinExpr:
  case scUMaxExpr:
  case scUMinExpr:
  case scSequentialUMinExpr: {
    const unsigned Kind = S->getSCEVType();
    const bool Signed = Kind == scSMaxExpr || Kind == scSMinExpr;
    const bool IsMax = Kind == scSMaxExpr || Kind == scUMaxExpr;
    const Interp Reading = Signed ? Interp::Signed : Interp::Unsigned;
    std::optional<SymbolicValue> Acc;
    for (const SCEV *Operand : cast<SCEVNAryExpr>(S)->operands()) {
      std::optional<SymbolicValue> V = scev(Operand, Reading);
      if (!V)
        return std::nullopt;
      Acc = !Acc ? *V : IsMax ? maxValues(*Acc, *V) : minValues(*Acc, *V);
    }
    return convert(std::move(*Acc), Reading, How, Bits);
  }
  default:
    return fail("an unsupported expression");
  }
}

} // namespace libsplit::regions
