// The runtime's side of the kernel compiler: runs the libsplit-cc tool in a child process (LLVM
// must never be loaded into the app's process, see pass/README.md) and reads what it wrote.
#pragma once

#include "config/config.hpp"
#include "config/log.hpp"

#include "libsplit/analysis/atomic_merge.hpp"
#include "libsplit/analysis/summary.hpp"

#include <string>
#include <vector>

namespace libsplit {

struct CompiledKernel {
  std::string Name;
  unsigned AppArgCount = 0; // arguments the app sets; the appended ones follow
  bool Splittable = false;
  // Splittable, and the app's own kernel runs a slice exactly when launched with the slice's
  // global offset (it reaches none of the builtins the partition-ready program rewrites).
  bool OffsetExact = false;
  std::string Why;                 // when not splittable
  analysis::KernelSummary Regions; // all-unknown until the region analysis provides them
  // Per app argument: how devices' copies of it combine after a split launch (empty: the
  // kernel does not update it with global atomics).
  std::vector<analysis::AtomicMerge> AtomicMerges;
};

struct CompiledProgram {
  bool Ok = false;
  std::string Error;  // why there is no partition-ready source
  std::string Source; // partition-ready OpenCL C
  std::string Key;    // hash of the tool, options and sources: names the program
  std::vector<CompiledKernel> Kernels;
  const CompiledKernel *find(const std::string &Name) const;
};

// Compiles the app's sources with its build options, with the tool and cache directory that
// Settings name (LIBSPLIT_CC, LIBSPLIT_CACHE_DIR). Never throws; failures come back in Error
// (the app's own build is unaffected).
CompiledProgram compileForSplitting(const std::vector<std::string> &Sources,
                                    const std::string &BuildOptions, const config::Config &Settings,
                                    config::Logger &Log);

} // namespace libsplit
