// A minimal OpenCL host for the region tests: one PoCL device, programs from source, one
// kernel launch on buffers given by their contents, contents read back.
#ifndef LIBSPLIT_TESTS_REGIONS_CLDEVICE_H
#define LIBSPLIT_TESTS_REGIONS_CLDEVICE_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "CorpusSpec.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace libsplit::test {

/// The three arguments the partition-ready kernel takes after the app's (pass/README.md).
struct Appended {
  unsigned FirstIndex = 0;
  cl_uint SplitDim = 0;
  cl_ulong NumGroups = 0;
  cl_ulong SplitOrigin = 0;
};

struct SliceLaunch {
  std::array<std::size_t, 3> Offset{0, 0, 0}, Global{1, 1, 1}, Local{1, 1, 1};
};

class ClDevice {
public:
  explicit ClDevice(std::string &Error);
  ~ClDevice();
  ClDevice(const ClDevice &) = delete;
  ClDevice &operator=(const ClDevice &) = delete;

  /// Builds \p Source; false with the build log in \p Error.
  bool build(const std::string &Source, const std::string &Options, std::string &Error);

  /// Runs \p Kernel of the built program once. \p Contents holds each buffer argument's
  /// bytes (empty for other arguments) and receives them back after the launch.
  bool run(const std::string &Kernel, const LaunchSpec &Spec, const Appended &Extra,
           const SliceLaunch &Launch, std::vector<std::vector<std::uint8_t>> &Contents,
           std::string &Error);

private:
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  cl_program Program = nullptr;
};

} // namespace libsplit::test

#endif // LIBSPLIT_TESTS_REGIONS_CLDEVICE_H
