//===- ValueTranslator.h - Integers of a kernel as summary expressions ----===//
//
// The paper's "repeated substitution": an integer of the kernel's IR is
// rewritten, through its SSA definition, until it depends only on scalar
// kernel arguments, NDRange queries and work-item ids. Induction variables
// become intervals over their loop's iterations (ScalarEvolution: affine
// recurrence and symbolic maximum trip count); a phi of a branch becomes the
// hull of its incoming values; a value loaded from memory, returned by an
// unknown call or computed in floating point cannot be translated.
//
// Integer semantics: each value is read as signed or as unsigned (the IR has
// no signedness; the operation that uses it says which). An operation may be
// taken as exact mathematics only under its nsw/nuw flag or in 64 bits (where
// the runtime's evaluator catches overflow); otherwise its result is wrapped
// in a checked form (ExprBuild.h), exact whenever no wrap happened and
// unbounded otherwise. So every translated expression is sound.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_VALUETRANSLATOR_H
#define LIBSPLIT_PASS_REGIONS_VALUETRANSLATOR_H

#include "KernelArgs.h"
#include "SymbolicValue.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class DataLayout;
class Instruction;
class Loop;
class LoopInfo;
class PHINode;
class SCEV;
class SCEVAddRecExpr;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace libsplit::regions {

enum class Interp { Signed, Unsigned };

class ValueTranslator {
public:
  ValueTranslator(const std::vector<KernelArg> &Args, llvm::ScalarEvolution &SE, llvm::LoopInfo &LI,
                  const llvm::DataLayout &DL)
      : Args(Args), SE(SE), LI(LI), DL(DL) {}

  /// \p V (an integer of at most 64 bits) read as \p How, over every
  /// iteration of the loops it is defined in; std::nullopt with why() set
  /// when it cannot be expressed.
  std::optional<SymbolicValue> value(const llvm::Value *V, Interp How);

  /// The same for a ScalarEvolution expression (trip counts, strides).
  std::optional<SymbolicValue> scev(const llvm::SCEV *S, Interp How);

  /// Why the last failed translation failed, in a few words.
  const std::string &why() const { return Why; }

  /// The last count of each loop whose counter the translated values name (loopN), in order:
  /// the summary's KernelSummary::LoopLast.
  std::vector<Expr> loopLasts() const;

private:
  std::optional<SymbolicValue> compute(const llvm::Value *V, Interp How);
  std::optional<SymbolicValue> computeScev(const llvm::SCEV *S, Interp How);
  std::optional<SymbolicValue> argument(unsigned Index, unsigned Bits, Interp How);
  std::optional<SymbolicValue> binary(const llvm::Instruction &I, Interp How);
  std::optional<SymbolicValue> division(const llvm::Instruction &I, Interp How);
  std::optional<SymbolicValue> integerBuiltin(const llvm::CallInst &Call, Interp How);
  std::optional<SymbolicValue> phi(const llvm::PHINode &Phi, Interp How);
  std::optional<SymbolicValue> recurrence(const llvm::SCEVAddRecExpr *Rec, Interp How,
                                          const llvm::Value *StartValue);
  std::optional<SymbolicValue> boundedByExitTest(const llvm::SCEVAddRecExpr *Rec, Interp How);
  std::optional<SymbolicValue> smallRange(const llvm::Value *V, Interp How);
  std::optional<SymbolicValue> fail(std::string Reason);
  /// Loop L's counter index, registered with its last count where there is room (at most
  /// analysis::MaxSummaryLoops per kernel).
  std::optional<std::uint32_t> counterOf(const llvm::Loop *L, const Expr &Last);
  std::vector<std::pair<const llvm::Loop *, Expr>> Counters;
  void refineWithScev(const llvm::Value *V, Interp How, SymbolicValue &Result);

  const std::vector<KernelArg> &Args;
  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  const llvm::DataLayout &DL;
  struct Memo {
    std::optional<SymbolicValue> Result;
    std::string Why;
  };
  llvm::DenseMap<std::pair<const llvm::Value *, int>, Memo> Values;
  llvm::DenseSet<std::pair<const llvm::Value *, int>> InProgress;
  std::string Why;
};

/// Conversions between the two readings of a Bits-bit value.
SymbolicValue convert(SymbolicValue V, Interp From, Interp To, unsigned Bits);
/// \p V made to fit the \p How reading of Bits bits: exact where it does,
/// unbounded where it does not (C truncation, and wrapping arithmetic).
SymbolicValue fitTo(SymbolicValue V, unsigned Bits, Interp How);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_VALUETRANSLATOR_H
