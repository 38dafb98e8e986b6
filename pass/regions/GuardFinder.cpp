//===- GuardFinder.cpp - Uniform conditions on ids that guard an access ---===//

#include "GuardFinder.h"

#include "ExprBuild.h"
#include "ValueTranslator.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

namespace libsplit::regions {

using namespace llvm;
using analysis::Guard;
using analysis::Leaf;

namespace {

constexpr unsigned MaxConditionDepth = 16;

enum class Relation { Less, LessEqual, Greater, GreaterEqual, Equal };

Relation mirrored(Relation R) {
  switch (R) {
  case Relation::Less:
    return Relation::Greater;
  case Relation::LessEqual:
    return Relation::GreaterEqual;
  case Relation::Greater:
    return Relation::Less;
  case Relation::GreaterEqual:
    return Relation::LessEqual;
  case Relation::Equal:
    return Relation::Equal;
  }
  return R;
}

Leaf sizeOf(Leaf Id) {
  return Id == Leaf::GlobalId  ? Leaf::GlobalSize
         : Id == Leaf::LocalId ? Leaf::LocalSize
                               : Leaf::NumGroups;
}

/// id Relation bound, where the value is Coef * id + Rest and the bound Bound:
/// id Relation (Bound - Rest) for Coef = 1, id mirrored(Relation) (Rest - Bound) for -1.
void emit(const LinearForm &Form, Relation R, const SymbolicValue &Bound,
          const std::vector<Expr> &Checks, std::vector<Guard> &Out) {
  Expr Lo = sub(Bound.Lo, Form.RestHi), Hi = sub(Bound.Hi, Form.RestLo);
  if (Form.Coef < 0) {
    Expr NegLo = neg(Hi), NegHi = neg(Lo);
    Lo = NegLo;
    Hi = NegHi;
    R = mirrored(R);
  }
  Guard G;
  G.Id = Form.Id;
  G.Dim = Form.Dim;
  G.Lower = neutralLower(Form.Id, Form.Dim);
  G.Upper = neutralUpper(Form.Id, Form.Dim);
  const Expr One = analysis::constant(1);
  std::optional<Expr> Lower, Upper;
  switch (R) {
  case Relation::Less:
    Upper = sub(Hi, One);
    break;
  case Relation::LessEqual:
    Upper = Hi;
    break;
  case Relation::Greater:
    Lower = add(Lo, One);
    break;
  case Relation::GreaterEqual:
    Lower = Lo;
    break;
  case Relation::Equal:
    Lower = Lo;
    Upper = Hi;
    break;
  }
  // A bound every id satisfies anyway (id >= 0) says nothing.
  if (Lower && *Lower == G.Lower)
    Lower.reset();
  if (Upper && *Upper == G.Upper)
    Upper.reset();
  if (!Lower && !Upper)
    return;
  if (Lower)
    G.Lower = validIf(*Lower, Checks);
  if (Upper)
    G.Upper = validIf(*Upper, Checks);
  if (tooLarge(G.Lower) || tooLarge(G.Upper))
    return; // a guard is optional: dropping one only widens the region
  Out.push_back(std::move(G));
}

bool isLowerOnly(const Guard &G) { return G.Upper == neutralUpper(G.Id, G.Dim); }
bool isUpperOnly(const Guard &G) { return G.Lower == neutralLower(G.Id, G.Dim); }

bool sameGuard(const Guard &A, const Guard &B) {
  return A.Id == B.Id && A.Dim == B.Dim && A.Lower == B.Lower && A.Upper == B.Upper;
}

} // namespace

Expr neutralLower(Leaf, std::uint32_t) { return analysis::constant(0); }

Expr neutralUpper(Leaf Id, std::uint32_t Dim) {
  Expr Last = analysis::leaf(sizeOf(Id), Dim);
  if (Id == Leaf::GlobalId)
    Last = add(analysis::leaf(Leaf::GlobalOffset, Dim), Last);
  return add(Last, analysis::constant(-1));
}

std::vector<Guard> combineGuards(const std::vector<Guard> &Guards) {
  std::vector<Guard> Out;
  for (const Guard &G : Guards) {
    bool Done = false;
    for (Guard &Existing : Out) {
      if (Existing.Id != G.Id || Existing.Dim != G.Dim)
        continue;
      if (sameGuard(Existing, G)) {
        Done = true;
      } else if (isLowerOnly(Existing) && isUpperOnly(G) && !isLowerOnly(G)) {
        Existing.Upper = G.Upper;
        Done = true;
      } else if (isUpperOnly(Existing) && isLowerOnly(G) && !isUpperOnly(G)) {
        Existing.Lower = G.Lower;
        Done = true;
      }
      if (Done)
        break;
    }
    if (!Done)
      Out.push_back(G);
  }
  return Out;
}

std::vector<Guard> GuardFinder::guardsFor(const BasicBlock *Block) {
  if (auto Found = Cache.find(Block); Found != Cache.end())
    return Found->second;
  std::vector<Guard> Raw;
  if (DomTreeNode *Node = DT.getNode(const_cast<BasicBlock *>(Block)))
    for (DomTreeNode *Dominator = Node->getIDom(); Dominator; Dominator = Dominator->getIDom()) {
      BasicBlock *From = Dominator->getBlock();
      const auto *Branch = dyn_cast<BranchInst>(From->getTerminator());
      if (!Branch || !Branch->isConditional() || Branch->getSuccessor(0) == Branch->getSuccessor(1))
        continue;
      if (DT.dominates(BasicBlockEdge(From, Branch->getSuccessor(0)), Block))
        fromCondition(Branch->getCondition(), true, 0, Raw);
      else if (DT.dominates(BasicBlockEdge(From, Branch->getSuccessor(1)), Block))
        fromCondition(Branch->getCondition(), false, 0, Raw);
    }
  std::vector<Guard> Guards = combineGuards(Raw);
  Cache[Block] = Guards;
  return Guards;
}

void GuardFinder::fromCondition(const Value *Condition, bool Holds, unsigned Depth,
                                std::vector<Guard> &Out) {
  if (Depth > MaxConditionDepth)
    return;
  using namespace PatternMatch;
  Value *A = nullptr, *B = nullptr;
  // a && b holding means both hold; a || b failing means both fail.
  Value *Cond = const_cast<Value *>(Condition);
  if (match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) {
    if (Holds) {
      fromCondition(A, true, Depth + 1, Out);
      fromCondition(B, true, Depth + 1, Out);
    }
    return;
  }
  if (match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
    if (!Holds) {
      fromCondition(A, false, Depth + 1, Out);
      fromCondition(B, false, Depth + 1, Out);
    }
    return;
  }
  if (match(Cond, m_Not(m_Value(A)))) {
    fromCondition(A, !Holds, Depth + 1, Out);
    return;
  }
  if (const auto *Compare = dyn_cast<ICmpInst>(Condition))
    fromCompare(*Compare, Holds ? Compare->getPredicate() : Compare->getInversePredicate(), Out);
}

void GuardFinder::fromNotEqual(const Value *A, const Value *B, std::vector<analysis::Guard> &Out) {
  // x != c where c is x's proven minimum (maximum) means x >= c + 1 (x <= c - 1): clang writes
  // an unsigned `i > 0` as `i == 0` and takes its false edge, the lower bound of every stencil
  // written with uint indices.
  std::optional<SymbolicValue> X = Values.value(A, Interp::Signed);
  std::optional<SymbolicValue> Y = Values.value(B, Interp::Signed);
  if (X && Y && !X->Linear && Y->Linear)
    std::swap(X, Y);
  if (!X || !Y || !X->Linear || !Y->Min || !Y->Max || *Y->Min != *Y->Max)
    return;
  const std::int64_t C = *Y->Min;
  if (X->Min && *X->Min == C && C < INT64_MAX)
    emit(*X->Linear, Relation::GreaterEqual, SymbolicValue::constant(C + 1), X->Linear->Checks,
         Out);
  else if (X->Max && *X->Max == C && C > INT64_MIN)
    emit(*X->Linear, Relation::LessEqual, SymbolicValue::constant(C - 1), X->Linear->Checks, Out);
}

void GuardFinder::fromCompare(const ICmpInst &Compare, CmpInst::Predicate Predicate,
                              std::vector<Guard> &Out) {
  const Value *A = Compare.getOperand(0), *B = Compare.getOperand(1);
  if (!A->getType()->isIntegerTy() || A->getType()->getIntegerBitWidth() > 64)
    return;
  if (Predicate == CmpInst::ICMP_NE) {
    fromNotEqual(A, B, Out);
    return;
  }
  std::optional<SymbolicValue> X = Values.value(A, Interp::Signed);
  std::optional<SymbolicValue> Y = Values.value(B, Interp::Signed);
  if (X && Y && !X->Linear && Y->Linear) {
    std::swap(X, Y);
    Predicate = CmpInst::getSwappedPredicate(Predicate);
  }
  if (X && Y && X->Linear) {
    // Both sides exactly as signed values (their checks say where they are).
    std::vector<Expr> Checks = X->Linear->Checks;
    Relation R = Relation::Equal;
    bool AlsoNonNegative = false;
    switch (Predicate) {
    case CmpInst::ICMP_EQ:
      R = Relation::Equal;
      break;
    case CmpInst::ICMP_SLT:
      R = Relation::Less;
      break;
    case CmpInst::ICMP_SLE:
      R = Relation::LessEqual;
      break;
    case CmpInst::ICMP_SGT:
      R = Relation::Greater;
      break;
    case CmpInst::ICMP_SGE:
      R = Relation::GreaterEqual;
      break;
    case CmpInst::ICMP_ULT:
    case CmpInst::ICMP_ULE:
      // With y a non-negative signed value, x <u y exactly when 0 <= x < y: a negative x
      // reads as an unsigned number above any non-negative signed y. This is also how
      // InstCombine writes a range test (x - 1 <u n - 2 for 1 <= x < n - 1).
      R = Predicate == CmpInst::ICMP_ULT ? Relation::Less : Relation::LessEqual;
      if (!Y->knownNonNegative())
        Checks.push_back(rangeCheck(Y->Lo, 0, 63));
      AlsoNonNegative = !X->knownNonNegative();
      break;
    case CmpInst::ICMP_UGT:
    case CmpInst::ICMP_UGE:
      // A non-negative x is above y as unsigned only if it is above y as signed (a
      // negative y reads as a huge unsigned number: then the branch never runs).
      if (!X->knownNonNegative())
        return;
      R = Predicate == CmpInst::ICMP_UGT ? Relation::Greater : Relation::GreaterEqual;
      break;
    default:
      return;
    }
    emit(*X->Linear, R, *Y, Checks, Out);
    if (AlsoNonNegative)
      emit(*X->Linear, Relation::GreaterEqual, SymbolicValue::constant(0), Checks, Out);
    return;
  }
  if (!CmpInst::isUnsigned(Predicate))
    return;
  // Unsigned comparisons of exact unsigned values are plain comparisons.
  X = Values.value(A, Interp::Unsigned);
  Y = Values.value(B, Interp::Unsigned);
  if (!X || !Y)
    return;
  if (!X->Linear && Y->Linear) {
    std::swap(X, Y);
    Predicate = CmpInst::getSwappedPredicate(Predicate);
  }
  if (!X->Linear)
    return;
  const Relation R = Predicate == CmpInst::ICMP_ULT   ? Relation::Less
                     : Predicate == CmpInst::ICMP_ULE ? Relation::LessEqual
                     : Predicate == CmpInst::ICMP_UGT ? Relation::Greater
                                                      : Relation::GreaterEqual;
  emit(*X->Linear, R, *Y, X->Linear->Checks, Out);
}

} // namespace libsplit::regions
