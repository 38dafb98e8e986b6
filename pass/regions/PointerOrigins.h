//===- PointerOrigins.h - Which buffer a pointer points into, and where ---===//
//
// Every memory access of a kernel goes through a pointer; this follows it
// back through casts (address spaces included), GEPs (arrays, structs,
// multi-dimensional casts), pointer arithmetic on arguments (`A += line + 1`),
// selects, phis and pointer induction variables (ScalarEvolution) to the
// kernel arguments it may be derived from, with the byte offset from each.
// Private, local and program-scope memory is no buffer and is ignored; a
// pointer loaded from memory or made from an integer could point anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_POINTERORIGINS_H
#define LIBSPLIT_PASS_REGIONS_POINTERORIGINS_H

#include "KernelArgs.h"
#include "SymbolicValue.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class LoopInfo;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace libsplit::regions {

class ValueTranslator;

struct PointerTarget {
  unsigned Arg = 0;
  /// Bytes from the argument's pointer; empty when not expressible (Why says).
  std::optional<SymbolicValue> Offset;
  std::string Why;
};

struct PointerOrigin {
  /// Set when the pointer may come from anywhere: no buffer is safe from it.
  bool Unknown = false;
  std::string Why;
  /// The buffers it may point into (empty: private, local or constant data).
  llvm::SmallVector<PointerTarget, 2> Targets;
};

class PointerResolver {
public:
  PointerResolver(const std::vector<KernelArg> &Args, ValueTranslator &Values,
                  llvm::ScalarEvolution &SE, llvm::LoopInfo &LI, const llvm::DataLayout &DL)
      : Args(Args), Values(Values), SE(SE), LI(LI), DL(DL) {}

  PointerOrigin resolve(const llvm::Value *Pointer);

private:
  PointerOrigin compute(const llvm::Value *Pointer);
  PointerOrigin gep(const llvm::Value *Pointer);
  PointerOrigin recurrence(const llvm::Value *Pointer);
  void merge(PointerOrigin &Into, const PointerOrigin &From);

  const std::vector<KernelArg> &Args;
  ValueTranslator &Values;
  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  const llvm::DataLayout &DL;
  llvm::DenseMap<const llvm::Value *, PointerOrigin> Cache;
  llvm::DenseSet<const llvm::Value *> InProgress;
};

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_POINTERORIGINS_H
