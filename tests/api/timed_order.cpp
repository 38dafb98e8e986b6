// Commands around a long kernel stay in the queue's order: a device-side copy, a one-work-group
// kernel and a read queued right behind it see what it wrote, and it sees what a fill queued
// right before it wrote. (libsplit may time such a kernel on a queue of its own beside the one
// that runs the rest: the order between the two is its to keep.) Each step's results must read
// as natively.
#include "api_test.hpp"

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void churn(__global uint *out, uint rounds) {
  uint x = (uint)get_global_id(0);
  for (uint r = 0; r < rounds; ++r)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
}
__kernel void churn_add(__global uint *buf, uint rounds) {
  uint x = (uint)get_global_id(0);
  for (uint r = 0; r < rounds; ++r)
    x = x * 1664525u + 1013904223u;
  buf[get_global_id(0)] += x;
}
__kernel void group_sums(__global const uint *in, __global uint *out, uint n) {
  uint sum = 0;
  for (uint j = get_local_id(0); j < n; j += get_local_size(0))
    sum += in[j] * (j + 1u);
  out[get_local_id(0)] = sum;
}
)CLC";

constexpr size_t Count = size_t{1} << 16;
constexpr size_t Group = 64;
constexpr cl_uint Rounds = 3000;

void say(const char *What, const std::vector<cl_uint> &Values) {
  api::say("%s: checksum %08x", What, checksum(Values));
}

// A long kernel, then at once what reads its output on the device and on the host.
void behindIt(const Setup &S, cl_program Program) {
  cl_kernel Churn = createKernel(Program, "churn");
  cl_kernel Sums = createKernel(Program, "group_sums");
  const std::vector<cl_uint> Zeros(Count, 0u);
  cl_mem Out = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            Count * sizeof(cl_uint), const_cast<cl_uint *>(Zeros.data()));
  cl_mem Copy = createBuffer(S.Context, CL_MEM_READ_WRITE, Count * sizeof(cl_uint), nullptr);
  cl_mem Partial = createBuffer(S.Context, CL_MEM_READ_WRITE, Group * sizeof(cl_uint), nullptr);
  setArg(Churn, 0, Out);
  setArg(Churn, 1, Rounds);
  setArg(Sums, 0, Out);
  setArg(Sums, 1, Partial);
  setArg(Sums, 2, static_cast<cl_uint>(Count));
  for (int Step = 0; Step < 3; ++Step) {
    const size_t Global = Count;
    show("churn",
         clEnqueueNDRangeKernel(S.Queue, Churn, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    show("copy behind it", clEnqueueCopyBuffer(S.Queue, Out, Copy, 0, 0, Count * sizeof(cl_uint), 0,
                                               nullptr, nullptr));
    const size_t One = Group;
    show("one work-group behind it",
         clEnqueueNDRangeKernel(S.Queue, Sums, 1, nullptr, &One, &One, 0, nullptr, nullptr));
    say("the copy", readAll<cl_uint>(S.Queue, Copy, Count));
    say("the sums", readAll<cl_uint>(S.Queue, Partial, Group));
    say("the output", readAll<cl_uint>(S.Queue, Out, Count));
    // The next step's churn writes what this one wrote: zero it, so that a step that ran late
    // reads differently.
    const cl_uint Zero = 0;
    show("zeroed", clEnqueueFillBuffer(S.Queue, Out, &Zero, sizeof(Zero), 0,
                                       Count * sizeof(cl_uint), 0, nullptr, nullptr));
  }
  clReleaseMemObject(Out);
  clReleaseMemObject(Copy);
  clReleaseMemObject(Partial);
  clReleaseKernel(Churn);
  clReleaseKernel(Sums);
}

// A fill and a write left running, then at once a long kernel that adds to what they wrote.
void beforeIt(const Setup &S, cl_program Program) {
  cl_kernel Add = createKernel(Program, "churn_add");
  cl_mem Buf = createBuffer(S.Context, CL_MEM_READ_WRITE, Count * sizeof(cl_uint), nullptr);
  setArg(Add, 0, Buf);
  setArg(Add, 1, Rounds);
  std::vector<cl_uint> Ramp(Count);
  for (size_t I = 0; I < Count; ++I)
    Ramp[I] = static_cast<cl_uint>(I * 2654435761u);
  for (int Step = 0; Step < 3; ++Step) {
    const cl_uint Pattern = 0x01010101u * static_cast<cl_uint>(Step + 1);
    show("fill", clEnqueueFillBuffer(S.Queue, Buf, &Pattern, sizeof(Pattern), 0,
                                     Count * sizeof(cl_uint), 0, nullptr, nullptr));
    const size_t Global = Count;
    show("add to the fill",
         clEnqueueNDRangeKernel(S.Queue, Add, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    say("after the fill", readAll<cl_uint>(S.Queue, Buf, Count));
    show("write", clEnqueueWriteBuffer(S.Queue, Buf, CL_FALSE, 0, Count * sizeof(cl_uint),
                                       Ramp.data(), 0, nullptr, nullptr));
    show("add to the write",
         clEnqueueNDRangeKernel(S.Queue, Add, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    say("after the write", readAll<cl_uint>(S.Queue, Buf, Count));
  }
  clReleaseMemObject(Buf);
  clReleaseKernel(Add);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  api::say("== behind a long kernel");
  behindIt(S, Program);
  api::say("== before a long kernel");
  beforeIt(S, Program);
  clReleaseProgram(Program);
  tearDown(S);
  api::say("done");
  return 0;
}
