#include "queue.hpp"

#include "context.hpp"

#include <algorithm>
#include <chrono>

namespace libsplit {

Queue::Queue(std::shared_ptr<Context> Owner, Device &AppDevice, ExecDevice &Exec,
             cl_command_queue_properties Properties, std::vector<cl_queue_properties> AppProperties)
    : Owner(std::move(Owner)), AppDevice(AppDevice), Exec(Exec), Properties(Properties),
      AppProperties(std::move(AppProperties)), State(std::make_shared<Executor>()) {
  initHandle(*this, HandleMagic::Queue);
  State->OutOfOrder = (Properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  Thread = std::thread(run, State);
}

Queue::~Queue() {
  {
    std::lock_guard<std::mutex> Lock(State->Mutex);
    State->Stopping = true;
  }
  State->Wake.notify_one();
  // The last reference may be dropped by the executor thread itself (a finished command held
  // it); that thread then ends on its own once it sees Stopping.
  if (Thread.get_id() == std::this_thread::get_id())
    Thread.detach();
  else
    Thread.join();
}

std::shared_ptr<Event> Queue::enqueue(cl_command_type Type,
                                      std::vector<std::shared_ptr<Event>> WaitFor, CommandBody Body,
                                      CommandOrder Order, bool RunHere) {
  auto Done =
      Event::create(Owner, shared_from_this(), Type, (Properties & CL_QUEUE_PROFILING_ENABLE) != 0);
  {
    std::lock_guard<std::mutex> Lock(PendingMutex);
    prunePending();
    Pending.push_back(Done);
  }
  Command Next{Done, std::move(WaitFor), std::move(Body), Order};
  {
    std::unique_lock<std::mutex> Lock(State->Mutex);
    // An idle in-order queue of a context where nothing splits: the launch starts on the app's
    // thread (a kernel left running, see FinishesLater), one thread hand-off fewer between the
    // call and the device; its finish and completion stay with the executor.
    if (RunHere && !State->OutOfOrder && Next.WaitFor.empty() && !State->Busy && !State->Stopping &&
        State->Commands.empty() && !State->Tail && Owner->splitDevices().size() < 2) {
      State->Busy = true;
      Lock.unlock();
      runCommand(*State, Next, true);
      Lock.lock();
      State->Busy = false;
    } else {
      State->Commands.push_back(std::move(Next));
    }
  }
  State->Wake.notify_one();
  return Done;
}

static bool finished(const std::weak_ptr<Event> &Weak) {
  // An event already destroyed belonged to a command that finished.
  auto E = Weak.lock();
  return !E || E->status() <= CL_COMPLETE;
}

void Queue::prunePending() {
  while (!Pending.empty() && finished(Pending.front()))
    Pending.pop_front();
  if (Pending.size() < FullPruneAt)
    return;
  Pending.erase(std::remove_if(Pending.begin(), Pending.end(), finished), Pending.end());
  FullPruneAt = std::max(MinFullPrune, 2 * Pending.size());
}

bool Queue::idle() {
  std::lock_guard<std::mutex> Lock(PendingMutex);
  // The front is the oldest command not known to be finished: while it runs, the queue is busy.
  prunePending();
  return Pending.empty();
}

cl_int Queue::finish() {
  std::vector<std::weak_ptr<Event>> Waiting;
  {
    std::lock_guard<std::mutex> Lock(PendingMutex);
    Waiting.assign(Pending.begin(), Pending.end());
  }
  // Newest first: on an in-order queue the others have finished by then, so the caller sleeps
  // once instead of waking at every command's end. An event already destroyed belonged to a
  // command that finished.
  for (auto It = Waiting.rbegin(); It != Waiting.rend(); ++It)
    if (auto E = It->lock())
      E->wait();
  return CL_SUCCESS;
}

std::optional<Queue::Command> Queue::takeReady(Executor &State) {
  for (auto It = State.Commands.begin(); It != State.Commands.end(); ++It) {
    const bool First = It == State.Commands.begin();
    const bool AfterEarlier =
        It->Order == CommandOrder::AfterEarlier || It->Order == CommandOrder::BarrierAfterEarlier;
    const bool Barrier =
        It->Order == CommandOrder::Barrier || It->Order == CommandOrder::BarrierAfterEarlier;
    bool Ready = !AfterEarlier || First;
    for (const auto &Dependency : It->WaitFor)
      Ready = Ready && Dependency->status() <= CL_COMPLETE;
    if (Ready) {
      Command Taken = std::move(*It);
      State.Commands.erase(It);
      return Taken;
    }
    if (Barrier)
      break; // nothing after a pending barrier may start
  }
  return std::nullopt;
}

cl_int Queue::execute(Command &Next) {
  Event &Done = *Next.Done;
  if (Done.profiled())
    Done.stamp(CL_PROFILING_COMMAND_SUBMIT, hostNanoseconds());
  Done.setStatus(CL_SUBMITTED);
  cl_int Result = CL_SUCCESS;
  for (const auto &Dependency : Next.WaitFor)
    if (Dependency->wait() < 0)
      Result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (Result == CL_SUCCESS) {
    if (Done.profiled())
      Done.stamp(CL_PROFILING_COMMAND_START, hostNanoseconds());
    Done.setStatus(CL_RUNNING);
    Result = Next.Body(Done);
    if (Done.profiled() && Result != FinishesLater)
      Done.stamp(CL_PROFILING_COMMAND_END, hostNanoseconds());
  }
  return Result;
}

void Queue::complete(Event &Done, cl_int Result) {
  Done.setStatus(Result == CL_SUCCESS ? CL_COMPLETE : (Result < 0 ? Result : -Result));
}

void Queue::finishTail(Executor &State) {
  if (!State.Tail)
    return;
  Unfinished Tail = std::move(*State.Tail);
  State.Tail.reset();
  const cl_int Result = Tail.Finish();
  if (Tail.Done->profiled())
    Tail.Done->stamp(CL_PROFILING_COMMAND_END, hostNanoseconds());
  complete(*Tail.Done, Result);
}

void Queue::runCommand(Executor &State, Command &Next, bool AppThread) {
  // A command that waits on events might wait on the unfinished one.
  if (!Next.WaitFor.empty())
    finishTail(State);
  State.Handed = nullptr;
  const cl_int Result = execute(Next);
  Next.WaitFor.clear();
  Next.Body = nullptr;
  finishTail(State); // the earlier command completes first
  if (Result == FinishesLater && State.Handed)
    State.Tail = Unfinished{Next.Done, std::move(State.Handed)};
  else if (AppThread)
    State.Tail = Unfinished{
        Next.Done, [Result] { return Result == FinishesLater ? CL_OUT_OF_RESOURCES : Result; }};
  else
    complete(*Next.Done, Result == FinishesLater ? CL_OUT_OF_RESOURCES : Result);
  State.Handed = nullptr;
}

void Queue::run(std::shared_ptr<Executor> State) {
  for (;;) {
    Command Next;
    {
      std::unique_lock<std::mutex> Lock(State->Mutex);
      for (;;) {
        if (State->Busy) { // an app thread runs a command it enqueued
          State->Wake.wait(Lock);
          continue;
        }
        if (State->Stopping && State->Commands.empty() && !State->Tail)
          return;
        if (!State->OutOfOrder && !State->Commands.empty()) {
          Next = std::move(State->Commands.front());
          State->Commands.pop_front();
          break;
        }
        if (State->OutOfOrder) {
          if (auto Ready = takeReady(*State)) {
            Next = std::move(*Ready);
            break;
          }
        }
        // Nothing to start: what was left unfinished is finished before waiting.
        if (State->Tail) {
          State->Busy = true;
          Lock.unlock();
          finishTail(*State);
          Lock.lock();
          State->Busy = false;
          continue;
        }
        // Out of order, a held command must not hold back the others: look again when a
        // command arrives or shortly (events of other queues and user events complete
        // without telling this queue).
        if (State->Commands.empty())
          State->Wake.wait(Lock);
        else
          State->Wake.wait_for(Lock, std::chrono::microseconds(500));
      }
      State->Busy = true;
    }
    runCommand(*State, Next, false);
    {
      std::lock_guard<std::mutex> Lock(State->Mutex);
      State->Busy = false;
    }
    // Next goes out of scope here: it may hold the last reference to the Queue.
  }
}

Queue *asQueue(cl_command_queue Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Queue))
    return nullptr;
  return static_cast<Queue *>(Handle);
}

cl_int resolveWaitList(cl_uint Count, const cl_event *List, const Context &Expected,
                       std::vector<std::shared_ptr<Event>> &Out) {
  if ((Count == 0) != (List == nullptr))
    return CL_INVALID_EVENT_WAIT_LIST;
  Out.reserve(Count);
  for (cl_uint I = 0; I < Count; ++I) {
    Event *E = asEvent(List[I]);
    if (!E)
      return CL_INVALID_EVENT_WAIT_LIST;
    if (&E->context() != &Expected)
      return CL_INVALID_CONTEXT;
    Out.push_back(E->shared_from_this());
  }
  return CL_SUCCESS;
}

void returnEvent(const std::shared_ptr<Event> &E, cl_event *Out) {
  // create() gave the event one application reference: it is the app's if it asked for the
  // event, else it is dropped at once (libsplit's own shared_ptrs keep the event meanwhile).
  if (Out)
    *Out = E.get();
  else
    E->release();
}

} // namespace libsplit
