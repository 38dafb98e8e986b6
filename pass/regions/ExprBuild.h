//===- ExprBuild.h - Building summary expressions with light folding -----===//
//
// The region analysis writes its results in the summary's expression language
// (analysis/expr.hpp): 64-bit signed integers, evaluated by the runtime with
// interval arithmetic where any overflow, or a division by a range holding 0,
// makes the region the whole buffer. These helpers fold constants so that the
// summaries stay short and readable, and build the *checked* forms that make
// a C integer conversion exact-or-unbounded (see "Checked conversions" in
// pass/README.md): the analysis never relies on an unproven absence of wrap.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_EXPRBUILD_H
#define LIBSPLIT_PASS_REGIONS_EXPRBUILD_H

#include "libsplit/analysis/expr.hpp"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace libsplit::regions {

using analysis::Expr;

/// Deepest expression the analysis emits: the runtime's parser and evaluator
/// accept 64 levels; staying well below leaves room for the wrapping forms.
constexpr unsigned MaxExprDepth = 40;
/// Longest expression (in nodes) the analysis emits; longer means "unknown".
constexpr unsigned MaxExprNodes = 400;

std::optional<std::int64_t> asConstant(const Expr &E);
/// Nesting depth of \p E (a leaf has depth 1).
unsigned depth(const Expr &E);
bool tooLarge(const Expr &E);

Expr add(const Expr &A, const Expr &B);
Expr sub(const Expr &A, const Expr &B);
Expr mul(const Expr &A, const Expr &B);
Expr divTrunc(const Expr &A, const Expr &B);
Expr rem(const Expr &A, const Expr &B);
Expr min(const Expr &A, const Expr &B);
Expr max(const Expr &A, const Expr &B);
Expr ashr(const Expr &A, unsigned Amount);
Expr andMask(const Expr &A, std::int64_t Mask);
Expr neg(const Expr &A);

/// \p X when it lies in [-2^(Bits-1), 2^(Bits-1)) (a signed Bits-bit value),
/// otherwise unbounded: (ashr (shl X 64-Bits) 64-Bits), whose shift overflows
/// exactly when X is out of range.
Expr checkedSigned(const Expr &X, unsigned Bits);

/// \p X when it lies in [-2^Bits, 2^Bits), otherwise unbounded. Used for an
/// unsigned Bits-bit value whose expression is known to be non-negative: it
/// is then exact when X < 2^Bits.
Expr checkedUnsigned(const Expr &X, unsigned Bits);

/// An expression that is 0 when X lies in [Lower, Lower + 2^Log2Size) and
/// unbounded otherwise, for validIf().
Expr rangeCheck(const Expr &X, std::int64_t Lower, unsigned Log2Size);

/// \p E, made unbounded when any of \p Checks is: (add E (mul 0 check)).
/// Never folded away.
Expr validIf(const Expr &E, llvm::ArrayRef<Expr> Checks);

/// Splits E into a constant-free part and a constant addend (E == Base + Offset).
void splitOffset(const Expr &E, Expr &Base, std::int64_t &Offset);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_EXPRBUILD_H
