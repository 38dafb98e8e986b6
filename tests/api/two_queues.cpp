// Two in-order queues of one context with dependencies between them: a pipeline that alternates
// queues, a write-after-read hazard ordered only by events, one queue held by a user event while
// the other finishes, and a barrier on one queue that waits for the other.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 16384;
constexpr size_t Bytes = N * sizeof(cl_uint);

void pipeline(const Setup &S, cl_command_queue Q2, cl_kernel AddOne) {
  // Four chunks: q1 writes, q2 computes, q1 reads back; each step waits for the previous one.
  const size_t Chunks = 4, ChunkWords = N / Chunks;
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Input(N), Output(N, 0);
  for (size_t I = 0; I < N; ++I)
    Input[I] = static_cast<cl_uint>(I * 3);
  std::vector<cl_mem> Parts;
  std::vector<cl_event> Reads;
  std::vector<cl_kernel> Kernels;
  cl_int Error = CL_SUCCESS;
  for (size_t C = 0; C < Chunks; ++C) {
    cl_buffer_region Region{C * ChunkWords * sizeof(cl_uint), ChunkWords * sizeof(cl_uint)};
    cl_mem Part = clCreateSubBuffer(Buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
    need(Error, "clCreateSubBuffer");
    Parts.push_back(Part);
    cl_event Write = nullptr, Kernel = nullptr, Read = nullptr;
    show("q1 write chunk", clEnqueueWriteBuffer(S.Queue, Part, CL_FALSE, 0, Region.size,
                                                Input.data() + C * ChunkWords, 0, nullptr, &Write));
    // A kernel object per chunk: its argument must not change while the launch is pending.
    cl_int KernelError = CL_SUCCESS;
    cl_program Program = nullptr;
    clGetKernelInfo(AddOne, CL_KERNEL_PROGRAM, sizeof(Program), &Program, nullptr);
    cl_kernel K = clCreateKernel(Program, "add_one", &KernelError);
    need(KernelError, "clCreateKernel");
    Kernels.push_back(K);
    setArg(K, 0, Part);
    show("q2 kernel (waits q1 write)",
         clEnqueueNDRangeKernel(Q2, K, 1, nullptr, &ChunkWords, nullptr, 1, &Write, &Kernel));
    show("q1 read (waits q2 kernel)",
         clEnqueueReadBuffer(S.Queue, Part, CL_FALSE, 0, Region.size,
                             Output.data() + C * ChunkWords, 1, &Kernel, &Read));
    Reads.push_back(Read);
    clReleaseEvent(Write);
    clReleaseEvent(Kernel);
  }
  clFlush(Q2);
  show("clWaitForEvents(all reads)",
       clWaitForEvents(static_cast<cl_uint>(Reads.size()), Reads.data()));
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Output[I] == I * 3 + 1;
  say("pipeline results: %s", yesNo(Correct));
  for (cl_event E : Reads)
    clReleaseEvent(E);
  for (cl_kernel K : Kernels)
    clReleaseKernel(K);
  for (cl_mem M : Parts)
    clReleaseMemObject(M);
  clReleaseMemObject(Buffer);
}

void hazard(const Setup &S, cl_command_queue Q2, cl_kernel Iota, cl_kernel Scale,
            cl_kernel AddOne) {
  // q1: A = iota; q2: B = A * 3 (waits); q1: A += 1 (waits for q2's read of A); q2: read B.
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem B = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_event User = createUserEvent(S.Context);
  cl_event Filled = nullptr, Scaled = nullptr;
  setArg(Iota, 0, A);
  setArg(Iota, 1, cl_uint{10});
  show("q1 iota A (waits user event)",
       clEnqueueNDRangeKernel(S.Queue, Iota, 1, nullptr, &N, nullptr, 1, &User, &Filled));
  setArg(Scale, 0, A);
  setArg(Scale, 1, B);
  setArg(Scale, 2, cl_uint{3});
  show("q2 B = 3A (waits q1 iota)",
       clEnqueueNDRangeKernel(Q2, Scale, 1, nullptr, &N, nullptr, 1, &Filled, &Scaled));
  setArg(AddOne, 0, A);
  show("q1 A += 1 (waits q2 scale)",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 1, &Scaled, nullptr));
  std::vector<cl_uint> OutA(N, 0), OutB(N, 0);
  cl_event ReadB = nullptr;
  show("q2 read B",
       clEnqueueReadBuffer(Q2, B, CL_FALSE, 0, Bytes, OutB.data(), 0, nullptr, &ReadB));
  clFlush(S.Queue);
  clFlush(Q2);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  say("q2 read held (through q1's held iota): %s", yesNo(eventStatus(ReadB) > CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clFinish(q2)", clFinish(Q2));
  show("q1 read A",
       clEnqueueReadBuffer(S.Queue, A, CL_TRUE, 0, Bytes, OutA.data(), 0, nullptr, nullptr));
  bool CorrectA = true, CorrectB = true;
  for (size_t I = 0; I < N; ++I) {
    CorrectA = CorrectA && OutA[I] == 10 + I + 1;
    CorrectB = CorrectB && OutB[I] == (10 + I) * 3;
  }
  say("B computed from A before A's update: %s; A updated: %s", yesNo(CorrectB), yesNo(CorrectA));
  for (cl_event E : {User, Filled, Scaled, ReadB})
    clReleaseEvent(E);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
}

void independence(const Setup &S, cl_command_queue Q2, cl_kernel Iota, cl_kernel AddOne) {
  // q1 held by a user event; q2's own work finishes regardless.
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem B = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_event User = createUserEvent(S.Context);
  cl_event Held = nullptr;
  setArg(AddOne, 0, A);
  show("q1 add_one A (waits user event)",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 1, &User, &Held));
  setArg(Iota, 0, B);
  setArg(Iota, 1, cl_uint{5});
  show("q2 iota B", clEnqueueNDRangeKernel(Q2, Iota, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  std::vector<cl_uint> OutB(N, 0);
  show("q2 blocking read B",
       clEnqueueReadBuffer(Q2, B, CL_TRUE, 0, Bytes, OutB.data(), 0, nullptr, nullptr));
  show("clFinish(q2) while q1 is held", clFinish(Q2));
  say("q2 results: %s; q1 still held: %s", yesNo(OutB[0] == 5 && OutB[N - 1] == 5 + N - 1),
      yesNo(eventStatus(Held) > CL_COMPLETE));

  // A barrier on q2 that waits for q1's held command holds q2 too.
  cl_event Barrier = nullptr, After = nullptr;
  show("q2 barrier (waits q1's held command)",
       clEnqueueBarrierWithWaitList(Q2, 1, &Held, &Barrier));
  setArg(Iota, 1, cl_uint{77});
  show("q2 iota B after the barrier",
       clEnqueueNDRangeKernel(Q2, Iota, 1, nullptr, &N, nullptr, 0, nullptr, &After));
  clFlush(Q2);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  say("q2 barrier held: %s, command after it held: %s", yesNo(eventStatus(Barrier) > CL_COMPLETE),
      yesNo(eventStatus(After) > CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clFinish(q2)", clFinish(Q2));
  show("clFinish(q1)", clFinish(S.Queue));
  say("statuses: q1 %s, barrier %s, after %s", statusName(eventStatus(Held)),
      statusName(eventStatus(Barrier)), statusName(eventStatus(After)));
  OutB = readAll<cl_uint>(S.Queue, B, N);
  say("B after the barrier: %s", yesNo(OutB[0] == 77 && OutB[N - 1] == 77 + N - 1));
  cl_command_queue Queue = nullptr;
  clGetEventInfo(Barrier, CL_EVENT_COMMAND_QUEUE, sizeof(Queue), &Queue, nullptr);
  say("barrier event's queue is q2: %s", yesNo(Queue == Q2));
  for (cl_event E : {User, Held, Barrier, After})
    clReleaseEvent(E);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_int Error = CL_SUCCESS;
  cl_command_queue Q2 = clCreateCommandQueue(S.Context, S.Device, 0, &Error);
  need(Error, "clCreateCommandQueue");
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel Iota = createKernel(Program, "iota");
  cl_kernel Scale = createKernel(Program, "scale");
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== pipeline across two queues");
  pipeline(S, Q2, AddOne);
  say("== write after read ordered by events");
  hazard(S, Q2, Iota, Scale, AddOne);
  say("== one queue held, the other not");
  independence(S, Q2, Iota, AddOne);
  for (cl_kernel K : {Iota, Scale, AddOne})
    clReleaseKernel(K);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Q2);
  tearDown(S);
  say("done");
  return 0;
}
