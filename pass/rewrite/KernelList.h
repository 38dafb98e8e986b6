//===- KernelList.h - The machine-readable list of rewritten kernels ------===//
//
// Read by the runtime, which has no LLVM: a line format a few lines of C++ can
// parse. pass/README.md is the format's reference.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_KERNELLIST_H
#define LIBSPLIT_PASS_REWRITE_KERNELLIST_H

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace libsplit {

struct PartitionReadyProgram;

void writeKernelList(llvm::raw_ostream &Out, const PartitionReadyProgram &Program);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_KERNELLIST_H
