// A device that fails in the middle of a launch : the app must see the failure as an
// error on that launch's event (the device's own code), commands that wait on it must end with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, and everything else must go on working: later
// independent launches compute what they should, reads, finish and releases return, no hang,
// no crash. Natively no device fails on demand, so this program checks its own expectations
// instead of comparing transcripts: run it natively with no option (nothing fails) and under
// libsplit with LIBSPLIT_FAIL_LAUNCH=2 and --expect-failure (its second launch fails).
//
//   api_device_failure --device P:D [--expect-failure] [--out-of-order]
#include "api_test.hpp"

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void scale(__global uint *data, uint factor) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + 1u;
}
)CLC";

constexpr size_t Count = 64 * 64;
int Failures = 0;

void expect(bool Condition, const char *What) {
  say("%s: %s", What, Condition ? "ok" : "WRONG");
  Failures += !Condition;
}

std::vector<cl_uint> iota() {
  std::vector<cl_uint> Values(Count);
  for (size_t I = 0; I < Count; ++I)
    Values[I] = static_cast<cl_uint>(I);
  return Values;
}

// Enqueues scale(Buffer, Factor) after Wait (if any); returns the call's code, Event set on
// success.
cl_int scale(cl_command_queue Queue, cl_kernel Kernel, cl_mem Buffer, cl_uint Factor, cl_event Wait,
             cl_event &Event) {
  setArg(Kernel, 0, Buffer);
  setArg(Kernel, 1, Factor);
  const size_t Global = Count, Local = 64;
  Event = nullptr;
  return clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &Local, Wait ? 1 : 0,
                                Wait ? &Wait : nullptr, &Event);
}

std::atomic<cl_int> CallbackStatus{1};

void CL_CALLBACK onComplete(cl_event, cl_int Status, void *) { CallbackStatus = Status; }

} // namespace

int main(int Argc, char **Argv) {
  bool ExpectFailure = false, OutOfOrder = false;
  for (int I = 1; I < Argc; ++I) {
    ExpectFailure |= std::strcmp(Argv[I], "--expect-failure") == 0;
    OutOfOrder |= std::strcmp(Argv[I], "--out-of-order") == 0;
  }
  Setup S = setUp(Argc, Argv, OutOfOrder ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  cl_kernel Kernel = createKernel(Program, "scale");
  std::vector<cl_uint> Start = iota();
  cl_mem Chain = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              Count * sizeof(cl_uint), Start.data());
  cl_mem Other = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              Count * sizeof(cl_uint), Start.data());

  // Launch 1 and 2 on Chain (2 waits for 1), 3 on Other (independent), 4 on Chain after 2.
  cl_event First = nullptr, Second = nullptr, Third = nullptr, Fourth = nullptr;
  expect(scale(S.Queue, Kernel, Chain, 2, nullptr, First) == CL_SUCCESS, "launch 1 enqueued");
  expect(scale(S.Queue, Kernel, Chain, 3, First, Second) == CL_SUCCESS, "launch 2 enqueued");
  API_NEED(clSetEventCallback(Second, CL_COMPLETE, onComplete, nullptr));
  expect(scale(S.Queue, Kernel, Other, 5, nullptr, Third) == CL_SUCCESS, "launch 3 enqueued");
  const cl_int FourthCall = scale(S.Queue, Kernel, Chain, 7, Second, Fourth);
  // Either the call sees the failure already or its event ends with it.
  expect(FourthCall == CL_SUCCESS || FourthCall == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
         "launch 4 enqueued or refused for its wait list");
  API_NEED(clFlush(S.Queue));

  expect(clWaitForEvents(1, &First) == CL_SUCCESS, "launch 1 waited");
  const cl_int SecondWait = clWaitForEvents(1, &Second);
  expect(SecondWait == (ExpectFailure ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS),
         "launch 2 waited");
  expect(eventStatus(First) == CL_COMPLETE, "launch 1 complete");
  expect(eventStatus(Second) == (ExpectFailure ? CL_OUT_OF_RESOURCES : CL_COMPLETE),
         "launch 2 status is the device's");
  expect(waitFor([] { return CallbackStatus.load() <= CL_COMPLETE; }), "launch 2 callback called");
  expect(CallbackStatus.load() == eventStatus(Second), "launch 2 callback got its status");
  expect(clWaitForEvents(1, &Third) == CL_SUCCESS && eventStatus(Third) == CL_COMPLETE,
         "launch 3 complete");
  if (Fourth) {
    const cl_int Status = eventFinishes(Fourth) ? eventStatus(Fourth) : CL_QUEUED;
    expect(Status == (ExpectFailure ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE),
           "launch 4 status follows its wait list");
  }
  const cl_int Finished = clFinish(S.Queue);
  expect(Finished == CL_SUCCESS, "clFinish returns");

  // Launch 3's results, and a fifth launch on the same buffer afterwards, are exact.
  std::vector<cl_uint> Got = readAll<cl_uint>(S.Queue, Other, Count);
  bool Exact = true;
  for (size_t I = 0; I < Count; ++I)
    Exact = Exact && Got[I] == Start[I] * 5u + 1u;
  expect(Exact, "launch 3 results");
  cl_event Fifth = nullptr;
  expect(scale(S.Queue, Kernel, Other, 3, nullptr, Fifth) == CL_SUCCESS, "launch 5 enqueued");
  expect(clWaitForEvents(1, &Fifth) == CL_SUCCESS, "launch 5 complete");
  Got = readAll<cl_uint>(S.Queue, Other, Count);
  Exact = true;
  for (size_t I = 0; I < Count; ++I)
    Exact = Exact && Got[I] == (Start[I] * 5u + 1u) * 3u + 1u;
  expect(Exact, "launch 5 results");
  // The failed chain's contents are undefined, but reading them must work; without a failure
  // they are exact.
  std::vector<cl_uint> ChainOut(Count);
  expect(clEnqueueReadBuffer(S.Queue, Chain, CL_TRUE, 0, Count * sizeof(cl_uint), ChainOut.data(),
                             0, nullptr, nullptr) == CL_SUCCESS,
         "failed chain read");
  if (!ExpectFailure) {
    Exact = true;
    for (size_t I = 0; I < Count; ++I)
      Exact = Exact && ChainOut[I] == ((Start[I] * 2u + 1u) * 3u + 1u) * 7u + 1u;
    expect(Exact, "chain results");
  }

  for (cl_event E : {First, Second, Third, Fourth, Fifth})
    if (E)
      API_NEED(clReleaseEvent(E));
  API_NEED(clReleaseMemObject(Chain));
  API_NEED(clReleaseMemObject(Other));
  API_NEED(clReleaseKernel(Kernel));
  API_NEED(clReleaseProgram(Program));
  tearDown(S);
  say("%d wrong", Failures);
  return Failures == 0 ? 0 : 1;
}
