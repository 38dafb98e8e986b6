// Loops of launches that repeat the one before (libsplit enqueues such a repeat and nothing else:
// launch/repeat_launch), and everything between two of them that must end the repeat: a changed
// scalar or buffer argument (an argument set again as it was does not), a host write, read, map,
// fill or copy of a buffer the kernel uses, a launch with an event or a wait list, another kernel
// writing the same buffer, a wait, a released buffer, a sub-buffer of the argument; and loops
// that wait for the queue after every launch. Each step's results must read as natively.
#include "api_test.hpp"

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void axpb(__global uint *buf, uint a, uint b) {
  size_t i = get_global_id(0);
  buf[i] = buf[i] * a + b;
}
__kernel void shift(__global const uint *in, __global uint *out, uint n) {
  size_t i = get_global_id(0);
  out[i] = in[(i + 1) % n] + in[i] * 3u;
}
__kernel void nine(__global uint *a, __global const uint *b, __global const uint *c,
                   __global const uint *d, __global const uint *e, __global const uint *f,
                   __global const uint *g, __global const uint *h, __global const uint *i) {
  size_t x = get_global_id(0);
  a[x] += b[x] + c[x] * 2u + d[x] * 3u + e[x] * 4u + f[x] * 5u + g[x] * 6u + h[x] * 7u + i[x] * 8u;
}
__kernel void scaled(__global uint *buf, uint k) {
  size_t i = get_global_id(0);
  if (i >= k)
    buf[i] += buf[k] + (uint)i;
}
)CLC";

constexpr size_t Count = 4096;

cl_mem filled(const Setup &S, cl_uint Seed) {
  std::vector<cl_uint> Fill(Count);
  for (size_t I = 0; I < Count; ++I)
    Fill[I] = Seed + static_cast<cl_uint>(I) * 7u;
  return createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Count * sizeof(cl_uint),
                      Fill.data());
}

void report(const char *Name, const Setup &S, cl_mem Buffer) {
  say("%s: checksum %08x", Name, checksum(readAll<cl_uint>(S.Queue, Buffer, Count)));
}

cl_int launch(const Setup &S, cl_kernel Kernel, size_t Global = Count) {
  return clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr);
}

void repeats(const Setup &S, cl_kernel Kernel, int Times, const char *Name) {
  cl_int Result = CL_SUCCESS;
  for (int I = 0; I < Times && Result == CL_SUCCESS; ++I)
    Result = launch(S, Kernel);
  say("%s: %d launches, %s", Name, Times, errorName(Result));
}

void argumentsChange(const Setup &S, cl_program Program) {
  cl_kernel Axpb = createKernel(Program, "axpb");
  cl_mem A = filled(S, 1), B = filled(S, 2);
  setArg(Axpb, 0, A);
  setArg(Axpb, 1, cl_uint{3});
  setArg(Axpb, 2, cl_uint{1});
  repeats(S, Axpb, 20, "the same arguments");
  // A scalar set to the same value, then changed at every launch (a factorization's step).
  setArg(Axpb, 1, cl_uint{3});
  repeats(S, Axpb, 3, "a scalar set again to its value");
  cl_int Result = CL_SUCCESS;
  for (cl_uint K = 0; K < 30 && Result == CL_SUCCESS; ++K) {
    setArg(Axpb, 2, K);
    Result = launch(S, Axpb);
  }
  say("a scalar changed at every launch: %s", errorName(Result));
  report("a after", S, A);
  // The buffer changes, then back.
  setArg(Axpb, 0, B);
  repeats(S, Axpb, 5, "another buffer");
  setArg(Axpb, 0, A);
  repeats(S, Axpb, 5, "the first buffer again");
  report("a", S, A);
  report("b", S, B);
  // Every argument set again before each launch, as a launch helper does: the same ones, with
  // the other buffer in one launch of four and a new scalar in one of three.
  cl_int Again = CL_SUCCESS;
  for (cl_uint I = 0; I < 24 && Again == CL_SUCCESS; ++I) {
    setArg(Axpb, 0, I % 4 == 3 ? B : A);
    setArg(Axpb, 1, cl_uint{3});
    setArg(Axpb, 2, I % 3 == 2 ? I : cl_uint{1});
    Again = launch(S, Axpb);
  }
  say("every argument set again before each launch: %s", errorName(Again));
  report("a, arguments set again", S, A);
  report("b, arguments set again", S, B);
  // A size that changes at every launch.
  cl_int Shrinking = CL_SUCCESS;
  for (size_t Global = Count; Global > Count - 40 && Shrinking == CL_SUCCESS; Global -= 8)
    Shrinking = launch(S, Axpb, Global);
  say("sizes shrinking: %s", errorName(Shrinking));
  report("a, sizes shrinking", S, A);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseKernel(Axpb);
}

void dataChanges(const Setup &S, cl_program Program) {
  cl_kernel Axpb = createKernel(Program, "axpb");
  cl_mem A = filled(S, 5), Other = filled(S, 9);
  setArg(Axpb, 0, A);
  setArg(Axpb, 1, cl_uint{5});
  setArg(Axpb, 2, cl_uint{7});
  repeats(S, Axpb, 10, "launches");
  std::vector<cl_uint> Host(Count, 11u);
  need(clEnqueueWriteBuffer(S.Queue, A, CL_TRUE, 0, 64 * sizeof(cl_uint), Host.data(), 0, nullptr,
                            nullptr),
       "blocking write");
  repeats(S, Axpb, 3, "after a blocking write of part of it");
  need(clEnqueueWriteBuffer(S.Queue, A, CL_FALSE, 128, 256 * sizeof(cl_uint), Host.data(), 0,
                            nullptr, nullptr),
       "write");
  repeats(S, Axpb, 3, "after a write that does not block");
  report("a", S, A); // a read between launches
  repeats(S, Axpb, 3, "after a read");
  cl_int Error = CL_SUCCESS;
  auto *Mapped = static_cast<cl_uint *>(clEnqueueMapBuffer(
      S.Queue, A, CL_TRUE, CL_MAP_WRITE, 0, 16 * sizeof(cl_uint), 0, nullptr, nullptr, &Error));
  need(Error, "map");
  for (int I = 0; I < 16; ++I)
    Mapped[I] = 1000u + static_cast<cl_uint>(I);
  need(clEnqueueUnmapMemObject(S.Queue, A, Mapped, 0, nullptr, nullptr), "unmap");
  repeats(S, Axpb, 3, "after a mapped write");
  const cl_uint Pattern = 0x01020304u;
  need(clEnqueueFillBuffer(S.Queue, A, &Pattern, sizeof(Pattern), 512 * sizeof(cl_uint),
                           64 * sizeof(cl_uint), 0, nullptr, nullptr),
       "fill");
  repeats(S, Axpb, 3, "after a fill");
  need(clEnqueueCopyBuffer(S.Queue, Other, A, 0, 1024 * sizeof(cl_uint), 128 * sizeof(cl_uint), 0,
                           nullptr, nullptr),
       "copy");
  repeats(S, Axpb, 3, "after a copy into it");
  need(clFinish(S.Queue), "finish");
  repeats(S, Axpb, 3, "after a finish");
  // Another queue writes it once this one's launches ended.
  cl_int QueueError = CL_SUCCESS;
  cl_command_queue Second = clCreateCommandQueue(S.Context, S.Device, 0, &QueueError);
  need(QueueError, "second queue");
  for (cl_uint Round = 0; Round < 3; ++Round) {
    std::vector<cl_uint> Written(Count, 300u + Round);
    need(clFinish(S.Queue), "finish before the other queue writes");
    need(clEnqueueWriteBuffer(Second, A, CL_TRUE, 0, Count * sizeof(cl_uint), Written.data(), 0,
                              nullptr, nullptr),
         "write on another queue");
    repeats(S, Axpb, 2, "after a write on another queue");
  }
  clReleaseCommandQueue(Second);
  cl_event Done = nullptr;
  const size_t Global = Count;
  need(clEnqueueNDRangeKernel(S.Queue, Axpb, 1, nullptr, &Global, nullptr, 0, nullptr, &Done),
       "launch with an event");
  need(clEnqueueNDRangeKernel(S.Queue, Axpb, 1, nullptr, &Global, nullptr, 1, &Done, nullptr),
       "launch with a wait list");
  clReleaseEvent(Done);
  repeats(S, Axpb, 3, "after launches with events");
  report("a", S, A);
  clReleaseMemObject(A);
  clReleaseMemObject(Other);
  clReleaseKernel(Axpb);
}

void kernelsTakeTurns(const Setup &S, cl_program Program) {
  // A 1-D stencil's two kernels, each reading what the other wrote.
  cl_kernel Forward = createKernel(Program, "shift"), Back = createKernel(Program, "shift");
  cl_mem A = filled(S, 3), B = filled(S, 4);
  const cl_uint N = Count;
  setArg(Forward, 0, A);
  setArg(Forward, 1, B);
  setArg(Forward, 2, N);
  setArg(Back, 0, B);
  setArg(Back, 1, A);
  setArg(Back, 2, N);
  cl_int Result = CL_SUCCESS;
  for (int I = 0; I < 50 && Result == CL_SUCCESS; ++I)
    if ((Result = launch(S, Forward)) == CL_SUCCESS)
      Result = launch(S, Back);
  say("two kernels taking turns: %s", errorName(Result));
  report("a", S, A);
  report("b", S, B);
  // A third kernel writes one of them between two repeats.
  cl_kernel Scaled = createKernel(Program, "scaled");
  setArg(Scaled, 0, A);
  for (cl_uint K = 0; K < 8 && Result == CL_SUCCESS; ++K) {
    setArg(Scaled, 1, K * 100u);
    if ((Result = launch(S, Forward)) == CL_SUCCESS && (Result = launch(S, Scaled)) == CL_SUCCESS)
      Result = launch(S, Back);
  }
  say("a third kernel between them: %s", errorName(Result));
  report("a", S, A);
  report("b", S, B);
  clReleaseKernel(Scaled);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseKernel(Forward);
  clReleaseKernel(Back);
}

void buffersSwap(const Setup &S, cl_program Program) {
  // One kernel whose two buffers swap at every launch (a stencil's ping-pong).
  cl_kernel Shift = createKernel(Program, "shift");
  cl_mem A = filled(S, 5), B = filled(S, 6), C = filled(S, 7);
  const cl_uint N = Count;
  setArg(Shift, 2, N);
  auto swapped = [&](cl_mem From, cl_mem To, int Times, const char *Name) {
    cl_int Result = CL_SUCCESS;
    for (int I = 0; I < Times && Result == CL_SUCCESS; ++I) {
      setArg(Shift, 0, I % 2 ? To : From);
      setArg(Shift, 1, I % 2 ? From : To);
      Result = launch(S, Shift);
    }
    say("%s: %s", Name, errorName(Result));
  };
  swapped(A, B, 40, "buffers swapped at every launch");
  // Right after (nothing waited for), the first of the pair with a third buffer in the second's
  // place: not the pair's launch.
  setArg(Shift, 0, A);
  setArg(Shift, 1, C);
  show("a third buffer right after", launch(S, Shift));
  report("a", S, A);
  report("b", S, B);
  report("c", S, C);
  // A host write to one of them between two swaps, then a non-blocking read of the other.
  swapped(A, B, 7, "swapped again");
  std::vector<cl_uint> Ones(Count, 1u);
  show("write b", clEnqueueWriteBuffer(S.Queue, B, CL_TRUE, 0, Count * sizeof(cl_uint), Ones.data(),
                                       0, nullptr, nullptr));
  swapped(B, A, 9, "swapped after a host write");
  std::vector<cl_uint> Seen(Count);
  show("read a", clEnqueueReadBuffer(S.Queue, A, CL_FALSE, 0, Count * sizeof(cl_uint), Seen.data(),
                                     0, nullptr, nullptr));
  swapped(A, B, 6, "swapped behind a read");
  show("finish", clFinish(S.Queue));
  say("read between: checksum %08x", checksum(Seen));
  report("a", S, A);
  report("b", S, B);
  // A third buffer takes one's place, then the first pair again; then one of the pair is
  // released and a new one (maybe at its address) swaps with the other.
  swapped(A, C, 8, "a third buffer");
  swapped(A, B, 8, "the pair again");
  report("c", S, C);
  clReleaseMemObject(B);
  cl_mem D = filled(S, 8);
  swapped(A, D, 10, "a new buffer in a released one's place");
  report("a", S, A);
  report("d", S, D);
  clReleaseMemObject(A);
  clReleaseMemObject(C);
  clReleaseMemObject(D);
  clReleaseKernel(Shift);
}

void buffersGo(const Setup &S, cl_program Program) {
  cl_kernel Axpb = createKernel(Program, "axpb");
  setArg(Axpb, 1, cl_uint{2});
  setArg(Axpb, 2, cl_uint{9});
  for (cl_uint Round = 0; Round < 4; ++Round) {
    // A buffer released right after its launches, a new one (maybe at the same address) next.
    cl_mem A = filled(S, Round);
    setArg(Axpb, 0, A);
    repeats(S, Axpb, 6, "a new buffer");
    report("it", S, A);
    clReleaseMemObject(A);
  }
  // A sub-buffer as the argument, its parent written between repeats.
  cl_mem Parent = filled(S, 21);
  cl_buffer_region Region{1024 * sizeof(cl_uint), 1024 * sizeof(cl_uint)};
  cl_int Error = CL_SUCCESS;
  cl_mem Sub =
      clCreateSubBuffer(Parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
  need(Error, "sub-buffer");
  setArg(Axpb, 0, Sub);
  const size_t Global = 1024;
  for (int I = 0; I < 5; ++I)
    need(launch(S, Axpb, Global), "launch on the sub-buffer");
  std::vector<cl_uint> Host(2048, 77u);
  need(clEnqueueWriteBuffer(S.Queue, Parent, CL_TRUE, 512 * sizeof(cl_uint),
                            Host.size() * sizeof(cl_uint), Host.data(), 0, nullptr, nullptr),
       "write over the sub-buffer");
  for (int I = 0; I < 5; ++I)
    need(launch(S, Axpb, Global), "launch on the sub-buffer");
  report("parent", S, Parent);
  clReleaseMemObject(Sub);
  clReleaseMemObject(Parent);
  clReleaseKernel(Axpb);
}

void twoQueues(const Setup &S, cl_program Program) {
  // One kernel on two queues of the device: a launch held on the second by a user event runs
  // with the arguments it was given, between repeats on the first with others.
  cl_kernel Axpb = createKernel(Program, "axpb");
  cl_mem A = filled(S, 31), B = filled(S, 32);
  cl_int Error = CL_SUCCESS;
  cl_command_queue Second = clCreateCommandQueue(S.Context, S.Device, 0, &Error);
  need(Error, "second queue");
  cl_event Gate = createUserEvent(S.Context);
  setArg(Axpb, 0, B);
  setArg(Axpb, 1, cl_uint{3});
  setArg(Axpb, 2, cl_uint{4});
  const size_t Global = Count;
  need(clEnqueueNDRangeKernel(Second, Axpb, 1, nullptr, &Global, nullptr, 1, &Gate, nullptr),
       "launch held on the second queue");
  setArg(Axpb, 0, A);
  setArg(Axpb, 2, cl_uint{5});
  repeats(S, Axpb, 4, "launches on the first queue");
  need(clSetUserEventStatus(Gate, CL_COMPLETE), "gate");
  need(clFinish(Second), "finish the second queue");
  repeats(S, Axpb, 4, "after the second queue's launch ran");
  report("a", S, A);
  report("b", S, B);
  clReleaseEvent(Gate);
  clReleaseCommandQueue(Second);
  // Nine buffers: more than a repeat remembers.
  cl_kernel Nine = createKernel(Program, "nine");
  std::vector<cl_mem> Buffers;
  for (cl_uint I = 0; I < 9; ++I) {
    Buffers.push_back(filled(S, 40 + I));
    setArg(Nine, I, Buffers.back());
  }
  repeats(S, Nine, 6, "a kernel of nine buffers");
  report("its first", S, Buffers.front());
  for (cl_mem M : Buffers)
    clReleaseMemObject(M);
  clReleaseKernel(Nine);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseKernel(Axpb);
}

// A launch, then a wait for the queue (PolyBench-ACC's host code does that after every launch).
cl_int launchWaited(const Setup &S, cl_kernel Kernel) {
  const cl_int Result = launch(S, Kernel);
  return Result == CL_SUCCESS ? clFinish(S.Queue) : Result;
}

void waitsBetween(const Setup &S, cl_program Program) {
  // PolyBench-ACC's host code: every argument set again, then the launch, then clFinish. The
  // launch after a wait repeats one whose queue entry has completed (the launch holds its buffers
  // itself).
  cl_kernel Axpb = createKernel(Program, "axpb");
  cl_kernel Shift = createKernel(Program, "shift");
  cl_mem A = filled(S, 41), B = filled(S, 42);
  const cl_uint N = Count;
  cl_int Result = CL_SUCCESS;
  for (int I = 0; I < 20 && Result == CL_SUCCESS; ++I) {
    setArg(Axpb, 0, A);
    setArg(Axpb, 1, cl_uint{3});
    setArg(Axpb, 2, cl_uint{1});
    Result = launchWaited(S, Axpb);
    setArg(Shift, 0, A);
    setArg(Shift, 1, B);
    setArg(Shift, 2, N);
    if (Result == CL_SUCCESS)
      Result = launchWaited(S, Shift);
  }
  say("two kernels, a wait after each launch: %s", errorName(Result));
  report("a", S, A);
  report("b", S, B);
  // A scalar changed, then a host write, between waits.
  setArg(Axpb, 1, cl_uint{5});
  show("a scalar changed after a wait", launchWaited(S, Axpb));
  std::vector<cl_uint> Twos(Count, 2u);
  show("write a", clEnqueueWriteBuffer(S.Queue, A, CL_TRUE, 0, Count * sizeof(cl_uint), Twos.data(),
                                       0, nullptr, nullptr));
  show("after a host write", launchWaited(S, Axpb));
  report("a", S, A);
  // Buffers swapped at every launch, a wait after each.
  for (int I = 0; I < 9 && Result == CL_SUCCESS; ++I) {
    setArg(Shift, 0, I % 2 ? B : A);
    setArg(Shift, 1, I % 2 ? A : B);
    Result = launchWaited(S, Shift);
  }
  say("buffers swapped, a wait after each launch: %s", errorName(Result));
  report("a", S, A);
  report("b", S, B);
  // A buffer released after a wait, and a new one (maybe at its address, the kernel holding no
  // reference to it) set in its place, where the launch before last named the released one there.
  cl_mem C = filled(S, 43);
  for (cl_uint Round = 0; Round < 4; ++Round) {
    setArg(Shift, 0, A);
    setArg(Shift, 1, B);
    show("a launch", launchWaited(S, Shift));
    setArg(Shift, 1, C);
    show("another buffer", launchWaited(S, Shift));
    clReleaseMemObject(B);
    B = filled(S, 50 + Round);
    setArg(Shift, 1, B);
    show("a new buffer after a wait", launchWaited(S, Shift));
    report("b", S, B);
  }
  // Once the queue was waited for, nothing of the launches holds their buffers: released, one
  // is destroyed inside its release call (its destructor callback has run when the call returns).
  std::atomic<int> Destroyed{0};
  clSetMemObjectDestructorCallback(
      C, [](cl_mem, void *Count) { ++*static_cast<std::atomic<int> *>(Count); }, &Destroyed);
  setArg(Shift, 0, A);
  setArg(Shift, 1, C);
  show("a launch into c", launchWaited(S, Shift));
  show("again", launchWaited(S, Shift));
  clReleaseMemObject(C);
  say("c destroyed at its release after a wait: %s", yesNo(Destroyed.load() == 1));
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseKernel(Axpb);
  clReleaseKernel(Shift);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  say("== arguments that change");
  argumentsChange(S, Program);
  say("== data that changes between repeats");
  dataChanges(S, Program);
  say("== kernels taking turns");
  kernelsTakeTurns(S, Program);
  say("== buffers swapped between launches");
  buffersSwap(S, Program);
  say("== buffers released, sub-buffers");
  buffersGo(S, Program);
  say("== two queues, many buffers");
  twoQueues(S, Program);
  say("== a wait after every launch");
  waitsBetween(S, Program);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
