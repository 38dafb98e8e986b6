// Callbacks: event callbacks (fired only once the command is done, with the right status and
// event, also when registered after completion, also with an error status), the program build
// callback, memory object destructor callbacks (LIFO, held back while a command or a
// sub-buffer still uses the object) and context destructor callbacks.
//
// Callbacks run on the implementation's threads whenever it chooses, so they only record what
// they saw; the main thread waits (bounded) for the records it expects and prints them in an
// order the specification defines, never in arrival order where it does not.
#include "api_test.hpp"

#include <algorithm>
#include <map>

// OpenCL 3.0; the 1.2 headers the programs are written against do not declare it. The loader
// exports it, and the program only calls it on a 3.0 platform.
extern "C" CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context Context, void(CL_CALLBACK *Notify)(cl_context, void *), void *UserData);

using namespace api;

namespace {

constexpr size_t N = 256;
constexpr size_t Bytes = N * sizeof(cl_uint);

// What callbacks saw, in arrival order, keyed by the tag their user data points to.
struct Record {
  std::string Tag;
  cl_int Status;
  bool RightObject;
  cl_int QueriedStatus; // the event's status queried from inside the callback
};

std::mutex LogMutex;
std::vector<Record> Log;

void record(const Record &R) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  Log.push_back(R);
}

size_t countTagged(const std::string &Prefix) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  return std::count_if(Log.begin(), Log.end(),
                       [&](const Record &R) { return R.Tag.rfind(Prefix, 0) == 0; });
}

// The records whose tag starts with Prefix, in arrival order.
std::vector<Record> tagged(const std::string &Prefix) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  std::vector<Record> Out;
  for (const Record &R : Log)
    if (R.Tag.rfind(Prefix, 0) == 0)
      Out.push_back(R);
  return Out;
}

struct EventTag {
  std::string Tag;
  cl_event Expected;
};

void CL_CALLBACK onEvent(cl_event Event, cl_int Status, void *UserData) {
  const auto *T = static_cast<const EventTag *>(UserData);
  cl_int Queried = 1234;
  clGetEventInfo(Event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Queried), &Queried, nullptr);
  record({T->Tag, Status, Event == T->Expected, Queried});
}

// Prints the records of each tag, sorted by tag (several callbacks of one event run in an
// unspecified order).
void showEventRecords(const std::string &Prefix) {
  std::vector<Record> Records = tagged(Prefix);
  std::sort(Records.begin(), Records.end(),
            [](const Record &A, const Record &B) { return A.Tag < B.Tag; });
  for (const Record &R : Records)
    say("callback %s: status %s, its event: %s", R.Tag.c_str(), statusName(R.Status),
        yesNo(R.RightObject));
}

void eventCallbacks(const cl_context Context, cl_command_queue Queue, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(Context, CL_MEM_READ_WRITE, Bytes);
  setArg(AddOne, 0, Buffer);
  cl_event User = createUserEvent(Context);
  cl_event Kernel = nullptr;
  show("kernel (waits user)",
       clEnqueueNDRangeKernel(Queue, AddOne, 1, nullptr, &N, nullptr, 1, &User, &Kernel));
  EventTag Complete{"gated.complete", Kernel}, Running{"gated.running", Kernel},
      Submitted{"gated.submitted", Kernel};
  show("clSetEventCallback(COMPLETE)", clSetEventCallback(Kernel, CL_COMPLETE, onEvent, &Complete));
  show("clSetEventCallback(RUNNING)", clSetEventCallback(Kernel, CL_RUNNING, onEvent, &Running));
  show("clSetEventCallback(SUBMITTED)",
       clSetEventCallback(Kernel, CL_SUBMITTED, onEvent, &Submitted));
  clFlush(Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  say("complete callback before the gate opened: %s", yesNo(countTagged("gated.complete") > 0));
  say("running callback before the gate opened: %s", yesNo(countTagged("gated.running") > 0));
  show("clSetUserEventStatus", clSetUserEventStatus(User, CL_COMPLETE));
  show("clWaitForEvents", clWaitForEvents(1, &Kernel));
  say("all three fired: %s", yesNo(waitFor([] { return countTagged("gated.") == 3; })));
  showEventRecords("gated.");
  for (const Record &R : tagged("gated.complete"))
    say("status queried inside the complete callback: %s", statusName(R.QueriedStatus));

  // Registered after the event completed: fires anyway, with CL_COMPLETE.
  EventTag Late{"late.complete", Kernel};
  show("clSetEventCallback(after completion)",
       clSetEventCallback(Kernel, CL_COMPLETE, onEvent, &Late));
  say("late callback fired: %s", yesNo(waitFor([] { return countTagged("late.") == 1; })));
  showEventRecords("late.");

  // Not compared: the callbacks of a user event set to an error status, and of the commands
  // waiting for it. The specification has them called with the error; PoCL 3.1 never calls
  // them, where libsplit does.

  // A marker's event.
  cl_event Marker = nullptr;
  show("marker", clEnqueueMarkerWithWaitList(Queue, 0, nullptr, &Marker));
  EventTag OnMarker{"marker.complete", Marker};
  clSetEventCallback(Marker, CL_COMPLETE, onEvent, &OnMarker);
  clFinish(Queue);
  say("marker callback fired: %s", yesNo(waitFor([] { return countTagged("marker.") == 1; })));
  showEventRecords("marker.");

  // The app releases the event right after registering: the callback still fires.
  cl_event Gate = createUserEvent(Context);
  cl_event Released = nullptr;
  show("kernel (waits another user event)",
       clEnqueueNDRangeKernel(Queue, AddOne, 1, nullptr, &N, nullptr, 1, &Gate, &Released));
  EventTag OnReleased{"released.complete", Released};
  show("clSetEventCallback", clSetEventCallback(Released, CL_COMPLETE, onEvent, &OnReleased));
  show("clReleaseEvent (before completion)", clReleaseEvent(Released));
  clSetUserEventStatus(Gate, CL_COMPLETE);
  clFinish(Queue);
  say("callback of a released event fired: %s",
      yesNo(waitFor([] { return countTagged("released.") == 1; })));
  for (const Record &R : tagged("released."))
    say("callback %s: status %s", R.Tag.c_str(), statusName(R.Status));
  clReleaseEvent(Gate);

  // Argument checks.
  EventTag Unused{"unused", Kernel};
  show("clSetEventCallback(NULL function)",
       clSetEventCallback(Kernel, CL_COMPLETE, nullptr, &Unused));
  show("clSetEventCallback(CL_QUEUED)", clSetEventCallback(Kernel, CL_QUEUED, onEvent, &Unused));
  show("clSetEventCallback(bad status)", clSetEventCallback(Kernel, 77, onEvent, &Unused));
  show("clSetEventCallback(NULL event)",
       clSetEventCallback(nullptr, CL_COMPLETE, onEvent, &Unused));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  say("rejected callbacks never fired: %s", yesNo(countTagged("unused") == 0));

  for (cl_event E : {User, Kernel, Marker})
    clReleaseEvent(E);
  clReleaseMemObject(Buffer);
}

std::atomic<int> BuildCallbacks{0};
struct BuildTag {
  cl_program Expected;
  cl_device_id Device;
  bool RightProgram = false;
  cl_build_status Status = 99;
};

void CL_CALLBACK onBuild(cl_program Program, void *UserData) {
  auto *T = static_cast<BuildTag *>(UserData);
  T->RightProgram = Program == T->Expected;
  clGetProgramBuildInfo(Program, T->Device, CL_PROGRAM_BUILD_STATUS, sizeof(T->Status), &T->Status,
                        nullptr);
  ++BuildCallbacks;
}

const char *buildStatusName(cl_build_status Status) {
  switch (Status) {
  case CL_BUILD_SUCCESS:
    return "CL_BUILD_SUCCESS";
  case CL_BUILD_NONE:
    return "CL_BUILD_NONE";
  case CL_BUILD_ERROR:
    return "CL_BUILD_ERROR";
  case CL_BUILD_IN_PROGRESS:
    return "CL_BUILD_IN_PROGRESS";
  default:
    return "unknown";
  }
}

void buildCallbacks(cl_context Context, cl_device_id Device) {
  const char *Good = "__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }";
  const char *Bad = "__kernel void k(__global int *a) { a[get_global_id(0)] = ; }";
  cl_int Error = CL_SUCCESS;
  for (const char *Source : {Good, Bad}) {
    cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Error);
    need(Error, "clCreateProgramWithSource");
    BuildTag Tag{Program, Device};
    const int Before = BuildCallbacks.load();
    show(Source == Good ? "clBuildProgram(callback, good source)"
                        : "clBuildProgram(callback, bad source)",
         clBuildProgram(Program, 1, &Device, nullptr, onBuild, &Tag));
    say("build callback fired: %s",
        yesNo(waitFor([&] { return BuildCallbacks.load() == Before + 1; })));
    say("build callback got its program: %s, status seen inside: %s", yesNo(Tag.RightProgram),
        buildStatusName(Tag.Status));
    clReleaseProgram(Program);
  }
  cl_program Program = clCreateProgramWithSource(Context, 1, &Good, nullptr, &Error);
  int UserData = 0;
  show("clBuildProgram(user data without callback)",
       clBuildProgram(Program, 1, &Device, nullptr, nullptr, &UserData));
  clReleaseProgram(Program);
}

struct ObjectTag {
  std::string Tag;
  void *Expected;
};

void CL_CALLBACK onMem(cl_mem Mem, void *UserData) {
  const auto *T = static_cast<const ObjectTag *>(UserData);
  record({T->Tag, 0, Mem == T->Expected, 0});
}

void CL_CALLBACK onContext(cl_context Context, void *UserData) {
  const auto *T = static_cast<const ObjectTag *>(UserData);
  record({T->Tag, 0, Context == T->Expected, 0});
}

void showOrder(const char *What, const std::string &Prefix) {
  std::string Order;
  bool Right = true;
  for (const Record &R : tagged(Prefix)) {
    Order += " " + R.Tag.substr(Prefix.size());
    Right = Right && R.RightObject;
  }
  say("%s:%s (each got its object: %s)", What, Order.c_str(), yesNo(Right));
}

void memCallbacks(cl_context Context, cl_command_queue Queue, cl_kernel AddOne) {
  // Three callbacks on one buffer run in the reverse order of registration.
  cl_mem Buffer = createBuffer(Context, CL_MEM_READ_WRITE, Bytes);
  ObjectTag A{"lifo.a", Buffer}, B{"lifo.b", Buffer}, C{"lifo.c", Buffer};
  show("clSetMemObjectDestructorCallback", clSetMemObjectDestructorCallback(Buffer, onMem, &A));
  show("clSetMemObjectDestructorCallback", clSetMemObjectDestructorCallback(Buffer, onMem, &B));
  show("clSetMemObjectDestructorCallback", clSetMemObjectDestructorCallback(Buffer, onMem, &C));
  say("fired before release: %s", yesNo(countTagged("lifo.") > 0));
  show("clReleaseMemObject", clReleaseMemObject(Buffer));
  say("all fired: %s", yesNo(waitFor([] { return countTagged("lifo.") == 3; })));
  showOrder("destructor order", "lifo.");

  // A buffer released while a pending kernel uses it is destroyed only after the kernel.
  cl_mem Used = createBuffer(Context, CL_MEM_READ_WRITE, Bytes);
  ObjectTag OnUsed{"used.buffer", Used};
  clSetMemObjectDestructorCallback(Used, onMem, &OnUsed);
  cl_event User = createUserEvent(Context);
  setArg(AddOne, 0, Used);
  cl_event Kernel = nullptr;
  show("kernel (waits user)",
       clEnqueueNDRangeKernel(Queue, AddOne, 1, nullptr, &N, nullptr, 1, &User, &Kernel));
  show("clReleaseMemObject(in use)", clReleaseMemObject(Used));
  clFlush(Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  say("destroyed while the kernel is pending: %s", yesNo(countTagged("used.") > 0));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clFinish", clFinish(Queue));
  say("destroyed after the kernel: %s", yesNo(waitFor([] { return countTagged("used.") == 1; })));
  say("kernel status: %s", statusName(eventStatus(Kernel)));
  clReleaseEvent(User);
  clReleaseEvent(Kernel);

  // A parent buffer lives as long as its sub-buffers: the sub-buffer goes first.
  cl_mem Parent = createBuffer(Context, CL_MEM_READ_WRITE, Bytes);
  cl_buffer_region Region{0, Bytes / 2};
  cl_int Error = CL_SUCCESS;
  cl_mem Sub =
      clCreateSubBuffer(Parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
  need(Error, "clCreateSubBuffer");
  ObjectTag OnParent{"family.parent", Parent}, OnSub{"family.sub", Sub};
  clSetMemObjectDestructorCallback(Parent, onMem, &OnParent);
  clSetMemObjectDestructorCallback(Sub, onMem, &OnSub);
  show("clReleaseMemObject(parent)", clReleaseMemObject(Parent));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  say("parent destroyed while its sub-buffer lives: %s", yesNo(countTagged("family.") > 0));
  show("clReleaseMemObject(sub-buffer)", clReleaseMemObject(Sub));
  say("both destroyed: %s", yesNo(waitFor([] { return countTagged("family.") == 2; })));
  showOrder("destruction order", "family.");

  cl_mem Other = createBuffer(Context, CL_MEM_READ_WRITE, Bytes);
  ObjectTag Unused{"unused", Other};
  show("clSetMemObjectDestructorCallback(NULL function)",
       clSetMemObjectDestructorCallback(Other, nullptr, &Unused));
  show("clSetMemObjectDestructorCallback(NULL buffer)",
       clSetMemObjectDestructorCallback(nullptr, onMem, &Unused));
  clReleaseMemObject(Other);
}

void contextCallbacks(cl_device_id Device) {
  cl_int Error = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  cl_mem Buffer = createBuffer(Context, CL_MEM_READ_WRITE, Bytes);
  ObjectTag First{"ctx.first", Context}, Second{"ctx.second", Context},
      OnBuffer{"ctx.buffer", Buffer};
  show("clSetContextDestructorCallback",
       clSetContextDestructorCallback(Context, onContext, &First));
  show("clSetContextDestructorCallback",
       clSetContextDestructorCallback(Context, onContext, &Second));
  clSetMemObjectDestructorCallback(Buffer, onMem, &OnBuffer);
  show("clSetContextDestructorCallback(NULL function)",
       clSetContextDestructorCallback(Context, nullptr, &First));
  show("clSetContextDestructorCallback(NULL context)",
       clSetContextDestructorCallback(nullptr, onContext, &First));
  // The buffer keeps the context alive after the app's last release of the context.
  show("clReleaseContext", clReleaseContext(Context));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  say("context destroyed while its buffer lives: %s", yesNo(countTagged("ctx.") > 0));
  show("clReleaseMemObject", clReleaseMemObject(Buffer));
  say("all fired: %s", yesNo(waitFor([] { return countTagged("ctx.") == 3; })));
  showOrder("destruction order", "ctx.");
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== event callbacks");
  eventCallbacks(S.Context, S.Queue, AddOne);
  say("== build callbacks");
  buildCallbacks(S.Context, S.Device);
  say("== memory object destructor callbacks");
  memCallbacks(S.Context, S.Queue, AddOne);
  say("== context destructor callbacks");
  if (versionOf(platformString(S.Platform, CL_PLATFORM_VERSION)) >= 30)
    contextCallbacks(S.Device);
  else
    say("platform older than OpenCL 3.0: skipped");
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
