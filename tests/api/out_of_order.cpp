// An out-of-order queue: dependencies expressed with events only are honoured; a command with
// no dependency is not held back by an earlier one that waits for a user event; markers and
// barriers without a wait list wait for everything enqueued before them, and a barrier holds
// everything after it.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 16384;
constexpr size_t Bytes = N * sizeof(cl_uint);

void chain(const Setup &S, cl_command_queue Queue, cl_program Program) {
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem B = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_kernel Scale = createKernel(Program, "scale");
  cl_kernel AddOne = createKernel(Program, "add_one");
  std::vector<cl_uint> Input(N), Output(N, 0);
  for (size_t I = 0; I < N; ++I)
    Input[I] = static_cast<cl_uint>(I);
  cl_event Write = nullptr, Scaled = nullptr, Added = nullptr, Read = nullptr;
  show("write A",
       clEnqueueWriteBuffer(Queue, A, CL_FALSE, 0, Bytes, Input.data(), 0, nullptr, &Write));
  setArg(Scale, 0, A);
  setArg(Scale, 1, B);
  setArg(Scale, 2, cl_uint{5});
  show("B = 5A (waits write)",
       clEnqueueNDRangeKernel(Queue, Scale, 1, nullptr, &N, nullptr, 1, &Write, &Scaled));
  setArg(AddOne, 0, B);
  show("B += 1 (waits scale)",
       clEnqueueNDRangeKernel(Queue, AddOne, 1, nullptr, &N, nullptr, 1, &Scaled, &Added));
  show("read B (waits add)",
       clEnqueueReadBuffer(Queue, B, CL_FALSE, 0, Bytes, Output.data(), 1, &Added, &Read));
  show("clWaitForEvents(read)", clWaitForEvents(1, &Read));
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Output[I] == I * 5 + 1;
  say("chain through events: %s", yesNo(Correct));
  for (cl_event E : {Write, Scaled, Added, Read})
    clReleaseEvent(E);
  clReleaseKernel(Scale);
  clReleaseKernel(AddOne);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
}

void independentCommands(const Setup &S, cl_command_queue Queue, cl_program Program) {
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem B = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_kernel Held = createKernel(Program, "add_one");
  cl_kernel Free = createKernel(Program, "iota");
  cl_event User = createUserEvent(S.Context);
  cl_event HeldDone = nullptr, FreeDone = nullptr;
  setArg(Held, 0, A);
  show("add_one A (waits user event)",
       clEnqueueNDRangeKernel(Queue, Held, 1, nullptr, &N, nullptr, 1, &User, &HeldDone));
  setArg(Free, 0, B);
  setArg(Free, 1, cl_uint{3});
  show("iota B (no dependency)",
       clEnqueueNDRangeKernel(Queue, Free, 1, nullptr, &N, nullptr, 0, nullptr, &FreeDone));
  clFlush(Queue);
  // An out-of-order queue may run the second command first; PoCL does. Polled, never waited on,
  // so that an implementation that runs in order only shows "no" here instead of hanging.
  say("independent command finished while the earlier one is held: %s",
      yesNo(eventFinishes(FreeDone, 3.0)));
  say("held command still held: %s", yesNo(eventStatus(HeldDone) > CL_COMPLETE));

  // Marker and barrier without wait lists wait for everything before them, including the held
  // command; a command after the barrier waits too, even without a dependency of its own.
  cl_event Marker = nullptr, Barrier = nullptr, After = nullptr;
  show("marker (no wait list)", clEnqueueMarkerWithWaitList(Queue, 0, nullptr, &Marker));
  show("barrier (no wait list)", clEnqueueBarrierWithWaitList(Queue, 0, nullptr, &Barrier));
  setArg(Free, 1, cl_uint{900});
  show("iota B after the barrier",
       clEnqueueNDRangeKernel(Queue, Free, 1, nullptr, &N, nullptr, 0, nullptr, &After));
  clFlush(Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  say("marker held: %s, barrier held: %s, command after the barrier held: %s",
      yesNo(eventStatus(Marker) > CL_COMPLETE), yesNo(eventStatus(Barrier) > CL_COMPLETE),
      yesNo(eventStatus(After) > CL_COMPLETE));
  show("clSetUserEventStatus", clSetUserEventStatus(User, CL_COMPLETE));
  show("clFinish", clFinish(Queue));
  say("statuses: held %s, free %s, marker %s, barrier %s, after %s",
      statusName(eventStatus(HeldDone)), statusName(eventStatus(FreeDone)),
      statusName(eventStatus(Marker)), statusName(eventStatus(Barrier)),
      statusName(eventStatus(After)));
  std::vector<cl_uint> Out = readAll<cl_uint>(Queue, B, N);
  say("B written by the command after the barrier: %s",
      yesNo(Out[0] == 900 && Out[N - 1] == 900 + N - 1));
  for (cl_event E : {User, HeldDone, FreeDone, Marker, Barrier, After})
    clReleaseEvent(E);
  clReleaseKernel(Held);
  clReleaseKernel(Free);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
}

void withWaitLists(const Setup &S, cl_command_queue Queue, cl_program Program) {
  // A marker with a wait list completes when those events do, whatever else is pending.
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_kernel Iota = createKernel(Program, "iota");
  setArg(Iota, 0, A);
  setArg(Iota, 1, cl_uint{1});
  cl_event Gate = createUserEvent(S.Context), Other = createUserEvent(S.Context);
  cl_event Held = nullptr, Marker = nullptr;
  show("iota (waits gate)",
       clEnqueueNDRangeKernel(Queue, Iota, 1, nullptr, &N, nullptr, 1, &Gate, &Held));
  show("marker (waits other user event only)",
       clEnqueueMarkerWithWaitList(Queue, 1, &Other, &Marker));
  clSetUserEventStatus(Other, CL_COMPLETE);
  // The specification lets a marker with a wait list complete with its list; PoCL 3.1 also
  // waits for every earlier command. Only the end state is compared.
  (void)eventFinishes(Marker, 1.0);
  departure("marker with a wait list finishes while an unrelated command is held");
  clSetUserEventStatus(Gate, CL_COMPLETE);
  show("clFinish", clFinish(Queue));
  say("statuses: %s %s", statusName(eventStatus(Held)), statusName(eventStatus(Marker)));
  for (cl_event E : {Gate, Other, Held, Marker})
    clReleaseEvent(E);
  clReleaseKernel(Iota);
  clReleaseMemObject(A);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_int Error = CL_SUCCESS;
  cl_command_queue Queue =
      clCreateCommandQueue(S.Context, S.Device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &Error);
  show("clCreateCommandQueue(out of order)", Error);
  if (!Queue)
    fatal("no out-of-order queue", Error);
  cl_command_queue_properties Properties = 0;
  clGetCommandQueueInfo(Queue, CL_QUEUE_PROPERTIES, sizeof(Properties), &Properties, nullptr);
  say("queue properties: %llu", static_cast<unsigned long long>(Properties));
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  say("== dependencies through events");
  chain(S, Queue, Program);
  say("== independent commands, markers and barriers");
  independentCommands(S, Queue, Program);
  say("== markers with wait lists");
  withWaitLists(S, Queue, Program);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  tearDown(S);
  say("done");
  return 0;
}
