// Blocking and non-blocking reads and writes: a blocking call returns only once its data moved
// (also when it waits for a user event another thread sets), a non-blocking one leaves host
// memory alone until its command runs and is complete after clFinish or clWaitForEvents; and the
// argument checks of both calls.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 4096;
constexpr size_t Bytes = N * sizeof(cl_uint);

std::vector<cl_uint> pattern(cl_uint Seed) {
  std::vector<cl_uint> Data(N);
  for (size_t I = 0; I < N; ++I)
    Data[I] = Seed * 2654435761u + static_cast<cl_uint>(I) * 40503u;
  return Data;
}

void blockingAndNot(const Setup &S, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Input = pattern(1), Output(N, 0);
  show("blocking write",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Input.data(), 0, nullptr, nullptr));
  // The host copy may be reused as soon as a blocking write returns.
  std::fill(Input.begin(), Input.end(), 0u);
  show("blocking read",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Output.data(), 0, nullptr, nullptr));
  say("blocking read sees blocking write: %s", yesNo(Output == pattern(1)));

  // Non-blocking write, kernel, non-blocking read, then clFinish.
  Input = pattern(2);
  std::vector<cl_uint> Second(N, 0);
  cl_event Write = nullptr, Read = nullptr;
  show("non-blocking write",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Input.data(), 0, nullptr, &Write));
  setArg(AddOne, 0, Buffer);
  show("kernel",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  show("non-blocking read",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Second.data(), 0, nullptr, &Read));
  show("clFinish", clFinish(S.Queue));
  say("write/read statuses after clFinish: %s %s", statusName(eventStatus(Write)),
      statusName(eventStatus(Read)));
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Second[I] == Input[I] + 1;
  say("non-blocking read after clFinish sees write + kernel: %s", yesNo(Correct));
  clReleaseEvent(Write);
  clReleaseEvent(Read);

  // Partial non-blocking reads at offsets, completed by clWaitForEvents.
  std::vector<cl_uint> Head(16, 0), Tail(16, 0);
  cl_event Reads[2] = {nullptr, nullptr};
  show("read head",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, 64, Head.data(), 0, nullptr, &Reads[0]));
  show("read tail", clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, Bytes - 64, 64, Tail.data(), 0,
                                        nullptr, &Reads[1]));
  show("clWaitForEvents", clWaitForEvents(2, Reads));
  say("partial reads: %s %s", yesNo(Head[0] == Input[0] + 1 && Head[15] == Input[15] + 1),
      yesNo(Tail[0] == Input[N - 16] + 1 && Tail[15] == Input[N - 1] + 1));
  clReleaseEvent(Reads[0]);
  clReleaseEvent(Reads[1]);
  clReleaseMemObject(Buffer);
}

// Non-blocking reads that ask no event (left running on the device's queue under libsplit):
// each sees the buffer as of its place in the queue, not the write and kernel queued after it,
// even where the app releases the buffer before they ran.
void readsWithoutEvents(const Setup &S, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Input = pattern(5), Next = pattern(6);
  std::vector<cl_uint> First(N, 0), Second(N, 0), Head(16, 0);
  show("blocking write",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Input.data(), 0, nullptr, nullptr));
  setArg(AddOne, 0, Buffer);
  show("kernel",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  show("non-blocking read, no event",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, First.data(), 0, nullptr, nullptr));
  show("non-blocking write, no event",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Next.data(), 0, nullptr, nullptr));
  show("kernel",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  show("non-blocking read, no event", clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes,
                                                          Second.data(), 0, nullptr, nullptr));
  show("non-blocking partial read, no event",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, Bytes - 64, 64, Head.data(), 0, nullptr,
                           nullptr));
  show("release the buffer", clReleaseMemObject(Buffer));
  show("clFinish", clFinish(S.Queue));
  bool FirstRight = true, SecondRight = true;
  for (size_t I = 0; I < N; ++I) {
    FirstRight = FirstRight && First[I] == Input[I] + 1;
    SecondRight = SecondRight && Second[I] == Next[I] + 1;
  }
  say("first read sees the first kernel only: %s", yesNo(FirstRight));
  say("second read sees the write and the second kernel: %s", yesNo(SecondRight));
  say("partial read too: %s", yesNo(Head[0] == Next[N - 16] + 1 && Head[15] == Next[N - 1] + 1));
}

void gatedByAnotherThread(const Setup &S) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Input = pattern(3), Output(N, 7);
  show("blocking write",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Input.data(), 0, nullptr, nullptr));

  // A blocking read that waits for a user event: it must not return before the event is set.
  cl_event User = createUserEvent(S.Context);
  std::atomic<bool> Released{false};
  std::thread Setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    Released = true;
    clSetUserEventStatus(User, CL_COMPLETE);
  });
  show("blocking read (waits user event)",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Output.data(), 1, &User, nullptr));
  say("returned only after the event was set: %s", yesNo(Released.load()));
  say("data present on return: %s", yesNo(Output == Input));
  Setter.join();
  clReleaseEvent(User);

  // A blocking write that waits for a user event: the host data is consumed before it returns.
  User = createUserEvent(S.Context);
  Released = false;
  std::vector<cl_uint> Next = pattern(4);
  std::thread Setter2([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    Released = true;
    clSetUserEventStatus(User, CL_COMPLETE);
  });
  show("blocking write (waits user event)",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Next.data(), 1, &User, nullptr));
  say("returned only after the event was set: %s", yesNo(Released.load()));
  std::fill(Next.begin(), Next.end(), 0u);
  Setter2.join();
  Output = readAll<cl_uint>(S.Queue, Buffer, N);
  say("buffer holds the data as of the call: %s", yesNo(Output == pattern(4)));
  clReleaseEvent(User);

  // A non-blocking read held back by a user event leaves host memory alone until it runs.
  User = createUserEvent(S.Context);
  std::vector<cl_uint> Later(N, 9);
  cl_event Read = nullptr;
  show("non-blocking read (waits user event)",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_FALSE, 0, Bytes, Later.data(), 1, &User, &Read));
  clFlush(S.Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  say("host memory untouched while held back: %s", yesNo(Later == std::vector<cl_uint>(N, 9)));
  say("read status while held back is not complete: %s", yesNo(eventStatus(Read) > CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clWaitForEvents", clWaitForEvents(1, &Read));
  say("read done after the event: %s", yesNo(Later == pattern(4)));
  clReleaseEvent(Read);
  clReleaseEvent(User);
  clReleaseMemObject(Buffer);
}

void argumentChecks(const Setup &S) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<cl_uint> Host(N + 16, 0);
  void *P = Host.data();
  show("read: offset+size past the end",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 4, Bytes, P, 0, nullptr, nullptr));
  show("read: offset past the end",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, Bytes, 4, P, 0, nullptr, nullptr));
  show("read: size 0", clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, 0, P, 0, nullptr, nullptr));
  show("read: NULL pointer",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, 4, nullptr, 0, nullptr, nullptr));
  show("read: NULL buffer",
       clEnqueueReadBuffer(S.Queue, nullptr, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("read: NULL queue",
       clEnqueueReadBuffer(nullptr, Buffer, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("write: offset+size past the end",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 8, Bytes, P, 0, nullptr, nullptr));
  show("write: size 0",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, 0, P, 0, nullptr, nullptr));
  show("write: NULL pointer",
       clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, 4, nullptr, 0, nullptr, nullptr));
  show("write: NULL buffer",
       clEnqueueWriteBuffer(S.Queue, nullptr, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("write: NULL queue",
       clEnqueueWriteBuffer(nullptr, Buffer, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));

  // Host access flags.
  cl_mem NoAccess = createBuffer(S.Context, CL_MEM_HOST_NO_ACCESS, Bytes);
  cl_mem ReadOnly = createBuffer(S.Context, CL_MEM_HOST_READ_ONLY, Bytes);
  cl_mem WriteOnly = createBuffer(S.Context, CL_MEM_HOST_WRITE_ONLY, Bytes);
  show("read HOST_NO_ACCESS",
       clEnqueueReadBuffer(S.Queue, NoAccess, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("write HOST_NO_ACCESS",
       clEnqueueWriteBuffer(S.Queue, NoAccess, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("read HOST_READ_ONLY",
       clEnqueueReadBuffer(S.Queue, ReadOnly, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("write HOST_READ_ONLY",
       clEnqueueWriteBuffer(S.Queue, ReadOnly, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("read HOST_WRITE_ONLY",
       clEnqueueReadBuffer(S.Queue, WriteOnly, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("write HOST_WRITE_ONLY",
       clEnqueueWriteBuffer(S.Queue, WriteOnly, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));

  // A buffer of another context.
  cl_int Error = CL_SUCCESS;
  cl_context Other = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  cl_mem Foreign = createBuffer(Other, CL_MEM_READ_WRITE, Bytes);
  show("read: buffer of another context",
       clEnqueueReadBuffer(S.Queue, Foreign, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("write: buffer of another context",
       clEnqueueWriteBuffer(S.Queue, Foreign, CL_TRUE, 0, 4, P, 0, nullptr, nullptr));
  show("clFinish", clFinish(S.Queue));
  for (cl_mem M : {Buffer, NoAccess, ReadOnly, WriteOnly, Foreign})
    clReleaseMemObject(M);
  clReleaseContext(Other);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== blocking and non-blocking");
  blockingAndNot(S, AddOne);
  readsWithoutEvents(S, AddOne);
  say("== gated by another thread");
  gatedByAnotherThread(S);
  say("== argument checks");
  argumentChecks(S);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
