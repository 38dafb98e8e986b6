//===- GuardFinder.h - Uniform conditions on ids that guard an access -----===//
//
// `if (i < n) out[i] = ...` writes only for work-items with gid0 <= n - 1.
// For a block, every branch condition on a dominating edge holds; those that
// compare a work-item id (gidD, lidD, grpD, as +-id + rest) with anything the
// analysis can bound become guards `id in [lower, upper]`. Other conditions
// (on loaded values, on floating point, several ids at once) are assumed true,
// which only widens the regions.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_GUARDFINDER_H
#define LIBSPLIT_PASS_REGIONS_GUARDFINDER_H

#include "libsplit/analysis/summary.hpp"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/InstrTypes.h"

#include <vector>

namespace llvm {
class BasicBlock;
class DominatorTree;
class ICmpInst;
class Value;
} // namespace llvm

namespace libsplit::regions {

class ValueTranslator;

class GuardFinder {
public:
  GuardFinder(ValueTranslator &Values, llvm::DominatorTree &DT) : Values(Values), DT(DT) {}

  /// Guards that hold wherever \p Block runs, at most one per id and dimension
  /// when the bounds allow it.
  std::vector<analysis::Guard> guardsFor(const llvm::BasicBlock *Block);

private:
  void fromCondition(const llvm::Value *Condition, bool Holds, unsigned Depth,
                     std::vector<analysis::Guard> &Out);
  void fromNotEqual(const llvm::Value *A, const llvm::Value *B, std::vector<analysis::Guard> &Out);
  void fromCompare(const llvm::ICmpInst &Compare, llvm::CmpInst::Predicate Predicate,
                   std::vector<analysis::Guard> &Out);

  ValueTranslator &Values;
  llvm::DominatorTree &DT;
  llvm::DenseMap<const llvm::BasicBlock *, std::vector<analysis::Guard>> Cache;
};

/// Merges guards on the same id into one where a lower-only and an
/// upper-only bound meet; keeps the order of first appearance.
std::vector<analysis::Guard> combineGuards(const std::vector<analysis::Guard> &Guards);

/// The bounds an id always satisfies (0 and its largest value in the launch);
/// a guard side that says nothing uses these.
analysis::Expr neutralLower(analysis::Leaf Id, std::uint32_t Dim);
analysis::Expr neutralUpper(analysis::Leaf Id, std::uint32_t Dim);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_GUARDFINDER_H
