//===- AtomicMerge.h - Whether a kernel's global atomics can be combined --===//
//
// A split kernel's atomic updates of a global buffer happen on several devices, each on its own
// copy; the runtime combines the copies afterwards (analysis/atomic_merge.hpp). That loses the
// order of the updates, so it is refused when the kernel uses a value an atomic returns (a
// stream compaction's atomic_inc gives each work-item its slot), and wherever
// analysis::planAtomicMerge refuses (xchg, cmpxchg, plain accesses, overlapping kinds).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_ATOMICMERGE_H
#define LIBSPLIT_PASS_REGIONS_ATOMICMERGE_H

#include "libsplit/analysis/summary.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace libsplit::regions {

/// Why the per-device results of \p Summary's global atomics cannot be combined, in one line,
/// or "" when they can (or there are none). \p UsedResults: per argument, the kind of an
/// atomic on it whose returned value the kernel uses.
std::string
findUncombinableAtomics(const analysis::KernelSummary &Summary,
                        const std::map<std::uint32_t, analysis::AccessKind> &UsedResults);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_ATOMICMERGE_H
