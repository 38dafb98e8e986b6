//===- KernelArgs.h - What each kernel argument is, from Clang's metadata ===//
//
// Clang attaches the OpenCL view of each kernel argument to the kernel
// (kernel_arg_addr_space, kernel_arg_base_type, kernel_arg_access_qual): the
// address space tells buffers from local memory and values, the base type
// gives an integer scalar's signedness (which the IR type lacks) and tells
// images and pipes from plain __global pointers.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_KERNELARGS_H
#define LIBSPLIT_PASS_REGIONS_KERNELARGS_H

#include "libsplit/analysis/summary.hpp"

#include <string>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace libsplit::regions {

/// Memory objects other than buffers: their accesses are not analysed.
enum class MemoryObject { None, Image, Pipe };

struct KernelArg {
  analysis::ArgKind Kind = analysis::ArgKind::Other;
  analysis::ScalarType Scalar = analysis::ScalarType::None;
  MemoryObject Object = MemoryObject::None;
  std::string Name;       // "-" when unnamed
  std::string TypeName;   // as written (base type), for --explain
  std::string AccessQual; // "read_only", "write_only", "read_write" or "none"
  bool isBuffer() const {
    return Object == MemoryObject::None &&
           (Kind == analysis::ArgKind::Global || Kind == analysis::ArgKind::Constant);
  }
};

bool isKernel(const llvm::Function &F);

/// One entry per argument of \p Kernel, in order.
std::vector<KernelArg> describeKernelArgs(const llvm::Function &Kernel);

/// A C type name's scalar type: "int" -> I32, "unsigned char" -> U8.
analysis::ScalarType scalarTypeOf(const std::string &TypeName);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_KERNELARGS_H
