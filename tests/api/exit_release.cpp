// OpenCL objects held by a global object and released by its destructor, after main returns
// (a C++ app's engine singleton): the destructor waits for the queue, reads the buffer the
// kernels wrote in main, and releases everything, while the C library runs the exit handlers,
// libsplit's (its summary, the tuning it saves) among them. No kernel runs at exit: PoCL cannot
// compile one then, natively either (docs/limitations.md).
#include "api_test.hpp"

#include <memory>

using namespace api;

namespace {

constexpr size_t N = 1 << 16;

const char *Source = R"CLC(
__kernel void add(__global uint *a, uint v) { a[get_global_id(0)] += v; }
)CLC";

struct Engine {
  Setup S;
  cl_program Program = nullptr;
  cl_kernel Kernel = nullptr;
  cl_mem Buffer = nullptr;

  explicit Engine(const Setup &Made) : S(Made) {
    cl_int Error = CL_SUCCESS;
    Program = clCreateProgramWithSource(S.Context, 1, &Source, nullptr, &Error);
    need(Error, "clCreateProgramWithSource");
    need(clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr), "clBuildProgram");
    Kernel = clCreateKernel(Program, "add", &Error);
    need(Error, "clCreateKernel");
    std::vector<cl_uint> Zero(N, 1);
    Buffer = clCreateBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(cl_uint), Zero.data(), &Error);
    need(Error, "clCreateBuffer");
  }

  cl_int add(cl_uint Value) {
    clSetKernelArg(Kernel, 0, sizeof(Buffer), &Buffer);
    clSetKernelArg(Kernel, 1, sizeof(Value), &Value);
    return clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &N, nullptr, 0, nullptr, nullptr);
  }

  ~Engine() {
    say("at exit: clFinish: %s", errorName(clFinish(S.Queue)));
    std::vector<cl_uint> Result(N, 0);
    say("at exit: read: %s",
        errorName(clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, N * sizeof(cl_uint),
                                      Result.data(), 0, nullptr, nullptr)));
    bool Right = true;
    for (cl_uint Value : Result)
      Right = Right && Value == 1 + 2 + 3 + 4;
    say("at exit: every element 10: %s", yesNo(Right));
    say("at exit: release buffer: %s", errorName(clReleaseMemObject(Buffer)));
    say("at exit: release kernel: %s", errorName(clReleaseKernel(Kernel)));
    say("at exit: release program: %s", errorName(clReleaseProgram(Program)));
    say("at exit: release queue: %s", errorName(clReleaseCommandQueue(S.Queue)));
    say("at exit: release context: %s", errorName(clReleaseContext(S.Context)));
  }
};

// Made empty before main, filled in it, destroyed after it returns.
std::unique_ptr<Engine> Global;

} // namespace

int main(int Argc, char **Argv) {
  Global = std::make_unique<Engine>(setUp(Argc, Argv));
  for (cl_uint Value = 2; Value <= 4; ++Value)
    say("launch adding %u: %s", Value, errorName(Global->add(Value)));
  // Natively on PoCL, a kernel first run at exit aborts (its compiler is gone): main waits.
  say("clFinish in main: %s", errorName(clFinish(Global->S.Queue)));
  say("main returns");
  return 0;
}
