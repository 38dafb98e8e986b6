//===- atomic_merge.hpp - Which atomically updated arguments can be combined --===//
//
// A split kernel that updates a global buffer with atomics runs each slice on its own device,
// every device starting from the same snapshot S of that buffer; the host then combines the
// devices' copies D_i (atomic_combine.hpp). That is exact only for operations whose updates
// commute and whose combined effect can be read back from the copies, and only when nothing
// else in the kernel looks at those bytes. The rules live here, once, for both the kernel
// compiler (which marks other kernels unsplittable, with the reason) and the runtime (which
// uses the plan to combine).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/analysis/summary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace libsplit::analysis {

// How the copies combine (atomic_combine.hpp gives the formulas).
enum class CombineOp : std::uint8_t {
  Sum, // atomic add, sub, inc, dec: the deltas add up
  Min,
  Max,
  And,
  Or,
  Xor,
};

struct Combine {
  CombineOp Op = CombineOp::Sum;
  std::uint32_t Width = 4; // element bytes: 4 or 8
  bool Signed = false;     // compare as signed (Min and Max only; false for the others)
  bool operator==(const Combine &Other) const {
    return Op == Other.Op && Width == Other.Width && Signed == Other.Signed;
  }
};

// The combination an atomic access asks for; std::nullopt when its updates cannot be combined
// (xchg and cmpxchg: the result depends on which device went last; float or untyped elements;
// plain reads and writes).
std::optional<Combine> combineFor(AccessKind Kind, AtomicElement Element);

// Bytes of the argument (relative to its pointer) combined one way.
struct CombineRange {
  Combine How;
  bool Whole = false;     // the whole argument
  std::int64_t First = 0; // else bytes [First, Last], element-aligned
  std::int64_t Last = -1;
};

// How the devices' copies of one argument combine after a split launch: empty when the kernel
// does not update it atomically. The ranges are disjoint and sorted (each byte is combined once).
struct AtomicMerge {
  std::vector<CombineRange> Ranges;
  bool empty() const { return Ranges.empty(); }
};

// The plan for argument ArgIndex of Kernel. Returns false, with a one-line reason in Why, when
// the devices' copies cannot be combined: the argument is also read or written plainly, an
// atomic operation does not combine, or several kinds of combination may touch the same bytes
// (they may share an argument only at distinct constant offsets, like a {sum, min, max} record).
// Atomics on __local memory never need combining (each work-group has its own).
bool planAtomicMerge(const KernelSummary &Kernel, std::size_t ArgIndex, AtomicMerge &Plan,
                     std::string &Why);

} // namespace libsplit::analysis
