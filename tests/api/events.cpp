// Events: user events gating commands, wait lists across two queues, clWaitForEvents, the status
// every event ends in, event and profiling queries, the propagation of a user event's error to
// the commands that wait for it, and the argument checks of all of these.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 1024;
constexpr size_t Bytes = N * sizeof(cl_uint);

// A command held back by a user event may be queued or submitted, never running or done.
bool gated(cl_event E) {
  const cl_int Status = eventStatus(E);
  return Status == CL_QUEUED || Status == CL_SUBMITTED;
}

void showEventInfo(const char *Name, cl_event E, const Setup &S, cl_command_queue Expected) {
  cl_command_type Type = 0;
  cl_command_queue Queue = nullptr;
  cl_context Context = nullptr;
  show("clGetEventInfo(COMMAND_TYPE)",
       clGetEventInfo(E, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr));
  show("clGetEventInfo(COMMAND_QUEUE)",
       clGetEventInfo(E, CL_EVENT_COMMAND_QUEUE, sizeof(Queue), &Queue, nullptr));
  show("clGetEventInfo(CONTEXT)",
       clGetEventInfo(E, CL_EVENT_CONTEXT, sizeof(Context), &Context, nullptr));
  say("%s: type %s, queue is the expected one: %s, context is the app's: %s", Name,
      commandTypeName(Type), yesNo(Queue == Expected), yesNo(Context == S.Context));
}

void userEventGating(const Setup &S, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Input(N), Output(N, 0xdeadbeef);
  for (size_t I = 0; I < N; ++I)
    Input[I] = static_cast<cl_uint>(I * 7);
  const std::uint32_t Sentinel = checksum(Output);

  cl_event User = createUserEvent(S.Context);
  say("user event status: %s", statusName(eventStatus(User)));
  showEventInfo("user event", User, S, nullptr);

  cl_event Write = nullptr, Kernel = nullptr, Read = nullptr;
  show("clEnqueueWriteBuffer(gated)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Input.data(), 1, &User, &Write));
  setArg(AddOne, 0, Buffer);
  show("clEnqueueNDRangeKernel(after write)",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 1, &Write, &Kernel));
  show("clEnqueueReadBuffer(non-blocking)",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Output.data(), 0, nullptr, &Read));
  show("clFlush", clFlush(S.Queue));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  say("write gated: %s, kernel gated: %s, read gated: %s", yesNo(gated(Write)),
      yesNo(gated(Kernel)), yesNo(gated(Read)));
  say("host memory untouched while gated: %s", yesNo(checksum(Output) == Sentinel));

  show("clSetUserEventStatus(COMPLETE)", clSetUserEventStatus(User, CL_COMPLETE));
  show("clWaitForEvents(read)", clWaitForEvents(1, &Read));
  say("statuses: user %s, write %s, kernel %s, read %s", statusName(eventStatus(User)),
      statusName(eventStatus(Write)), statusName(eventStatus(Kernel)),
      statusName(eventStatus(Read)));
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Output[I] == Input[I] + 1;
  say("read sees write then kernel: %s", yesNo(Correct));

  showEventInfo("write", Write, S, S.Queue);
  showEventInfo("kernel", Kernel, S, S.Queue);
  showEventInfo("read", Read, S, S.Queue);
  size_t Size = 0;
  show("clGetEventInfo(size of status)",
       clGetEventInfo(Kernel, CL_EVENT_COMMAND_EXECUTION_STATUS, 0, nullptr, &Size));
  say("status size: %zu", Size);
  char Small = 0;
  show("clGetEventInfo(value too small)",
       clGetEventInfo(Kernel, CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &Small, nullptr));
  show("clGetEventInfo(bad param)", clGetEventInfo(Kernel, 0x7fff, sizeof(Size), &Size, nullptr));
  show("clGetEventInfo(NULL)",
       clGetEventInfo(nullptr, CL_EVENT_COMMAND_TYPE, sizeof(Size), &Size, nullptr));

  // User-event misuse.
  show("clSetUserEventStatus(again)", clSetUserEventStatus(User, CL_COMPLETE));
  show("clSetUserEventStatus(not a user event)", clSetUserEventStatus(Kernel, CL_COMPLETE));
  show("clSetUserEventStatus(NULL)", clSetUserEventStatus(nullptr, CL_COMPLETE));
  cl_event Fresh = createUserEvent(S.Context);
  show("clSetUserEventStatus(RUNNING)", clSetUserEventStatus(Fresh, CL_RUNNING));
  show("clSetUserEventStatus(SUBMITTED)", clSetUserEventStatus(Fresh, CL_SUBMITTED));
  say("fresh user event still: %s", statusName(eventStatus(Fresh)));
  show("clSetUserEventStatus(COMPLETE)", clSetUserEventStatus(Fresh, CL_COMPLETE));
  cl_int Error = CL_SUCCESS;
  clCreateUserEvent(nullptr, &Error);
  show("clCreateUserEvent(NULL context)", Error);

  for (cl_event E : {User, Write, Kernel, Read, Fresh})
    clReleaseEvent(E);
  clReleaseMemObject(Buffer);
}

void acrossQueues(const Setup &S, cl_kernel Iota, cl_kernel AddOne) {
  cl_int Error = CL_SUCCESS;
  cl_command_queue Second = clCreateCommandQueue(S.Context, S.Device, 0, &Error);
  need(Error, "clCreateCommandQueue");
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Output(N, 0);
  cl_event User = createUserEvent(S.Context);
  cl_event Fill = nullptr, Add = nullptr, Read = nullptr;
  setArg(Iota, 0, Buffer);
  setArg(Iota, 1, cl_uint{100});
  show("q1 iota (waits user)",
       clEnqueueNDRangeKernel(S.Queue, Iota, 1, nullptr, &N, nullptr, 1, &User, &Fill));
  setArg(AddOne, 0, Buffer);
  show("q2 add_one (waits q1 iota)",
       clEnqueueNDRangeKernel(Second, AddOne, 1, nullptr, &N, nullptr, 1, &Fill, &Add));
  show("q1 read (waits q2 add_one)",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Output.data(), 1, &Add, &Read));
  // No wait list, but queued behind gated commands: a non-blocking write must return at once
  // (LIBSPLIT_UPLOAD=at-write finishes such a write inside the call only on an idle queue).
  cl_mem Spare = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  const std::vector<cl_uint> Ones(N, 1);
  cl_event Behind = nullptr;
  show("q1 write (no wait list, behind gated commands)",
       clEnqueueWriteBuffer(S.Queue, Spare, CL_FALSE, 0, Bytes, Ones.data(), 0, nullptr, &Behind));
  clFlush(S.Queue);
  clFlush(Second);
  // The second queue has nothing else: finishing it must not wait for the gated command... but
  // its only command waits on the gated one, so look at statuses instead.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  say("q2 command gated through q1: %s", yesNo(gated(Add)));
  say("q1 write behind them gated: %s", yesNo(gated(Behind)));
  show("clSetUserEventStatus", clSetUserEventStatus(User, CL_COMPLETE));
  const cl_event All[] = {Fill, Add, Read};
  show("clWaitForEvents(3 events, 2 queues)", clWaitForEvents(3, All));
  say("statuses: %s %s %s", statusName(eventStatus(Fill)), statusName(eventStatus(Add)),
      statusName(eventStatus(Read)));
  show("clWaitForEvents(write behind)", clWaitForEvents(1, &Behind));
  clReleaseEvent(Behind);
  clReleaseMemObject(Spare);
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Output[I] == 101 + I;
  say("result ordered across queues: %s", yesNo(Correct));
  showEventInfo("q2 kernel", Add, S, Second);

  // clWaitForEvents argument checks (all events complete: nothing can block).
  show("clWaitForEvents(0 events)", clWaitForEvents(0, All));
  show("clWaitForEvents(NULL list)", clWaitForEvents(1, nullptr));
  const cl_event WithNull[] = {Fill, nullptr};
  show("clWaitForEvents(NULL in list)", clWaitForEvents(2, WithNull));
  cl_context Other = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  cl_event Foreign = createUserEvent(Other);
  clSetUserEventStatus(Foreign, CL_COMPLETE);
  const cl_event Mixed[] = {Fill, Foreign};
  show("clWaitForEvents(two contexts)", clWaitForEvents(2, Mixed));

  // Wait-list checks of an enqueue call (each call has exactly one thing wrong).
  cl_uint Word = 0;
  show("write(1 event, NULL list)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, 4, &Word, 1, nullptr, nullptr));
  show("write(0 events, list)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, 4, &Word, 0, All, nullptr));
  show("write(NULL in list)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, 4, &Word, 2, WithNull, nullptr));
  show("write(event of another context)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, 4, &Word, 1, &Foreign, nullptr));
  // PoCL 3.1 accepts these two (and runs the kernel) where the specification has errors.
  departure("kernel(NULL in list)");
  departure("kernel(event of another context)");
  show("marker(1 event, NULL list)", clEnqueueMarkerWithWaitList(S.Queue, 1, nullptr, nullptr));
  show("barrier(event of another context)",
       clEnqueueBarrierWithWaitList(S.Queue, 1, &Foreign, nullptr));
  show("clFinish", clFinish(S.Queue));
  std::vector<cl_uint> After = readAll<cl_uint>(S.Queue, Buffer, N);
  say("buffer after the rejected (or natively accepted) commands: %08x", checksum(After));

  for (cl_event E : {User, Fill, Add, Read, Foreign})
    clReleaseEvent(E);
  clReleaseContext(Other);
  clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Second);
}

void errorPropagation(const Setup &S, cl_kernel AddOne) {
  cl_int Error = CL_SUCCESS;
  cl_command_queue Second = clCreateCommandQueue(S.Context, S.Device, 0, &Error);
  need(Error, "clCreateCommandQueue");
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Input(N, 5);
  cl_event User = createUserEvent(S.Context);
  cl_event Write = nullptr, Kernel = nullptr, Marker = nullptr;
  show("write (waits user)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Input.data(), 1, &User, &Write));
  setArg(AddOne, 0, Buffer);
  show("kernel (waits write)",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 1, &Write, &Kernel));
  show("q2 marker (waits kernel)", clEnqueueMarkerWithWaitList(Second, 1, &Kernel, &Marker));
  clFlush(S.Queue);
  clFlush(Second);
  // An application-defined failure code.
  const cl_int Failure = -9999;
  show("clSetUserEventStatus(negative)", clSetUserEventStatus(User, Failure));
  say("user event status: %s", statusName(eventStatus(User)));
  show("clWaitForEvents(write)", clWaitForEvents(1, &Write));
  say("write finishes: %s", yesNo(eventFinishes(Write)));
  say("kernel finishes: %s", yesNo(eventFinishes(Kernel)));
  say("q2 marker finishes: %s", yesNo(eventFinishes(Marker)));
  say("write status negative: %s", yesNo(eventStatus(Write) < 0));
  say("kernel status negative: %s", yesNo(eventStatus(Kernel) < 0));
  say("q2 marker status negative: %s", yesNo(eventStatus(Marker) < 0));
  const cl_event Both[] = {Write, Kernel};
  show("clWaitForEvents(failed events)", clWaitForEvents(2, Both));
  // No data command waits on the failed ones: PoCL 3.1 leaves a read or write whose wait list
  // failed pending for ever (markers and kernels do end with an error).
  for (cl_event E : {User, Write, Kernel, Marker})
    clReleaseEvent(E);
  clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Second);
}

void profiling(const Setup &S, cl_kernel Iota) {
  cl_int Error = CL_SUCCESS;
  cl_command_queue Profiled =
      clCreateCommandQueue(S.Context, S.Device, CL_QUEUE_PROFILING_ENABLE, &Error);
  need(Error, "clCreateCommandQueue(profiling)");
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  setArg(Iota, 0, Buffer);
  setArg(Iota, 1, cl_uint{0});
  cl_event User = createUserEvent(S.Context);
  cl_event Gated = nullptr, Plain = nullptr;
  show("kernel on profiling queue (waits user)",
       clEnqueueNDRangeKernel(Profiled, Iota, 1, nullptr, &N, nullptr, 1, &User, &Gated));
  cl_ulong Value = 0;
  show("profiling of a pending command",
       clGetEventProfilingInfo(Gated, CL_PROFILING_COMMAND_END, sizeof(Value), &Value, nullptr));
  show("profiling of a user event",
       clGetEventProfilingInfo(User, CL_PROFILING_COMMAND_END, sizeof(Value), &Value, nullptr));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clWaitForEvents", clWaitForEvents(1, &Gated));
  cl_ulong Stamps[4] = {0, 0, 0, 0};
  const cl_profiling_info Which[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int I = 0; I < 4; ++I)
    show("clGetEventProfilingInfo",
         clGetEventProfilingInfo(Gated, Which[I], sizeof(cl_ulong), &Stamps[I], nullptr));
  say("profiling stamps ordered: %s", yesNo(Stamps[0] <= Stamps[1] && Stamps[1] <= Stamps[2] &&
                                            Stamps[2] <= Stamps[3] && Stamps[0] != 0));
  show("profiling bad param",
       clGetEventProfilingInfo(Gated, 0x7fff, sizeof(Value), &Value, nullptr));
  show("profiling value too small",
       clGetEventProfilingInfo(Gated, CL_PROFILING_COMMAND_END, 4, &Value, nullptr));
  show("profiling NULL event",
       clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_END, sizeof(Value), &Value, nullptr));
  show("kernel on plain queue",
       clEnqueueNDRangeKernel(S.Queue, Iota, 1, nullptr, &N, nullptr, 0, nullptr, &Plain));
  clWaitForEvents(1, &Plain);
  show("profiling on a queue without profiling",
       clGetEventProfilingInfo(Plain, CL_PROFILING_COMMAND_END, sizeof(Value), &Value, nullptr));
  show("clRetainEvent(NULL)", clRetainEvent(nullptr));
  show("clReleaseEvent(NULL)", clReleaseEvent(nullptr));
  for (cl_event E : {User, Gated, Plain})
    clReleaseEvent(E);
  clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Profiled);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel Iota = createKernel(Program, "iota");
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== user event gating");
  userEventGating(S, AddOne);
  say("== wait lists across two queues");
  acrossQueues(S, Iota, AddOne);
  say("== error propagation");
  errorPropagation(S, AddOne);
  say("== profiling");
  profiling(S, Iota);
  clReleaseKernel(Iota);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
