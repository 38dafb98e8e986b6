//===- SymbolicArith.cpp - Interval arithmetic on symbolic values --------===//

#include "SymbolicArith.h"

#include <algorithm>

namespace libsplit::regions {

namespace {

using Bound = std::optional<std::int64_t>;

Bound addBound(Bound A, Bound B) {
  std::int64_t Sum;
  if (!A || !B || __builtin_add_overflow(*A, *B, &Sum))
    return std::nullopt;
  return Sum;
}

Bound subBound(Bound A, Bound B) {
  std::int64_t Diff;
  if (!A || !B || __builtin_sub_overflow(*A, *B, &Diff))
    return std::nullopt;
  return Diff;
}

Bound mulBound(std::int64_t A, std::int64_t B) {
  std::int64_t Product;
  if (__builtin_mul_overflow(A, B, &Product))
    return std::nullopt;
  return Product;
}

/// Constant bounds of A * B from the corners, when all are known.
void productBounds(const SymbolicValue &A, const SymbolicValue &B, SymbolicValue &Out) {
  if (!A.Min || !A.Max || !B.Min || !B.Max)
    return;
  Bound Corners[4] = {mulBound(*A.Min, *B.Min), mulBound(*A.Min, *B.Max), mulBound(*A.Max, *B.Min),
                      mulBound(*A.Max, *B.Max)};
  std::int64_t Lo = 0, Hi = 0;
  for (int I = 0; I < 4; ++I) {
    if (!Corners[I])
      return;
    Lo = I == 0 ? *Corners[I] : std::min(Lo, *Corners[I]);
    Hi = I == 0 ? *Corners[I] : std::max(Hi, *Corners[I]);
  }
  Out.Min = Lo;
  Out.Max = Hi;
}

bool knownNonPositive(const SymbolicValue &V) { return V.Max && *V.Max <= 0; }

/// Min and max of four expressions, folded when the signs say which corner wins.
void corners(const Expr &P1, const Expr &P2, const Expr &P3, const Expr &P4, Expr &Lo, Expr &Hi) {
  Lo = min(min(P1, P2), min(P3, P4));
  Hi = max(max(P1, P2), max(P3, P4));
}

} // namespace

SymbolicValue constantRange(std::int64_t Lo, std::int64_t Hi) {
  SymbolicValue V;
  V.Lo = analysis::constant(Lo);
  V.Hi = analysis::constant(Hi);
  V.Min = Lo;
  V.Max = Hi;
  return V;
}

void clampBounds(SymbolicValue &V, std::int64_t Lo, std::int64_t Hi) {
  V.Min = V.Min ? std::max(*V.Min, Lo) : Lo;
  V.Max = V.Max ? std::min(*V.Max, Hi) : Hi;
}

void addCheck(SymbolicValue &V, const Expr &Check) {
  V.Lo = validIf(V.Lo, Check);
  V.Hi = validIf(V.Hi, Check);
  if (V.Linear)
    V.Linear->Checks.push_back(Check);
}

SymbolicValue addValues(const SymbolicValue &A, const SymbolicValue &B) {
  SymbolicValue R;
  R.Lo = add(A.Lo, B.Lo);
  R.Hi = add(A.Hi, B.Hi);
  R.Min = addBound(A.Min, B.Min);
  R.Max = addBound(A.Max, B.Max);
  if (A.Linear && !B.Linear) {
    R.Linear = A.Linear;
    R.Linear->RestLo = add(A.Linear->RestLo, B.Lo);
    R.Linear->RestHi = add(A.Linear->RestHi, B.Hi);
  } else if (B.Linear && !A.Linear) {
    R.Linear = B.Linear;
    R.Linear->RestLo = add(B.Linear->RestLo, A.Lo);
    R.Linear->RestHi = add(B.Linear->RestHi, A.Hi);
  }
  return R;
}

SymbolicValue negValue(const SymbolicValue &A) {
  SymbolicValue R;
  R.Lo = neg(A.Hi);
  R.Hi = neg(A.Lo);
  if (A.Max && *A.Max != INT64_MIN)
    R.Min = -*A.Max;
  if (A.Min && *A.Min != INT64_MIN)
    R.Max = -*A.Min;
  if (A.Linear) {
    R.Linear = A.Linear;
    R.Linear->Coef = -A.Linear->Coef;
    R.Linear->RestLo = neg(A.Linear->RestHi);
    R.Linear->RestHi = neg(A.Linear->RestLo);
  }
  return R;
}

SymbolicValue subValues(const SymbolicValue &A, const SymbolicValue &B) {
  SymbolicValue R;
  R.Lo = sub(A.Lo, B.Hi);
  R.Hi = sub(A.Hi, B.Lo);
  R.Min = subBound(A.Min, B.Max);
  R.Max = subBound(A.Max, B.Min);
  if (A.Linear && !B.Linear) {
    R.Linear = A.Linear;
    R.Linear->RestLo = sub(A.Linear->RestLo, B.Hi);
    R.Linear->RestHi = sub(A.Linear->RestHi, B.Lo);
  } else if (B.Linear && !A.Linear) {
    R.Linear = B.Linear;
    R.Linear->Coef = -B.Linear->Coef;
    R.Linear->RestLo = sub(A.Lo, B.Linear->RestHi);
    R.Linear->RestHi = sub(A.Hi, B.Linear->RestLo);
  }
  return R;
}

SymbolicValue mulValues(const SymbolicValue &A, const SymbolicValue &B) {
  std::optional<std::int64_t> CA = asConstant(A.Lo), CB = asConstant(B.Lo);
  if (CA && A.isPoint() && !(CB && B.isPoint()))
    return mulValues(B, A);
  SymbolicValue R;
  productBounds(A, B, R);
  if (CB && B.isPoint()) {
    const Expr C = B.Lo;
    if (*CB >= 0) {
      R.Lo = mul(C, A.Lo);
      R.Hi = mul(C, A.Hi);
    } else {
      R.Lo = mul(C, A.Hi);
      R.Hi = mul(C, A.Lo);
    }
    if (A.Linear && (*CB == 1 || *CB == -1)) {
      R.Linear = A.Linear;
      R.Linear->Coef *= static_cast<int>(*CB);
      R.Linear->RestLo = *CB == 1 ? A.Linear->RestLo : neg(A.Linear->RestHi);
      R.Linear->RestHi = *CB == 1 ? A.Linear->RestHi : neg(A.Linear->RestLo);
    }
    return R;
  }
  if (A.isPoint() && B.isPoint()) {
    R.Lo = R.Hi = mul(A.Lo, B.Lo);
    return R;
  }
  // Ranges: the extremes are at the corners; known signs pick them.
  if (A.knownNonNegative() && B.knownNonNegative()) {
    R.Lo = mul(A.Lo, B.Lo);
    R.Hi = mul(A.Hi, B.Hi);
    return R;
  }
  if (A.knownNonNegative() && knownNonPositive(B)) {
    R.Lo = mul(A.Hi, B.Lo);
    R.Hi = mul(A.Lo, B.Hi);
    return R;
  }
  if (knownNonPositive(A) && B.knownNonNegative())
    return mulValues(B, A);
  corners(mul(A.Lo, B.Lo), mul(A.Lo, B.Hi), mul(A.Hi, B.Lo), mul(A.Hi, B.Hi), R.Lo, R.Hi);
  return R;
}

SymbolicValue divValues(const SymbolicValue &A, const SymbolicValue &B) {
  SymbolicValue R;
  std::optional<std::int64_t> CB = asConstant(B.Lo);
  if (CB && B.isPoint() && *CB != 0) {
    // Truncating division by a constant is monotone in the dividend.
    R.Lo = divTrunc(*CB > 0 ? A.Lo : A.Hi, B.Lo);
    R.Hi = divTrunc(*CB > 0 ? A.Hi : A.Lo, B.Lo);
    if (A.Min && A.Max && *CB != -1) {
      std::int64_t X = *A.Min / *CB, Y = *A.Max / *CB;
      R.Min = std::min(X, Y);
      R.Max = std::max(X, Y);
    }
    return R;
  }
  if (A.isPoint() && B.isPoint()) {
    R.Lo = R.Hi = divTrunc(A.Lo, B.Lo);
    return R;
  }
  if (B.isPoint()) {
    // One divisor of either sign: monotone in the dividend, direction unknown.
    const Expr P = divTrunc(A.Lo, B.Lo), Q = divTrunc(A.Hi, B.Lo);
    R.Lo = min(P, Q);
    R.Hi = max(P, Q);
    return R;
  }
  // A range of divisors that the caller knows never holds 0: corners.
  corners(divTrunc(A.Lo, B.Lo), divTrunc(A.Lo, B.Hi), divTrunc(A.Hi, B.Lo), divTrunc(A.Hi, B.Hi),
          R.Lo, R.Hi);
  return R;
}

SymbolicValue ashrValue(const SymbolicValue &A, unsigned Amount) {
  SymbolicValue R;
  R.Lo = ashr(A.Lo, Amount);
  R.Hi = ashr(A.Hi, Amount);
  if (A.Min)
    R.Min = *A.Min >> std::min(Amount, 63u);
  if (A.Max)
    R.Max = *A.Max >> std::min(Amount, 63u);
  return R;
}

SymbolicValue minValues(const SymbolicValue &A, const SymbolicValue &B) {
  SymbolicValue R;
  R.Lo = min(A.Lo, B.Lo);
  R.Hi = min(A.Hi, B.Hi);
  if (A.Min && B.Min)
    R.Min = std::min(*A.Min, *B.Min);
  if (A.Max || B.Max)
    R.Max = A.Max && B.Max ? std::min(*A.Max, *B.Max) : A.Max ? *A.Max : *B.Max;
  return R;
}

SymbolicValue maxValues(const SymbolicValue &A, const SymbolicValue &B) {
  SymbolicValue R;
  R.Lo = max(A.Lo, B.Lo);
  R.Hi = max(A.Hi, B.Hi);
  if (A.Max && B.Max)
    R.Max = std::max(*A.Max, *B.Max);
  if (A.Min || B.Min)
    R.Min = A.Min && B.Min ? std::max(*A.Min, *B.Min) : A.Min ? *A.Min : *B.Min;
  return R;
}

SymbolicValue hull(const SymbolicValue &A, const SymbolicValue &B) {
  SymbolicValue R;
  R.Lo = min(A.Lo, B.Lo);
  R.Hi = max(A.Hi, B.Hi);
  if (A.Min && B.Min)
    R.Min = std::min(*A.Min, *B.Min);
  if (A.Max && B.Max)
    R.Max = std::max(*A.Max, *B.Max);
  return R;
}

} // namespace libsplit::regions
