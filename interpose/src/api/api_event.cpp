// Entry points: events, user events, callbacks, profiling.
#include "api_common.hpp"

#include <optional>

using namespace libsplit;

namespace {

// The app asks about E, unfinished: its queue waits for it at once rather than gathering it with
// the launches that follow (Queue::hurry).
void hurryIfUnfinished(Event &E) {
  if (E.status() > CL_COMPLETE && E.queue())
    E.queue()->hurry();
}

} // namespace

LIBSPLIT_API cl_int CL_API_CALL clWaitForEvents(cl_uint Count, const cl_event *List) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clWaitForEvents, Count, List);
  LIBSPLIT_SHOW_CALL("clWaitForEvents");
  LIBSPLIT_CHECK(Count == 0 || !List, CL_INVALID_VALUE);
  std::vector<Event *> Events;
  for (cl_uint I = 0; I < Count; ++I) {
    Event *E = asEvent(List[I]);
    LIBSPLIT_CHECK(!E, CL_INVALID_EVENT);
    LIBSPLIT_CHECK(!Events.empty() && &E->context() != &Events.front()->context(),
                   CL_INVALID_CONTEXT);
    Events.push_back(E);
  }
  cl_int Result = CL_SUCCESS;
  std::optional<AppWait> Waiting;
  if (!Events.empty())
    Waiting.emplace(Events.front()->context());
  for (Event *E : Events) {
    if (E->status() > CL_COMPLETE && E->queue())
      E->queue()->finishHere(E);
    // What finishHere left to the executor (callbacks, a command it runs) comes at once. Only
    // then: woken at every wait, the executor took a core from the app's thread for nothing (a
    // launch with an event waited for at once cost four times its native time on PoCL's pair).
    hurryIfUnfinished(*E);
    if (E->wait() < 0)
      Result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  Waiting.reset();
  if (!Events.empty())
    Events.front()->context().refreshHostMemory();
  return Result;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clWaitForEvents", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetEventInfo(cl_event EventHandle, cl_event_info Param,
                                               size_t ValueSize, void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetEventInfo, EventHandle, Param, ValueSize, Value, SizeRet);
  Event *E = asEvent(EventHandle);
  LIBSPLIT_CHECK(!E, CL_INVALID_EVENT);
  switch (Param) {
  case CL_EVENT_COMMAND_QUEUE:
    return returnValue<cl_command_queue>(E->queue(), ValueSize, Value, SizeRet);
  case CL_EVENT_CONTEXT:
    return returnValue<cl_context>(&E->context(), ValueSize, Value, SizeRet);
  case CL_EVENT_COMMAND_TYPE:
    return returnValue<cl_command_type>(E->type(), ValueSize, Value, SizeRet);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    hurryIfUnfinished(*E);
    return returnValue<cl_int>(E->status(), ValueSize, Value, SizeRet);
  }
  case CL_EVENT_REFERENCE_COUNT:
    return returnValue<cl_uint>(E->appReferences(), ValueSize, Value, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetEventInfo", nullptr);
}

LIBSPLIT_API cl_event CL_API_CALL clCreateUserEvent(cl_context ContextHandle,
                                                    cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateUserEvent, ContextHandle, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  auto E = Event::create(C->shared_from_this(), nullptr, CL_COMMAND_USER, false);
  setError(ErrorRet, CL_SUCCESS);
  return E.get();
} catch (...) {
  return libsplit::escapedFrom<cl_event>("clCreateUserEvent", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clSetUserEventStatus(cl_event EventHandle, cl_int Status) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetUserEventStatus, EventHandle, Status);
  Event *E = asEvent(EventHandle);
  LIBSPLIT_CHECK(!E || E->type() != CL_COMMAND_USER, CL_INVALID_EVENT);
  LIBSPLIT_CHECK(Status > CL_COMPLETE, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(E->status() <= CL_COMPLETE, CL_INVALID_OPERATION);
  E->setStatus(Status);
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetUserEventStatus", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clRetainEvent(cl_event EventHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainEvent, EventHandle);
  return retainObject(asEvent(EventHandle), CL_INVALID_EVENT);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainEvent", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseEvent(cl_event EventHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseEvent, EventHandle);
  return releaseObject(asEvent(EventHandle), CL_INVALID_EVENT);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseEvent", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetEventCallback(cl_event EventHandle, cl_int Trigger,
                                                   void(CL_CALLBACK *Notify)(cl_event, cl_int,
                                                                             void *),
                                                   void *UserData) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetEventCallback, EventHandle, Trigger, Notify, UserData);
  Event *E = asEvent(EventHandle);
  LIBSPLIT_CHECK(!E, CL_INVALID_EVENT);
  LIBSPLIT_CHECK(!Notify ||
                     (Trigger != CL_COMPLETE && Trigger != CL_RUNNING && Trigger != CL_SUBMITTED),
                 CL_INVALID_VALUE);
  E->addCallback(Trigger, Notify, UserData);
  hurryIfUnfinished(*E);
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetEventCallback", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetEventProfilingInfo(cl_event EventHandle,
                                                        cl_profiling_info Param, size_t ValueSize,
                                                        void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetEventProfilingInfo, EventHandle, Param, ValueSize, Value,
                                   SizeRet);
  Event *E = asEvent(EventHandle);
  LIBSPLIT_CHECK(!E, CL_INVALID_EVENT);
  if (E->profiled())
    hurryIfUnfinished(*E); // an app may ask until the times are there
  LIBSPLIT_CHECK(!E->profiled() || E->status() != CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_ulong Nanoseconds = 0;
  LIBSPLIT_CHECK(!E->profilingInfo(Param, Nanoseconds), CL_INVALID_VALUE);
  return returnValue<cl_ulong>(Nanoseconds, ValueSize, Value, SizeRet);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetEventProfilingInfo", nullptr);
}
