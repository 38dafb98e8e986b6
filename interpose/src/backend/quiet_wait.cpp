#include "quiet_wait.hpp"

#include "runtime.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace libsplit {

namespace {

cl_command_queue queueOf(cl_event E) {
  cl_command_queue Queue = nullptr;
  if (runtime().real().clGetEventInfo(E, CL_EVENT_COMMAND_QUEUE, sizeof(Queue), &Queue, nullptr) !=
      CL_SUCCESS)
    return nullptr;
  return Queue;
}

bool onGpu(cl_command_queue Queue) {
  const RealApi &Real = runtime().real();
  cl_device_id Device = nullptr;
  cl_device_type Type = 0;
  return Queue &&
         Real.clGetCommandQueueInfo(Queue, CL_QUEUE_DEVICE, sizeof(Device), &Device, nullptr) ==
             CL_SUCCESS &&
         Real.clGetDeviceInfo(Device, CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr) == CL_SUCCESS &&
         (Type & CL_DEVICE_TYPE_GPU) != 0;
}

// Whether E has ended; an event whose status cannot be read is waited for.
bool ended(cl_event E) {
  const RealApi &Real = runtime().real();
  cl_int Status = CL_COMPLETE;
  if (Real.clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status, nullptr) !=
      CL_SUCCESS) {
    Real.clWaitForEvents(1, &E);
    return true;
  }
  return Status <= CL_COMPLETE;
}

} // namespace

void waitQuietly(const std::vector<cl_event> &Events) {
  const RealApi &Real = runtime().real();
  std::vector<cl_event> Polled;
  std::vector<cl_command_queue> Flushed;
  for (cl_event E : Events) {
    cl_command_queue Queue = queueOf(E);
    // A command not flushed might never start: a wait on it alone could wait for ever.
    if (Queue && std::find(Flushed.begin(), Flushed.end(), Queue) == Flushed.end()) {
      Real.clFlush(Queue);
      Flushed.push_back(Queue);
    }
    if (onGpu(Queue))
      Polled.push_back(E);
    else // one at a time: the events may belong to several platforms (a split launch's)
      Real.clWaitForEvents(1, &E);
  }
  constexpr std::chrono::microseconds FirstPause{25}, LongestPause{200};
  auto Pause = FirstPause;
  for (cl_event E : Polled)
    while (!ended(E)) {
      std::this_thread::sleep_for(Pause);
      Pause = std::min(2 * Pause, LongestPause);
    }
}

} // namespace libsplit
