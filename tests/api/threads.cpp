// A multi-threaded host: four threads, each with its own buffers and kernel objects (kernel
// arguments are per kernel object, so kernels are never shared between threads), launching on
// one shared queue and on queues of their own, creating and releasing objects concurrently,
// waiting on each other's user events. Results are checked per thread and printed after all
// threads joined, in thread order.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr int Threads = 4;
constexpr int Rounds = 6;
constexpr size_t N = 8192;
constexpr size_t Bytes = N * sizeof(cl_uint);

struct Outcome {
  int CorrectRounds = 0;
  cl_int FirstError = CL_SUCCESS;
  bool WaitedCorrectly = false;
  int CreatedAndReleased = 0;
};

void note(Outcome &O, cl_int Error) {
  if (Error != CL_SUCCESS && O.FirstError == CL_SUCCESS)
    O.FirstError = Error;
}

void worker(int Id, const Setup &S, cl_program Program, Outcome &O) {
  cl_int Error = CL_SUCCESS;
  cl_command_queue Own = clCreateCommandQueue(S.Context, S.Device, 0, &Error);
  note(O, Error);
  cl_kernel Scale = clCreateKernel(Program, "scale", &Error);
  note(O, Error);
  cl_kernel AddOne = clCreateKernel(Program, "add_one", &Error);
  note(O, Error);
  cl_mem In = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
  note(O, Error);
  cl_mem Out = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
  note(O, Error);
  if (O.FirstError != CL_SUCCESS)
    return;
  std::vector<cl_uint> Input(N), Output(N);
  for (int Round = 0; Round < Rounds; ++Round) {
    // Even rounds on the shared queue, odd rounds on the thread's own.
    cl_command_queue Q = Round % 2 ? Own : S.Queue;
    const cl_uint Factor = static_cast<cl_uint>(Id + 2);
    for (size_t I = 0; I < N; ++I)
      Input[I] = static_cast<cl_uint>(I + Round * 1000 + Id * 100000);
    std::fill(Output.begin(), Output.end(), 0u);
    cl_event Written = nullptr, Done = nullptr;
    note(O, clEnqueueWriteBuffer(Q, In, CL_FALSE, 0, Bytes, Input.data(), 0, nullptr, &Written));
    note(O, clSetKernelArg(Scale, 0, sizeof(cl_mem), &In));
    note(O, clSetKernelArg(Scale, 1, sizeof(cl_mem), &Out));
    note(O, clSetKernelArg(Scale, 2, sizeof(Factor), &Factor));
    // Explicit wait lists: on the shared queue, other threads' commands come in between.
    cl_event Scaled = nullptr;
    note(O, clEnqueueNDRangeKernel(Q, Scale, 1, nullptr, &N, nullptr, 1, &Written, &Scaled));
    note(O, clSetKernelArg(AddOne, 0, sizeof(cl_mem), &Out));
    note(O, clEnqueueNDRangeKernel(Q, AddOne, 1, nullptr, &N, nullptr, 1, &Scaled, &Done));
    note(O, clEnqueueReadBuffer(Q, Out, Round % 3 == 0 ? CL_TRUE : CL_FALSE, 0, Bytes,
                                Output.data(), 1, &Done, nullptr));
    note(O, clFinish(Q));
    bool Correct = true;
    for (size_t I = 0; I < N; ++I)
      Correct = Correct && Output[I] == Input[I] * Factor + 1;
    O.CorrectRounds += Correct;
    for (cl_event E : {Written, Scaled, Done})
      if (E)
        clReleaseEvent(E);
    // Objects created and released while the other threads work.
    cl_mem Scratch = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, 4096, nullptr, &Error);
    note(O, Error);
    if (Scratch) {
      const cl_uint Pattern = 7;
      note(O, clEnqueueFillBuffer(Own, Scratch, &Pattern, 4, 0, 4096, 0, nullptr, nullptr));
      note(O, clReleaseMemObject(Scratch)); // still in use by the fill: must stay alive
      ++O.CreatedAndReleased;
    }
  }
  note(O, clFinish(Own));
  clReleaseMemObject(In);
  clReleaseMemObject(Out);
  clReleaseKernel(Scale);
  clReleaseKernel(AddOne);
  clReleaseCommandQueue(Own);
}

// Thread I's command waits for a user event that thread I+1 sets.
void userEventRing(const Setup &S, cl_program Program, std::vector<Outcome> &Results) {
  std::vector<cl_event> Gates(Threads);
  for (cl_event &G : Gates)
    G = createUserEvent(S.Context);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      Outcome &O = Results[T];
      cl_int Error = CL_SUCCESS;
      cl_command_queue Q = clCreateCommandQueue(S.Context, S.Device, 0, &Error);
      note(O, Error);
      cl_kernel Iota = clCreateKernel(Program, "iota", &Error);
      note(O, Error);
      cl_mem Buffer = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
      note(O, Error);
      if (!Q || !Iota || !Buffer)
        return;
      const cl_uint Base = static_cast<cl_uint>(T * 10);
      note(O, clSetKernelArg(Iota, 0, sizeof(cl_mem), &Buffer));
      note(O, clSetKernelArg(Iota, 1, sizeof(Base), &Base));
      cl_event Done = nullptr;
      note(O, clEnqueueNDRangeKernel(Q, Iota, 1, nullptr, &N, nullptr, 1, &Gates[T], &Done));
      clFlush(Q);
      // Open the next thread's gate, then wait for our own command.
      note(O, clSetUserEventStatus(Gates[(T + 1) % Threads], CL_COMPLETE));
      note(O, clWaitForEvents(1, &Done));
      std::vector<cl_uint> Out(N);
      note(O, clEnqueueReadBuffer(Q, Buffer, CL_TRUE, 0, Bytes, Out.data(), 0, nullptr, nullptr));
      O.WaitedCorrectly = Out[0] == Base && Out[N - 1] == Base + N - 1;
      clReleaseEvent(Done);
      clReleaseMemObject(Buffer);
      clReleaseKernel(Iota);
      clReleaseCommandQueue(Q);
    });
  for (std::thread &T : Pool)
    T.join();
  for (cl_event G : Gates)
    clReleaseEvent(G);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  say("== four threads, shared and own queues");
  std::vector<Outcome> Results(Threads);
  {
    std::vector<std::thread> Pool;
    for (int T = 0; T < Threads; ++T)
      Pool.emplace_back(worker, T, std::cref(S), Program, std::ref(Results[T]));
    for (std::thread &T : Pool)
      T.join();
  }
  show("clFinish(shared queue)", clFinish(S.Queue));
  for (int T = 0; T < Threads; ++T)
    say("thread %d: %d/%d rounds correct, first error %s, %d scratch buffers", T,
        Results[T].CorrectRounds, Rounds, errorName(Results[T].FirstError),
        Results[T].CreatedAndReleased);
  say("== user events set by other threads");
  std::vector<Outcome> Ring(Threads);
  userEventRing(S, Program, Ring);
  for (int T = 0; T < Threads; ++T)
    say("thread %d: result after the other thread's event %s, first error %s", T,
        yesNo(Ring[T].WaitedCorrectly), errorName(Ring[T].FirstError));
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
