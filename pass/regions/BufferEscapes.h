//===- BufferEscapes.h - Constructs that forbid splitting a kernel --------===//
//
// A split kernel runs on several devices, each holding only part of each
// buffer at its own address. That is safe only if every use of a buffer
// pointer is an access the analysis bounds. A buffer pointer that escapes
// (stored to memory, turned into an integer, passed to a function the
// analysis does not model), a call the analysis cannot see into, or inline
// assembly makes the kernel unsplittable.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_BUFFERESCAPES_H
#define LIBSPLIT_PASS_REGIONS_BUFFERESCAPES_H

#include "KernelArgs.h"

#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class Function;
} // namespace llvm

namespace libsplit::regions {

/// Why \p Kernel must not be split, in one line, or "" when nothing forbids it.
std::string findUnsplittableConstruct(const llvm::Function &Kernel,
                                      const std::vector<KernelArg> &Args,
                                      const llvm::DataLayout &DL);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_BUFFERESCAPES_H
