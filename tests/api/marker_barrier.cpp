// Markers and barriers on an in-order queue, with and without wait lists, and the OpenCL 1.1
// forms (clEnqueueMarker, clEnqueueBarrier): their events' types and statuses, what they wait
// for, and their argument checks. clEnqueueWaitForEvents is not called: PoCL 3.1 does not
// implement it and ends the process.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 4096;

void describe(const char *Name, cl_event E) {
  cl_command_type Type = 0;
  clGetEventInfo(E, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
  say("%s: %s, %s", Name, commandTypeName(Type), statusName(eventStatus(E)));
}

void withAndWithoutWaitLists(const Setup &S, cl_kernel AddOne) {
  std::vector<cl_uint> Initial(N, 41);
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               N * sizeof(cl_uint), Initial.data());
  setArg(AddOne, 0, Buffer);
  cl_event User = createUserEvent(S.Context);
  cl_event Held = nullptr;
  show("kernel (waits user event)",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 1, &User, &Held));
  cl_event Marker = nullptr, Barrier = nullptr, MarkerList = nullptr, BarrierList = nullptr;
  show("marker (no wait list)", clEnqueueMarkerWithWaitList(S.Queue, 0, nullptr, &Marker));
  show("barrier (no wait list)", clEnqueueBarrierWithWaitList(S.Queue, 0, nullptr, &Barrier));
  show("marker (waits kernel)", clEnqueueMarkerWithWaitList(S.Queue, 1, &Held, &MarkerList));
  show("barrier (waits user event)", clEnqueueBarrierWithWaitList(S.Queue, 1, &User, &BarrierList));
  clFlush(S.Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  say("all held while the kernel is: %s",
      yesNo(eventStatus(Marker) > CL_COMPLETE && eventStatus(Barrier) > CL_COMPLETE &&
            eventStatus(MarkerList) > CL_COMPLETE && eventStatus(BarrierList) > CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clWaitForEvents(last barrier)", clWaitForEvents(1, &BarrierList));
  describe("marker", Marker);
  describe("barrier", Barrier);
  describe("marker with wait list", MarkerList);
  describe("barrier with wait list", BarrierList);
  describe("kernel", Held);
  for (cl_event E : {User, Held, Marker, Barrier, MarkerList, BarrierList})
    clReleaseEvent(E);

  // Without asking for the event.
  show("marker without event", clEnqueueMarkerWithWaitList(S.Queue, 0, nullptr, nullptr));
  show("barrier without event", clEnqueueBarrierWithWaitList(S.Queue, 0, nullptr, nullptr));
  show("clFinish", clFinish(S.Queue));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Buffer, N);
  say("kernel ran once: checksum %08x", checksum(Out));
  clReleaseMemObject(Buffer);
}

void legacyForms(const Setup &S, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
  setArg(AddOne, 0, Buffer);
  cl_event User = createUserEvent(S.Context);
  cl_event Marker = nullptr;
  show("kernel (waits user event)",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 1, &User, nullptr));
  show("clEnqueueMarker", clEnqueueMarker(S.Queue, &Marker));
  show("clEnqueueBarrier", clEnqueueBarrier(S.Queue));
  clFlush(S.Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  say("marker held by the kernel before it: %s", yesNo(eventStatus(Marker) > CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clWaitForEvents(marker)", clWaitForEvents(1, &Marker));
  describe("clEnqueueMarker event", Marker);
  show("clFinish", clFinish(S.Queue));
  clReleaseEvent(Marker);
  clReleaseEvent(User);
  clReleaseMemObject(Buffer);
}

void argumentChecks(const Setup &S) {
  cl_event Event = nullptr;
  show("clEnqueueMarker(NULL event)", clEnqueueMarker(S.Queue, nullptr));
  show("clEnqueueMarker(NULL queue)", clEnqueueMarker(nullptr, &Event));
  show("clEnqueueBarrier(NULL queue)", clEnqueueBarrier(nullptr));
  cl_event Null = nullptr;
  show("marker(1 event, NULL list)", clEnqueueMarkerWithWaitList(S.Queue, 1, nullptr, &Event));
  show("marker(NULL in list)", clEnqueueMarkerWithWaitList(S.Queue, 1, &Null, &Event));
  show("barrier(1 event, NULL list)", clEnqueueBarrierWithWaitList(S.Queue, 1, nullptr, &Event));
  cl_event Done = nullptr;
  clEnqueueMarkerWithWaitList(S.Queue, 0, nullptr, &Done);
  clWaitForEvents(1, &Done);
  show("barrier(0 events, list)", clEnqueueBarrierWithWaitList(S.Queue, 0, &Done, &Event));
  show("marker(NULL queue)", clEnqueueMarkerWithWaitList(nullptr, 0, nullptr, &Event));
  show("barrier(NULL queue)", clEnqueueBarrierWithWaitList(nullptr, 0, nullptr, &Event));
  cl_int Error = CL_SUCCESS;
  cl_context Other = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  cl_event Foreign = createUserEvent(Other);
  clSetUserEventStatus(Foreign, CL_COMPLETE);
  show("marker(event of another context)",
       clEnqueueMarkerWithWaitList(S.Queue, 1, &Foreign, &Event));
  show("clFinish", clFinish(S.Queue));
  clReleaseEvent(Foreign);
  clReleaseEvent(Done);
  clReleaseContext(Other);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== with and without wait lists");
  withAndWithoutWaitLists(S, AddOne);
  say("== OpenCL 1.1 forms");
  legacyForms(S, AddOne);
  say("== argument checks");
  argumentChecks(S);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
