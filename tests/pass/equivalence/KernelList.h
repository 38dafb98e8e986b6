// Reads the kernel list libsplit-cc writes (format: pass/README.md). A test
// copy on purpose: it checks the documented format, not the writer's code.
#ifndef LIBSPLIT_TESTS_PASS_KERNELLIST_H
#define LIBSPLIT_TESTS_PASS_KERNELLIST_H

#include <optional>
#include <string>
#include <vector>

namespace libsplit::test {

struct ListedKernel {
  std::string Name;
  unsigned NumArgs = 0;
  /// Indices of splitdim, numgroups, splitorigin; -1 when not rewritten.
  int SplitDimIndex = -1;
  int NumGroupsIndex = -1;
  int SplitOriginIndex = -1;
  bool Splittable = false;
  /// The app's own kernel runs a slice exactly under a global offset.
  bool OffsetExact = false;
  std::string Reason;
};

struct KernelList {
  bool Rewritten = false;
  std::string ProgramReason;
  std::vector<ListedKernel> Kernels;

  const ListedKernel *find(const std::string &Name) const;
};

/// Returns nothing (and says why in \p Error) when the text is malformed.
std::optional<KernelList> parseKernelList(const std::string &Text, std::string &Error);

} // namespace libsplit::test

#endif // LIBSPLIT_TESTS_PASS_KERNELLIST_H
