//===- SymbolicArith.h - Interval arithmetic on symbolic values ----------===//
//
// Sums, products and hulls of SymbolicValues: symbolic bounds combine like
// interval arithmetic (a product of two ranges takes the min and max of its
// corners), constant bounds are kept when they do not overflow, and a linear
// form survives the operations that keep the value +-id + rest.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_SYMBOLICARITH_H
#define LIBSPLIT_PASS_REGIONS_SYMBOLICARITH_H

#include "SymbolicValue.h"

#include <cstdint>

namespace libsplit::regions {

SymbolicValue addValues(const SymbolicValue &A, const SymbolicValue &B);
SymbolicValue subValues(const SymbolicValue &A, const SymbolicValue &B);
SymbolicValue negValue(const SymbolicValue &A);
SymbolicValue mulValues(const SymbolicValue &A, const SymbolicValue &B);
/// Truncating division by a value that is never 0 where it matters (the
/// evaluator makes a divisor range holding 0 unbounded).
SymbolicValue divValues(const SymbolicValue &A, const SymbolicValue &B);
/// Arithmetic shift right by a constant (floor division by 2^Amount).
SymbolicValue ashrValue(const SymbolicValue &A, unsigned Amount);
SymbolicValue minValues(const SymbolicValue &A, const SymbolicValue &B);
SymbolicValue maxValues(const SymbolicValue &A, const SymbolicValue &B);
/// A value that is either \p A or \p B (a phi, a select on any condition).
SymbolicValue hull(const SymbolicValue &A, const SymbolicValue &B);
/// [Lo, Hi] as constants.
SymbolicValue constantRange(std::int64_t Lo, std::int64_t Hi);

/// Narrows the constant bounds to [Lo, Hi].
void clampBounds(SymbolicValue &V, std::int64_t Lo, std::int64_t Hi);
/// Adds a validity check to both bounds and to the linear form.
void addCheck(SymbolicValue &V, const Expr &Check);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_SYMBOLICARITH_H
