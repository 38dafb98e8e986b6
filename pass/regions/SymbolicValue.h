//===- SymbolicValue.h - An integer of a kernel, as summary expressions --===//
//
// What the region analysis knows about one integer value of a kernel: bounds
// over every loop iteration (Lo <= value <= Hi, both expressions over the
// kernel's scalar arguments, the NDRange and the work-item ids), constant
// bounds when proven, and, when the value is +-id + rest, that linear form,
// from which a condition on the value becomes a guard on the id.
//
// Every expression is *exact or unbounded*: where the C value could differ
// from the mathematical one (a conversion or an operation that may wrap), the
// expression is written so that the runtime's evaluator finds it unbounded in
// exactly the cases where it would be wrong (ExprBuild.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_SYMBOLICVALUE_H
#define LIBSPLIT_PASS_REGIONS_SYMBOLICVALUE_H

#include "ExprBuild.h"

#include "libsplit/analysis/expr.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace libsplit::regions {

/// Value == Coef * Id(Dim) + Rest, for every work-item, whenever every check
/// in Checks is bounded (see validIf()).
struct LinearForm {
  analysis::Leaf Id = analysis::Leaf::GlobalId; // GlobalId, LocalId or GroupId
  std::uint32_t Dim = 0;
  int Coef = 1; // +1 or -1
  Expr RestLo, RestHi;
  std::vector<Expr> Checks;
};

struct SymbolicValue {
  Expr Lo, Hi;
  /// Constant bounds, when proven (from types, masks, ScalarEvolution).
  std::optional<std::int64_t> Min, Max;
  std::optional<LinearForm> Linear;

  static SymbolicValue point(const Expr &E) {
    SymbolicValue V;
    V.Lo = V.Hi = E;
    return V;
  }
  static SymbolicValue constant(std::int64_t C) {
    SymbolicValue V = point(analysis::constant(C));
    V.Min = V.Max = C;
    return V;
  }
  bool isPoint() const { return Lo == Hi; }
  bool knownNonNegative() const { return Min && *Min >= 0; }
  bool tooLarge() const { return regions::tooLarge(Lo) || regions::tooLarge(Hi); }
};

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_SYMBOLICVALUE_H
