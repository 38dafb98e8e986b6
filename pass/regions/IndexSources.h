//===- IndexSources.h - Where an unknown index was loaded from ------------===//
//
// An access whose index comes from memory (CSR SpMV's col[j], a lookup table
// indexed by the data) cannot be bounded at compile time, but the runtime may
// refine it later if it knows which bytes the index was read from. This finds
// the integer loads an address depends on (through arithmetic, phis and the
// exit conditions of the loops whose induction variables it uses) and, when
// they all read one buffer at known offsets, their byte range.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_INDEXSOURCES_H
#define LIBSPLIT_PASS_REGIONS_INDEXSOURCES_H

#include "libsplit/analysis/summary.hpp"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace llvm {
class DataLayout;
class LoopInfo;
class Value;
} // namespace llvm

namespace libsplit::regions {

class PointerResolver;

std::optional<analysis::Indirection> findIndexSource(llvm::ArrayRef<const llvm::Value *> Roots,
                                                     PointerResolver &Pointers, llvm::LoopInfo &LI,
                                                     const llvm::DataLayout &DL);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_INDEXSOURCES_H
