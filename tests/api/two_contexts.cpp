// Two contexts on the same device, used alternately: each with its own queue, program, kernel and
// buffers, commands interleaved, results independent. Objects of one context given to the other
// are refused (queue/buffer, queue/kernel, kernel argument, wait list, clWaitForEvents).
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 8192;
constexpr size_t Bytes = N * sizeof(cl_uint);

struct World {
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  cl_program Program = nullptr;
  cl_kernel Iota = nullptr, AddOne = nullptr;
  cl_mem Buffer = nullptr;
};

World makeWorld(const Setup &S) {
  World W;
  cl_int Error = CL_SUCCESS;
  W.Context = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  W.Queue = clCreateCommandQueue(W.Context, S.Device, 0, &Error);
  need(Error, "clCreateCommandQueue");
  W.Program = buildProgram(W.Context, S.Device, commonKernels());
  W.Iota = createKernel(W.Program, "iota");
  W.AddOne = createKernel(W.Program, "add_one");
  W.Buffer = createBuffer(W.Context, CL_MEM_READ_WRITE, Bytes);
  return W;
}

void destroy(World &W) {
  clReleaseMemObject(W.Buffer);
  clReleaseKernel(W.Iota);
  clReleaseKernel(W.AddOne);
  clReleaseProgram(W.Program);
  clReleaseCommandQueue(W.Queue);
  clReleaseContext(W.Context);
}

void alternate(World &A, World &B) {
  setArg(A.Iota, 0, A.Buffer);
  setArg(A.Iota, 1, cl_uint{1});
  setArg(B.Iota, 0, B.Buffer);
  setArg(B.Iota, 1, cl_uint{1000000});
  setArg(A.AddOne, 0, A.Buffer);
  setArg(B.AddOne, 0, B.Buffer);
  show("A iota",
       clEnqueueNDRangeKernel(A.Queue, A.Iota, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  show("B iota",
       clEnqueueNDRangeKernel(B.Queue, B.Iota, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  for (int Round = 0; Round < 3; ++Round) {
    show("A add_one",
         clEnqueueNDRangeKernel(A.Queue, A.AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
    if (Round != 1)
      show("B add_one",
           clEnqueueNDRangeKernel(B.Queue, B.AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  }
  // Non-blocking reads of both, finished in the opposite order.
  std::vector<cl_uint> OutA(N, 0), OutB(N, 0);
  cl_event ReadA = nullptr, ReadB = nullptr;
  show("A read",
       clEnqueueReadBuffer(A.Queue, A.Buffer, CL_FALSE, 0, Bytes, OutA.data(), 0, nullptr, &ReadA));
  show("B read",
       clEnqueueReadBuffer(B.Queue, B.Buffer, CL_FALSE, 0, Bytes, OutB.data(), 0, nullptr, &ReadB));
  show("clFinish(B)", clFinish(B.Queue));
  show("clFinish(A)", clFinish(A.Queue));
  bool CorrectA = true, CorrectB = true;
  for (size_t I = 0; I < N; ++I) {
    CorrectA = CorrectA && OutA[I] == 1 + I + 3;
    CorrectB = CorrectB && OutB[I] == 1000000 + I + 2;
  }
  say("context A results: %s, context B results: %s", yesNo(CorrectA), yesNo(CorrectB));
  cl_context Owner = nullptr;
  clGetEventInfo(ReadB, CL_EVENT_CONTEXT, sizeof(Owner), &Owner, nullptr);
  say("B's event belongs to B: %s", yesNo(Owner == B.Context));
  clReleaseEvent(ReadA);
  clReleaseEvent(ReadB);

  // A user event of A gates A's queue; B keeps working meanwhile.
  cl_event Gate = createUserEvent(A.Context);
  cl_event Held = nullptr;
  show("A add_one (waits A's user event)",
       clEnqueueNDRangeKernel(A.Queue, A.AddOne, 1, nullptr, &N, nullptr, 1, &Gate, &Held));
  show("B add_one",
       clEnqueueNDRangeKernel(B.Queue, B.AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  show("clFinish(B) while A is held", clFinish(B.Queue));
  say("A's command still held: %s", yesNo(eventStatus(Held) > CL_COMPLETE));
  clSetUserEventStatus(Gate, CL_COMPLETE);
  show("clFinish(A)", clFinish(A.Queue));
  say("A's command: %s", statusName(eventStatus(Held)));
  clReleaseEvent(Held);
  clReleaseEvent(Gate);
}

void mixing(World &A, World &B) {
  std::vector<cl_uint> Host(N, 0);
  show("read A's buffer on B's queue",
       clEnqueueReadBuffer(B.Queue, A.Buffer, CL_TRUE, 0, 4, Host.data(), 0, nullptr, nullptr));
  show("write A's buffer on B's queue",
       clEnqueueWriteBuffer(B.Queue, A.Buffer, CL_TRUE, 0, 4, Host.data(), 0, nullptr, nullptr));
  show("copy A's buffer to B's",
       clEnqueueCopyBuffer(A.Queue, A.Buffer, B.Buffer, 0, 0, 4, 0, nullptr, nullptr));
  cl_int Error = CL_SUCCESS;
  clEnqueueMapBuffer(B.Queue, A.Buffer, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Error);
  show("map A's buffer on B's queue", Error);
  show("A's kernel on B's queue",
       clEnqueueNDRangeKernel(B.Queue, A.AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  cl_event Done = nullptr;
  show("marker on A", clEnqueueMarkerWithWaitList(A.Queue, 0, nullptr, &Done));
  clWaitForEvents(1, &Done);
  show("A's event in B's wait list", clEnqueueMarkerWithWaitList(B.Queue, 1, &Done, nullptr));
  cl_event Other = nullptr;
  show("marker on B", clEnqueueMarkerWithWaitList(B.Queue, 0, nullptr, &Other));
  clWaitForEvents(1, &Other);
  const cl_event Both[] = {Done, Other};
  show("clWaitForEvents(events of two contexts)", clWaitForEvents(2, Both));
  show("clFinish(A)", clFinish(A.Queue));
  show("clFinish(B)", clFinish(B.Queue));
  // A's buffer as an argument of B's kernel is only known to be wrong at the launch.
  show("clSetKernelArg(B's kernel, A's buffer)",
       clSetKernelArg(B.AddOne, 0, sizeof(cl_mem), &A.Buffer));
  clReleaseEvent(Done);
  clReleaseEvent(Other);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S;
  pickDevice(Argc, Argv, S);
  World A = makeWorld(S), B = makeWorld(S);
  say("== alternating");
  alternate(A, B);
  say("== mixing objects of two contexts");
  mixing(A, B);
  // Tear down A first, then use B again: B must not depend on anything of A.
  destroy(A);
  setArg(B.Iota, 0, B.Buffer);
  show("B iota after A is gone",
       clEnqueueNDRangeKernel(B.Queue, B.Iota, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(B.Queue, B.Buffer, N);
  say("B after A's release: %s", yesNo(Out[0] == 1000000 && Out[N - 1] == 1000000 + N - 1));
  destroy(B);
  say("done");
  return 0;
}
