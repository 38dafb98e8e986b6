// The kernels and NDRanges the equivalence test runs (see PassEquivalence.cpp).
#ifndef LIBSPLIT_TESTS_PASS_EQUIVALENCECASES_H
#define LIBSPLIT_TESTS_PASS_EQUIVALENCECASES_H

#include "OpenCLRunner.h"

#include <string>
#include <vector>

namespace libsplit::test {

struct EquivalenceCase {
  std::string Name;
  /// Under tests/pass/kernels/.
  std::string File;
  std::string Kernel;
  /// Build options; "@KERNELS@" stands for the kernels directory.
  std::vector<std::string> Options;
  unsigned WorkDim = 1;
  /// The app's launch: offset, global and local size.
  Launch App;
  std::vector<ArgSpec> Args;
  /// Also run the controls that show the test can fail.
  bool SelfCheck = false;
  /// What the kernel list must say of the kernel: its own code runs a slice
  /// under a global offset (it reaches no rewritten builtin).
  bool OffsetExact = false;
};

const std::vector<EquivalenceCase> &equivalenceCases();

} // namespace libsplit::test

#endif // LIBSPLIT_TESTS_PASS_EQUIVALENCECASES_H
