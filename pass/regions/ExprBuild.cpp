//===- ExprBuild.cpp - Building summary expressions with light folding ---===//

#include "ExprBuild.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace libsplit::regions {

using analysis::ExprNode;
using analysis::Leaf;
using analysis::Op;

namespace {

/// The sub-expression ending at node End - 1 starts at the returned index.
std::size_t startOf(const Expr &E, std::size_t End) {
  int Needed = 1;
  std::size_t At = End;
  while (Needed > 0 && At > 0) {
    const ExprNode &Node = E.Nodes[--At];
    Needed += Node.IsLeaf ? -1 : analysis::arity(Node.Operator) - 1;
  }
  return At;
}

Expr slice(const Expr &E, std::size_t Begin, std::size_t End) {
  Expr Out;
  Out.Nodes.assign(E.Nodes.begin() + Begin, E.Nodes.begin() + End);
  return Out;
}

/// Operator and operands of a non-leaf expression.
bool decompose(const Expr &E, Op &Operator, Expr &Lhs, Expr &Rhs) {
  if (E.Nodes.empty() || E.Nodes.back().IsLeaf)
    return false;
  Operator = E.Nodes.back().Operator;
  const std::size_t End = E.Nodes.size() - 1;
  if (analysis::arity(Operator) == 1) {
    Lhs = slice(E, 0, End);
    Rhs = Expr{};
    return true;
  }
  const std::size_t RhsBegin = startOf(E, End);
  Lhs = slice(E, 0, RhsBegin);
  Rhs = slice(E, RhsBegin, End);
  return true;
}

Expr raw(Op Operator, const Expr &A, const Expr &B) { return analysis::apply(Operator, A, B); }

} // namespace

std::optional<std::int64_t> asConstant(const Expr &E) {
  if (E.Nodes.size() == 1 && E.Nodes[0].IsLeaf && E.Nodes[0].Kind == Leaf::Constant)
    return E.Nodes[0].Value;
  return std::nullopt;
}

unsigned depth(const Expr &E) {
  std::vector<unsigned> Stack;
  for (const ExprNode &Node : E.Nodes) {
    if (Node.IsLeaf) {
      Stack.push_back(1);
      continue;
    }
    unsigned Deepest = 0;
    for (int I = 0; I < analysis::arity(Node.Operator) && !Stack.empty(); ++I) {
      Deepest = std::max(Deepest, Stack.back());
      Stack.pop_back();
    }
    Stack.push_back(Deepest + 1);
  }
  return Stack.empty() ? 0 : Stack.back();
}

bool tooLarge(const Expr &E) { return E.Nodes.size() > MaxExprNodes || depth(E) > MaxExprDepth; }

void splitOffset(const Expr &E, Expr &Base, std::int64_t &Offset) {
  Op Operator;
  Expr Lhs, Rhs;
  if (std::optional<std::int64_t> C = asConstant(E)) {
    Base = Expr{};
    Offset = *C;
    return;
  }
  if (decompose(E, Operator, Lhs, Rhs) && Operator == Op::Add)
    if (std::optional<std::int64_t> C = asConstant(Rhs)) {
      Base = Lhs;
      Offset = *C;
      return;
    }
  Base = E;
  Offset = 0;
}

Expr add(const Expr &A, const Expr &B) {
  // An empty expression is splitOffset's base of a constant: zero.
  if (A.Nodes.empty())
    return B;
  if (B.Nodes.empty())
    return A;
  std::optional<std::int64_t> CA = asConstant(A), CB = asConstant(B);
  if (CA && CB) {
    std::int64_t Sum;
    if (!__builtin_add_overflow(*CA, *CB, &Sum))
      return analysis::constant(Sum);
    return raw(Op::Add, A, B);
  }
  if (CA)
    return add(B, A);
  if (CB && *CB == 0)
    return A;
  Op Operator;
  Expr Lhs, Rhs;
  if (decompose(B, Operator, Lhs, Rhs) && Operator == Op::Neg)
    return sub(A, Lhs); // a + -x -> a - x
  // Keep one constant, outermost: (X + c1) + (Y + c2) -> (X + Y) + (c1 + c2).
  Expr BaseA, BaseB;
  std::int64_t OffA, OffB, Sum;
  splitOffset(A, BaseA, OffA);
  splitOffset(B, BaseB, OffB);
  if ((OffA != 0 || OffB != 0) && !__builtin_add_overflow(OffA, OffB, &Sum)) {
    Expr Bases = BaseB.Nodes.empty()   ? BaseA
                 : BaseA.Nodes.empty() ? BaseB
                                       : raw(Op::Add, BaseA, BaseB);
    if (Bases.Nodes.empty())
      return analysis::constant(Sum);
    return Sum == 0 ? Bases : raw(Op::Add, Bases, analysis::constant(Sum));
  }
  return raw(Op::Add, A, B);
}

Expr neg(const Expr &A) {
  if (std::optional<std::int64_t> C = asConstant(A))
    if (*C != std::numeric_limits<std::int64_t>::min())
      return analysis::constant(-*C);
  Op Operator;
  Expr Lhs, Rhs;
  if (decompose(A, Operator, Lhs, Rhs) && Operator == Op::Neg)
    return Lhs;
  return analysis::negate(A);
}

Expr sub(const Expr &A, const Expr &B) {
  if (A == B)
    return analysis::constant(0);
  if (std::optional<std::int64_t> CB = asConstant(B))
    if (*CB != std::numeric_limits<std::int64_t>::min())
      return add(A, analysis::constant(-*CB));
  if (std::optional<std::int64_t> CA = asConstant(A); CA && *CA == 0)
    return neg(B);
  // (X + c1) - (Y + c2) -> (X - Y) + (c1 - c2).
  Expr BaseA, BaseB;
  std::int64_t OffA, OffB, Diff;
  splitOffset(A, BaseA, OffA);
  splitOffset(B, BaseB, OffB);
  if ((OffA != 0 || OffB != 0) && !BaseA.Nodes.empty() && !BaseB.Nodes.empty() &&
      !__builtin_sub_overflow(OffA, OffB, &Diff))
    return add(BaseA == BaseB ? analysis::constant(0) : raw(Op::Sub, BaseA, BaseB),
               analysis::constant(Diff));
  return raw(Op::Sub, A, B);
}

Expr mul(const Expr &A, const Expr &B) {
  std::optional<std::int64_t> CA = asConstant(A), CB = asConstant(B);
  if (CA && CB) {
    std::int64_t Product;
    if (!__builtin_mul_overflow(*CA, *CB, &Product))
      return analysis::constant(Product);
    return raw(Op::Mul, A, B);
  }
  if (CB)
    return mul(B, A); // constants first: (mul 4 X)
  if (CA) {
    if (*CA == 0)
      return analysis::constant(0);
    if (*CA == 1)
      return B;
    if (*CA == -1)
      return neg(B);
    // c * (X + d) -> c*X + c*d, so that constant offsets stay outermost.
    Expr Base;
    std::int64_t Offset, Scaled;
    splitOffset(B, Base, Offset);
    if (Offset != 0 && !__builtin_mul_overflow(*CA, Offset, &Scaled))
      return add(mul(A, Base), analysis::constant(Scaled));
    Op Operator;
    Expr Lhs, Rhs;
    if (decompose(B, Operator, Lhs, Rhs) && Operator == Op::Mul)
      if (std::optional<std::int64_t> Inner = asConstant(Lhs)) {
        std::int64_t Product;
        if (!__builtin_mul_overflow(*CA, *Inner, &Product))
          return mul(analysis::constant(Product), Rhs);
      }
  }
  return raw(Op::Mul, A, B);
}

Expr divTrunc(const Expr &A, const Expr &B) {
  std::optional<std::int64_t> CA = asConstant(A), CB = asConstant(B);
  if (CB && *CB == 1)
    return A;
  if (CA && CB && *CB != 0 && !(*CA == std::numeric_limits<std::int64_t>::min() && *CB == -1))
    return analysis::constant(*CA / *CB);
  return raw(Op::Div, A, B);
}

Expr rem(const Expr &A, const Expr &B) {
  std::optional<std::int64_t> CA = asConstant(A), CB = asConstant(B);
  if (CA && CB && *CB != 0 && *CB != -1)
    return analysis::constant(*CA % *CB);
  return raw(Op::Rem, A, B);
}

/// min (Smaller) or max of two expressions, folded when they differ by a constant.
Expr extreme(const Expr &A, const Expr &B, bool Smaller) {
  if (A == B)
    return A;
  Expr BaseA, BaseB;
  std::int64_t OffA, OffB;
  splitOffset(A, BaseA, OffA);
  splitOffset(B, BaseB, OffB);
  if (BaseA == BaseB)
    return (OffA < OffB) == Smaller ? A : B;
  return raw(Smaller ? Op::Min : Op::Max, A, B);
}

Expr min(const Expr &A, const Expr &B) { return extreme(A, B, /*Smaller=*/true); }

Expr max(const Expr &A, const Expr &B) { return extreme(A, B, /*Smaller=*/false); }

Expr ashr(const Expr &A, unsigned Amount) {
  if (Amount == 0)
    return A;
  if (std::optional<std::int64_t> C = asConstant(A))
    return analysis::constant(*C >> std::min(Amount, 63u));
  return raw(Op::AShr, A, analysis::constant(Amount));
}

Expr andMask(const Expr &A, std::int64_t Mask) {
  if (std::optional<std::int64_t> C = asConstant(A))
    return analysis::constant(*C & Mask);
  return raw(Op::And, A, analysis::constant(Mask));
}

Expr checkedSigned(const Expr &X, unsigned Bits) {
  if (Bits >= 64)
    return X;
  if (std::optional<std::int64_t> C = asConstant(X))
    if (*C >= -(std::int64_t(1) << (Bits - 1)) && *C < (std::int64_t(1) << (Bits - 1)))
      return X;
  const Expr Amount = analysis::constant(64 - Bits);
  return raw(Op::AShr, raw(Op::Shl, X, Amount), Amount);
}

Expr checkedUnsigned(const Expr &X, unsigned Bits) {
  if (Bits >= 63)
    return X;
  if (std::optional<std::int64_t> C = asConstant(X))
    if (*C >= 0 && *C < (std::int64_t(1) << Bits))
      return X;
  const Expr Amount = analysis::constant(63 - Bits);
  return raw(Op::AShr, raw(Op::Shl, X, Amount), Amount);
}

Expr rangeCheck(const Expr &X, std::int64_t Lower, unsigned Log2Size) {
  if (std::optional<std::int64_t> C = asConstant(X))
    if (*C >= Lower && static_cast<std::uint64_t>(*C) - static_cast<std::uint64_t>(Lower) <
                           (std::uint64_t(1) << Log2Size))
      return analysis::constant(0); // in range: a constant check always holds
  // X - (Lower + 2^(Log2Size-1)) lies in [-2^(Log2Size-1), 2^(Log2Size-1)) exactly when X
  // is in range, and then shifting it left by 64 - Log2Size does not overflow.
  const std::int64_t Center = Lower + (std::int64_t(1) << (Log2Size - 1));
  // Not folded into X's own constant, so that --explain recognises the form.
  return raw(Op::Shl, raw(Op::Add, X, analysis::constant(-Center)),
             analysis::constant(64 - Log2Size));
}

Expr validIf(const Expr &E, llvm::ArrayRef<Expr> Checks) {
  std::optional<Expr> All;
  for (const Expr &Check : Checks) {
    if (asConstant(Check) || (All && Check == *All))
      continue; // a constant is always bounded
    // min never overflows: bounded exactly when both operands are.
    All = All ? raw(Op::Min, *All, Check) : Check;
  }
  if (!All)
    return E;
  return raw(Op::Add, E, raw(Op::Mul, analysis::constant(0), *All));
}

} // namespace libsplit::regions
