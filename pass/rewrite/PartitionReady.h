//===- PartitionReady.h - OpenCL C source to partition-ready source -------===//
//
// The one entry point of the rewrite: parse the app's program with Clang as
// the vendor would (same -D/-I/-cl-std options), then produce the
// partition-ready source and the list of its kernels. See pass/README.md for
// the contract the runtime relies on.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_PARTITIONREADY_H
#define LIBSPLIT_PASS_REWRITE_PARTITIONREADY_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace libsplit {

struct ProgramInput {
  /// The program text: the app's source strings, concatenated as
  /// clCreateProgramWithSource does (no separator).
  std::string Source;
  /// Path the text is parsed under. Its directory is where quoted #includes
  /// are looked up first; it names the main file in diagnostics and #line.
  std::string Path;
  /// The app's clBuildProgram options, one option per element.
  std::vector<std::string> BuildOptions;
};

struct KernelEntry {
  std::string Name;
  /// Arguments the app sets; the appended ones follow at these indices.
  unsigned NumArgs = 0;
  bool Splittable = false;
  /// Why not splittable, on one line; empty when splittable.
  std::string Reason;
  /// Splittable, and the app's own kernel runs a slice exactly when launched
  /// with the slice's global work offset (it reaches no rewritten builtin).
  bool OffsetExact = false;
};

struct PartitionReadyProgram {
  /// False when the source does not compile; diagnostics went to the stream.
  bool Compiled = false;
  /// False when no kernel can be split; Source is then empty.
  bool Rewritten = false;
  std::string ProgramReason;
  std::string Source;
  /// In source order.
  std::vector<KernelEntry> Kernels;
};

PartitionReadyProgram makePartitionReady(const ProgramInput &Input, llvm::raw_ostream &Diagnostics);

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_PARTITIONREADY_H
