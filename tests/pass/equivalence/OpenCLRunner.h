// A minimal OpenCL host for the equivalence test: one device, programs built
// from source, a kernel run as one or several launches on fresh buffers.
#ifndef LIBSPLIT_TESTS_PASS_OPENCLRUNNER_H
#define LIBSPLIT_TESTS_PASS_OPENCLRUNNER_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace libsplit::test {

/// Owns one OpenCL handle; Release is the matching clRelease* function.
template <typename Handle, cl_int(CL_API_CALL *Release)(Handle)> class ClHandle {
public:
  ClHandle() = default;
  explicit ClHandle(Handle H) : H(H) {}
  ClHandle(const ClHandle &) = delete;
  ClHandle &operator=(const ClHandle &) = delete;
  ClHandle(ClHandle &&Other) noexcept : H(Other.H) { Other.H = nullptr; }
  ClHandle &operator=(ClHandle &&Other) noexcept {
    std::swap(H, Other.H);
    return *this;
  }
  ~ClHandle() {
    if (H)
      Release(H);
  }
  Handle get() const { return H; }
  explicit operator bool() const { return H != nullptr; }

private:
  Handle H = nullptr;
};

using ContextHandle = ClHandle<cl_context, clReleaseContext>;
using QueueHandle = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using ProgramHandle = ClHandle<cl_program, clReleaseProgram>;
using KernelHandle = ClHandle<cl_kernel, clReleaseKernel>;
using BufferHandle = ClHandle<cl_mem, clReleaseMemObject>;

enum class ArgKind {
  Output, ///< __global buffer, sentinel-filled, read back and compared.
  Input,  ///< __global buffer of floats 0, 0.5, 1, ... (mod 97).
  UInt,   ///< uint scalar.
  Local,  ///< __local buffer.
};

struct ArgSpec {
  ArgKind Kind;
  size_t Bytes = 0;  ///< Buffer or local size.
  cl_uint Value = 0; ///< UInt value.
};

/// One clEnqueueNDRangeKernel.
struct Launch {
  std::array<size_t, 3> Offset{0, 0, 0};
  std::array<size_t, 3> Global{1, 1, 1};
  std::array<size_t, 3> Local{1, 1, 1};
};

/// Values of the appended arguments for one launch, and where they go.
struct AppendedArgs {
  std::array<int, 3> Indices{-1, -1, -1};
  cl_uint SplitDim = 0;
  cl_ulong NumGroups = 0;
  cl_ulong SplitOrigin = 0;
};

/// Byte pattern of unwritten output: a slice that does not run leaves it.
inline constexpr unsigned char Sentinel = 0xA5;

class OpenCLRunner {
public:
  /// The first device of the first platform; empty Error on success.
  explicit OpenCLRunner(std::string &Error);

  /// Empty handle and the build log in \p Error when the build fails.
  ProgramHandle build(const std::string &Source, const std::string &Options, std::string &Error);

  /// Runs \p Kernel of \p Program once per launch (in the order given) on one
  /// set of fresh buffers, and returns the contents of the Output buffers,
  /// each followed by as many bytes of slack (sentinel unless overwritten).
  /// \p Appended has one entry per launch, or is empty for the app's kernel.
  std::vector<std::vector<unsigned char>> run(cl_program Program, const std::string &Kernel,
                                              unsigned WorkDim, const std::vector<ArgSpec> &Args,
                                              const std::vector<Launch> &Launches,
                                              const std::vector<AppendedArgs> &Appended,
                                              std::string &Error);

private:
  cl_device_id Device = nullptr;
  ContextHandle Context;
  QueueHandle Queue;
};

} // namespace libsplit::test

#endif // LIBSPLIT_TESTS_PASS_OPENCLRUNNER_H
