// An application command queue. Commands run on one executor thread per queue, in the order they
// were enqueued (a valid schedule for in-order and out-of-order queues alike); each waits for
// its wait list, runs, and completes its event. Blocking calls wait for that event.
#pragma once

#include "event.hpp"
#include "handles.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace libsplit {

class Context;
class Device;
struct ExecDevice;

// What a command does once its wait list is complete: CL_SUCCESS or the error that the
// command's event ends with.
using CommandBody = std::function<cl_int(Event &)>;

class Queue : public _cl_command_queue, public RefCounted<Queue> {
public:
  Queue(std::shared_ptr<Context> Owner, Device &AppDevice, ExecDevice &Exec,
        cl_command_queue_properties Properties, std::vector<cl_queue_properties> AppProperties);
  ~Queue();

  Context &context() const { return *Owner; }
  const std::shared_ptr<Context> &contextPtr() const { return Owner; }
  Device &device() const { return AppDevice; }
  ExecDevice &exec() const { return Exec; }
  cl_command_queue_properties properties() const { return Properties; }
  const std::vector<cl_queue_properties> &appProperties() const { return AppProperties; }

  // Enqueues a command; returns its event (never null).
  std::shared_ptr<Event> enqueue(cl_command_type Type, std::vector<std::shared_ptr<Event>> WaitFor,
                                 CommandBody Body);
  // Waits for every command enqueued so far.
  cl_int finish();

private:
  struct Command {
    std::shared_ptr<Event> Done;
    std::vector<std::shared_ptr<Event>> WaitFor;
    CommandBody Body;
  };
  // Shared with the executor thread, which may outlive the Queue object itself: the queue can
  // be destroyed on that very thread when its last command releases it.
  struct Executor {
    std::mutex Mutex;
    std::condition_variable Wake;
    std::deque<Command> Commands;
    bool Stopping = false;
  };
  static void run(std::shared_ptr<Executor> State);

  std::shared_ptr<Context> Owner;
  Device &AppDevice;
  ExecDevice &Exec;
  cl_command_queue_properties Properties;
  std::vector<cl_queue_properties> AppProperties;
  std::shared_ptr<Executor> State;
  std::mutex LastMutex;
  std::shared_ptr<Event> Last;
  std::thread Thread;
};

Queue *asQueue(cl_command_queue Handle);

// Resolves an app's wait list. Returns CL_INVALID_EVENT_WAIT_LIST for a malformed list,
// CL_INVALID_CONTEXT when an event belongs to another context.
cl_int resolveWaitList(cl_uint Count, const cl_event *List, const Context &Expected,
                       std::vector<std::shared_ptr<Event>> &Out);

// Hands the command's event to the app if it asked for one; call exactly once per command.
void returnEvent(const std::shared_ptr<Event> &E, cl_event *Out);

} // namespace libsplit
