//===- MemoryAccesses.h - The memory operations of a kernel ---------------===//
//
// Every instruction of a kernel that reads or writes memory through a
// pointer, in one form: loads and stores, atomic instructions, memcpy /
// memmove / memset, and the OpenCL builtins that take pointers (atomics of
// OpenCL 1.x and 2.0, vloadN / vstoreN and their half forms, async copies,
// math functions with an output pointer).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_MEMORYACCESSES_H
#define LIBSPLIT_PASS_REGIONS_MEMORYACCESSES_H

#include "libsplit/analysis/summary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class DataLayout;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace libsplit::regions {

/// Bytes [Pointer + Index * IndexScale, + Bytes - 1] (or ByteCount * CountScale bytes
/// when ByteCount is set) are accessed.
struct MemoryAccess {
  const llvm::Instruction *At = nullptr;
  const llvm::Value *Pointer = nullptr;
  analysis::AccessKind Kind = analysis::AccessKind::Read;
  std::uint64_t Bytes = 0;
  const llvm::Value *ByteCount = nullptr; // a run-time length (memcpy, async copies)
  std::uint64_t CountScale = 1;
  const llvm::Value *Index = nullptr; // vloadN / vstoreN: elements from the pointer
  std::uint64_t IndexScale = 0;
  /// Non-empty: the bytes cannot be bounded (why); the pointer still says which buffer.
  std::string Unbounded;
  /// Atomics: the element type, and whether the kernel uses the value the operation returns
  /// (then the order of the updates matters, and per-device results cannot be combined).
  analysis::AtomicElement Element = analysis::AtomicElement::Unknown;
  bool ResultUsed = false;
};

/// The accesses made by a call to an OpenCL builtin, or std::nullopt when the
/// callee is not a builtin the analysis knows.
std::optional<std::vector<MemoryAccess>> builtinMemoryAccesses(const llvm::CallBase &Call,
                                                               const llvm::DataLayout &DL);

/// Every access of \p Kernel, in instruction order.
std::vector<MemoryAccess> collectMemoryAccesses(const llvm::Function &Kernel,
                                                const llvm::DataLayout &DL);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_MEMORYACCESSES_H
