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
#include <optional>
#include <thread>
#include <vector>

namespace libsplit {

class Context;
class Device;
struct ExecDevice;

// What a command does once its wait list is complete: CL_SUCCESS or the error that the
// command's event ends with.
using CommandBody = std::function<cl_int(Event &)>;

// How a command orders itself against the others of an out-of-order queue (in-order queues run
// everything in order anyway): a marker or barrier with no wait list waits for every earlier
// command; a barrier also holds back every later one.
enum class CommandOrder { Free, AfterEarlier, Barrier, BarrierAfterEarlier };

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
                                 CommandBody Body, CommandOrder Order = CommandOrder::Free);
  // Waits for every command enqueued so far.
  cl_int finish();
  // Every command enqueued so far has finished.
  bool idle();

private:
  struct Command {
    std::shared_ptr<Event> Done;
    std::vector<std::shared_ptr<Event>> WaitFor;
    CommandBody Body;
    CommandOrder Order = CommandOrder::Free;
  };
  // Shared with the executor thread, which may outlive the Queue object itself: the queue can
  // be destroyed on that very thread when its last command releases it.
  struct Executor {
    std::mutex Mutex;
    std::condition_variable Wake;
    std::deque<Command> Commands;
    bool Stopping = false;
    bool OutOfOrder = false;
  };
  static void run(std::shared_ptr<Executor> State);
  // Out-of-order queues: the first command that may start now, if any (Mutex held).
  static std::optional<Command> takeReady(Executor &State);
  static cl_int execute(Command &Next);

  std::shared_ptr<Context> Owner;
  Device &AppDevice;
  ExecDevice &Exec;
  cl_command_queue_properties Properties;
  std::vector<cl_queue_properties> AppProperties;
  std::shared_ptr<Executor> State;
  std::mutex PendingMutex;
  // Commands not known to be finished: clFinish waits for all of them (on an out-of-order queue
  // the last one enqueued is not the last one to finish).
  // Weak: an event holds its queue, so a strong reference here would keep the queue alive.
  std::vector<std::weak_ptr<Event>> Pending;
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
