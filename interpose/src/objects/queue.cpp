#include "queue.hpp"
#include "thread_name.hpp"

#include "context.hpp"
#include "escaped_error.hpp"
#include "quiet_wait.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iterator>

namespace libsplit {

Queue::Queue(std::shared_ptr<Context> Owner, Device &AppDevice, ExecDevice &Exec,
             cl_command_queue_properties Properties, std::vector<cl_queue_properties> AppProperties)
    : Owner(std::move(Owner)), Serial(this->Owner->contextServices().Queues.next()),
      AppDevice(AppDevice), Exec(Exec), Properties(Properties),
      AppProperties(std::move(AppProperties)), State(std::make_shared<Executor>()) {
  initHandle(*this, HandleMagic::Queue);
  State->Real = &this->Owner->real();
  State->Spans = &this->Owner->launchServices().Spans;
  State->Log = &this->Owner->launchServices().Log;
  State->OutOfOrder = (Properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  Thread = std::thread(run, State);
  this->Owner->queueOpened();
}

Queue::~Queue() {
  Owner->queueClosed();
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
                                      CommandOrder Order, bool RunHere, bool BehindLaunches) {
  auto Done =
      Event::create(Owner, shared_from_this(), Type, (Properties & CL_QUEUE_PROFILING_ENABLE) != 0);
  {
    std::lock_guard<std::mutex> Lock(PendingMutex);
    prunePending();
    Pending.push_back(Done);
  }
  Command Next{Done, std::move(WaitFor), std::move(Body), Order};
  bool Notify = false;
  try {
    std::unique_lock<std::mutex> Lock(State->Mutex);
    // An in-order queue with no command of it starting: a launch expected to leave its kernels
    // running (see FinishesLater) starts on the app's thread, with no thread hand-off between
    // the call and the devices, while the executor completes earlier ones; its completion stays
    // with the executor. Where launches split, only with no launch unfinished: the balancer
    // hears of every earlier one first (executeLaunch), which must neither hold the app up nor
    // run the app's callbacks inside its call, unless the launch will run whole (the planner
    // settled its kernel on one device: BehindLaunches). A blocking read, with nothing
    // unfinished or behind launches that run whole on the queue's device only (its in-order
    // queue runs the read after them: no hand-off to the executor and back); not behind splits,
    // whose data may still move (a build that started reads here behind any unfinished launch
    // was measured slower on conv2d, together with another change).
    const bool Launch = Type == CL_COMMAND_NDRANGE_KERNEL || Type == CL_COMMAND_TASK;
    // A launch that will run whole, arriving while the executor runs commands before it:
    // queued, it would be run by the executor, and so would every launch after it while the
    // app launches faster than the executor runs them (a loop of short kernels, to its end).
    // It waits a little for them to end and starts itself; a longer backlog shrinks by what
    // ran meanwhile.
    if (RunHere && BehindLaunches && !State->OutOfOrder && Next.WaitFor.empty() &&
        (State->Busy || !State->Commands.empty()) && !State->Stopping) {
      State->AppWaitsIdle = true;
      State->Idle.wait_for(Lock, CatchUp, [&] {
        return (!State->Busy && State->Commands.empty()) || State->Stopping;
      });
      State->AppWaitsIdle = false;
    }
    // With as many unfinished as allowed, the launch first waits for the oldest (runCommand)
    // here too, unless completing it would run the app's callbacks inside its call: queued, the
    // launch and every one after it would go through the executor while the app launches faster
    // than the device runs them.
    if (RunHere && !State->OutOfOrder && Next.WaitFor.empty() && !State->Busy && !State->Stopping &&
        State->Commands.empty() &&
        (State->Later.size() + 1 < MaxUnfinished || !hasCallbacks(State->Later.front())) &&
        (State->Later.empty() || (Launch && (BehindLaunches || Owner->splitDevices().size() < 2)) ||
         (!Launch && onlyOn(*State, Exec)))) {
      State->Busy = true;
      Lock.unlock();
      runCommand(*State, Next, true);
      Lock.lock();
      becameIdle(*State);
      Notify = State->Sleeping;
    } else {
      State->Commands.push_back(std::move(Next));
      Notify = State->Sleeping || State->Gathering;
    }
  } catch (...) {
    // Not queued (runCommand itself never throws): the event ends with the error, so that
    // clFinish does not wait for it, and the entry point's handler returns it.
    complete(*Done, escapedError(State->Log, "a command"));
    throw;
  }
  if (Notify)
    State->Wake.notify_one();
  return Done;
}

void Queue::hurry() {
  bool Notify = false;
  {
    std::lock_guard<std::mutex> Lock(State->Mutex);
    if (State->Later.empty() || State->HurriedUpTo >= State->Later.back().Order)
      return;
    State->HurriedUpTo = State->Later.back().Order;
    Notify = State->Gathering;
  }
  if (Notify)
    State->Wake.notify_one();
}

bool Queue::beginDirect() {
  bool Full = false;
  {
    std::unique_lock<std::mutex> Lock(State->Mutex);
    if (State->OutOfOrder)
      return false;
    // Behind commands the executor runs, it waits a little for them, as a launch decided whole
    // does (enqueue): else it and every launch after it would go through the executor.
    if ((State->Busy || !State->Commands.empty()) && !State->Stopping) {
      State->AppWaitsIdle = true;
      State->Idle.wait_for(Lock, CatchUp, [&] {
        return (!State->Busy && State->Commands.empty()) || State->Stopping;
      });
      State->AppWaitsIdle = false;
    }
    if (State->Busy || State->Stopping || !State->Commands.empty() ||
        (State->Later.size() + 1 >= MaxUnfinished && hasCallbacks(State->Later.front())))
      return false;
    State->Busy = true;
    Full = State->Later.size() >= MaxUnfinished;
  }
  if (Full) // else no need to take the lock again to find nothing to do
    finishUntilFewer(*State, MaxUnfinished - 1, RunWait::Drain);
  return true;
}

std::uint64_t Queue::endDirect(bool Enqueued, std::vector<KernelArg> Kept, ExecDevice &InOrder) {
  bool Notify = false;
  std::uint64_t Holder = 0;
  {
    std::lock_guard<std::mutex> Lock(State->Mutex);
    // Given up even where recording the launch fails (its arguments then kept by OpenCL's own
    // references only): else every later command would wait for a queue nobody runs.
    struct GiveUp {
      Executor &State;
      ~GiveUp() { becameIdle(State); }
    } GivenUp{*State};
    if (Enqueued)
      Holder = keepDirect(*State, std::move(Kept), InOrder);
    Notify = State->Sleeping;
  }
  if (Notify)
    State->Wake.notify_one();
  return Holder;
}

void Queue::endedBehind(const ExecDevice &InOrder) {
  std::lock_guard<std::mutex> Lock(State->Mutex);
  for (const Unfinished &U : State->Later) {
    const bool WaitsForNothing = U.Running.empty() && !U.Untracked;
    if (U.InOrder != &InOrder && !WaitsForNothing)
      break;
    State->EndedUpTo = std::max(State->EndedUpTo, U.Order);
  }
}

void Queue::seal(Executor &State, std::uint64_t UpTo) {
  for (Unfinished &U : State.Later) {
    if (U.Order > UpTo)
      break;
    U.Sealed = true;
  }
}

std::uint64_t Queue::keepDirect(Executor &State, std::vector<KernelArg> Kept, ExecDevice &InOrder) {
  if (joinNewest(State, Kept, InOrder))
    ++State.JoinedNewest;
  else
    State.Later.push_back(Unfinished{
        nullptr, nullptr, {}, ++State.Joined, &InOrder, true, true, false, std::move(Kept)});
  return State.Later.back().Order;
}

bool Queue::idleForDirect(const Executor &State) {
  return !State.OutOfOrder && !State.Busy && !State.Stopping && State.Commands.empty() &&
         State.Later.size() + 1 < MaxUnfinished;
}

bool Queue::repeatable(const Executor &State, const RepeatMemo &Repeat, const ExecDevice &InOrder) {
  // The entry that holds the buffers keeps them alive while it is in Later: only then may
  // dataUnchanged look at them.
  return !State.OutOfOrder && !State.Busy && !State.Stopping && State.Commands.empty() &&
         newestJoinable(State, InOrder) && State.Later.back().Order == Repeat.Entry &&
         Repeat.dataUnchanged();
}

bool Queue::newestJoinable(const Executor &State, const ExecDevice &InOrder) {
  if (State.Later.empty())
    return false;
  const Unfinished &Newest = State.Later.back();
  return !Newest.Done && !Newest.Finish && Newest.Untracked && !Newest.Sealed &&
         Newest.InOrder == &InOrder && Newest.Running.empty();
}

bool Queue::joinNewest(Executor &State, std::vector<KernelArg> &Kept, ExecDevice &InOrder) {
  if (!newestJoinable(State, InOrder))
    return false;
  Unfinished &Newest = State.Later.back();
  auto held = [&Newest](const KernelArg &A) {
    return A.What != KernelArg::Kind::Buffer || !A.Mem ||
           std::any_of(Newest.Kept.begin(), Newest.Kept.end(),
                       [&A](const KernelArg &K) { return K.Mem == A.Mem; });
  };
  // All or nothing: the entry that holds a launch's buffers holds all of them (RepeatMemo).
  const auto Missing = static_cast<std::size_t>(
      std::count_if(Kept.begin(), Kept.end(), [&](const KernelArg &A) { return !held(A); }));
  if (Newest.Kept.size() + Missing > MaxJoinedBuffers)
    return false;
  for (KernelArg &A : Kept)
    if (!held(A))
      Newest.Kept.push_back(std::move(A));
  return true;
}

bool Queue::onlyOn(const Executor &State, const ExecDevice &Device) {
  return std::all_of(State.Later.begin(), State.Later.end(),
                     [&Device](const Unfinished &U) { return U.InOrder == &Device; });
}

bool Queue::hasCallbacks(const Unfinished &U) { return U.Done && U.Done->hasCallbacks(); }

void Queue::becameIdle(Executor &State) {
  State.Busy = false;
  if (State.AppWaitsIdle)
    State.Idle.notify_all();
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
  {
    // Launches run directly have no event in Pending.
    std::lock_guard<std::mutex> Lock(State->Mutex);
    if (!State->Later.empty())
      return false;
  }
  std::lock_guard<std::mutex> Lock(PendingMutex);
  // The front is the oldest command not known to be finished: while it runs, the queue is busy.
  prunePending();
  return Pending.empty();
}

bool Queue::unfinishedLeft() {
  std::lock_guard<std::mutex> Lock(State->Mutex);
  return !State->Later.empty();
}

bool Queue::workAheadOfCall() {
  std::lock_guard<std::mutex> Lock(State->Mutex);
  return State->Busy || !State->Commands.empty() || !State->Later.empty();
}

namespace {
// Real events of unfinished commands, held while a thread waits for them: whoever completes
// those commands releases its own references meanwhile.
class HeldEvents {
public:
  HeldEvents(const RealApi &Real, std::vector<cl_event> Held)
      : Real(Real), Events(std::move(Held)) {
    for (cl_event E : Events)
      Real.clRetainEvent(E);
  }
  ~HeldEvents() {
    for (cl_event E : Events)
      Real.clReleaseEvent(E);
  }
  HeldEvents(const HeldEvents &) = delete;
  HeldEvents &operator=(const HeldEvents &) = delete;
  // One at a time: the events of a split launch belong to several platforms, and the ICD
  // loader hands a list to the first event's platform.
  void wait(bool Quietly = false) const {
    if (Quietly) {
      waitQuietly(Events);
      return;
    }
    for (cl_event E : Events)
      Real.clWaitForEvents(1, &E);
  }

private:
  const RealApi &Real;
  std::vector<cl_event> Events;
};
} // namespace

void Queue::finishHere(const Event *Until) {
  std::vector<cl_event> Running;
  std::uint64_t Last = 0; // the last unfinished command to wait for
  std::optional<HeldEvents> Held;
  // Of the commands on one in-order real queue, only the newest one: its events, or, where it
  // has none, the whole device queue's clFinish.
  struct Newest {
    ExecDevice *On;
    const Unfinished *Command;
  };
  std::vector<Newest> NewestOn;
  std::vector<ExecDevice *> WholeQueues;
  {
    std::lock_guard<std::mutex> Lock(State->Mutex);
    for (const Unfinished &U : State->Later) {
      if (U.Order <= State->EndedUpTo) { // known to have ended (endedBehind): nothing to wait for
        Last = U.Order;
        if (U.Done.get() == Until)
          break;
        continue;
      }
      auto Known = std::find_if(NewestOn.begin(), NewestOn.end(),
                                [&](const Newest &Entry) { return Entry.On == U.InOrder; });
      if (!U.InOrder)
        Running.insert(Running.end(), U.Running.begin(), U.Running.end());
      else if (Known == NewestOn.end())
        NewestOn.push_back({U.InOrder, &U});
      else if (!U.Running.empty() || U.Untracked)
        Known->Command = &U;
      Last = U.Order;
      if (U.Done.get() == Until)
        break;
    }
    for (const Newest &Entry : NewestOn)
      if (Entry.Command->Untracked)
        WholeQueues.push_back(Entry.On);
      else
        Running.insert(Running.end(), Entry.Command->Running.begin(), Entry.Command->Running.end());
    if (Last == 0 ||
        (Until && State->Later.back().Order == Last && State->Later.back().Done.get() != Until))
      return; // Until is not one of them
    seal(*State, Last);
    Held.emplace(*State->Real, std::move(Running));
    ++State->AppThreadsWaiting;
  }
  for (ExecDevice *On : WholeQueues)
    awaitRealQueue(*On);
  Held->wait();
  {
    std::unique_lock<std::mutex> Lock(State->Mutex);
    --State->AppThreadsWaiting;
    State->EndedUpTo = std::max(State->EndedUpTo, Last);
    if (!State->Finishing) {
      State->Finishing = true;
      // Those not completed meanwhile; the app's callbacks never run inside its own call.
      while (!State->Later.empty() && State->Later.front().Order <= Last &&
             !hasCallbacks(State->Later.front())) {
        Lock.unlock();
        finishOldest(*State);
        Lock.lock();
      }
      releaseFinishing(*State, Lock);
    } else if (State->Sleeping) {
      // The executor left what ended to this thread.
      Lock.unlock();
      State->Wake.notify_one();
    }
  }
}

bool Queue::finishDirectOnly() {
  ExecDevice *On = nullptr;
  std::uint64_t Last = 0;
  {
    std::lock_guard<std::mutex> Lock(State->Mutex);
    if (State->Later.empty() || State->Busy || !State->Commands.empty())
      return false;
    for (const Unfinished &U : State->Later) {
      if (U.Done || U.Finish || !U.Untracked || !U.Running.empty() || !U.InOrder ||
          (On && U.InOrder != On))
        return false;
      On = U.InOrder;
    }
    Last = State->Later.back().Order;
    seal(*State, Last);
    ++State->AppThreadsWaiting;
  }
  awaitRealQueue(*On);
  // Released after the lock: a buffer whose last reference they hold runs the app's destructor
  // callbacks, which may call into this queue.
  std::vector<KernelArg> Ended;
  {
    std::unique_lock<std::mutex> Lock(State->Mutex);
    --State->AppThreadsWaiting;
    State->EndedUpTo = std::max(State->EndedUpTo, Last);
    if (!State->Finishing) {
      // Nothing to run to complete them (no finish, no event): they go at once, in order.
      while (!State->Later.empty() && State->Later.front().Order <= Last) {
        std::vector<KernelArg> &Kept = State->Later.front().Kept;
        if (Ended.empty())
          Ended.swap(Kept);
        else
          std::move(Kept.begin(), Kept.end(), std::back_inserter(Ended));
        State->Later.pop_front();
      }
    }
    // What is left to the executor (its own finishing) or another thread added meanwhile: the
    // executor, asleep while this thread waited (AppThreadsWaiting), looks at it now.
    if (State->Sleeping && !State->Later.empty()) {
      Lock.unlock();
      State->Wake.notify_one();
    }
  }
  return true;
}

cl_int Queue::finish() {
  if (!finishDirectOnly())
    finishHere(nullptr);
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
  Owner->refreshHostMemory();
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

namespace {
// A command's name on the LIBSPLIT_TIMELINE track of the thread that runs its body.
const char *bodyName(cl_command_type Type) {
  switch (Type) {
  case CL_COMMAND_NDRANGE_KERNEL:
    return "launch";
  case CL_COMMAND_READ_BUFFER:
  case CL_COMMAND_READ_BUFFER_RECT:
    return "read";
  case CL_COMMAND_WRITE_BUFFER:
  case CL_COMMAND_WRITE_BUFFER_RECT:
    return "write";
  case CL_COMMAND_MAP_BUFFER:
    return "map";
  case CL_COMMAND_UNMAP_MEM_OBJECT:
    return "unmap";
  default:
    return "command";
  }
}
} // namespace

cl_int Queue::execute(Executor &State, Command &Next) {
  Event &Done = *Next.Done;
  const ScopedSpan Shown(*State.Spans, bodyName(Done.type()));
  if (Done.profiled())
    Done.stamp(CL_PROFILING_COMMAND_SUBMIT, hostNanoseconds());
  Done.setStatus(CL_SUBMITTED);
  cl_int Result = CL_SUCCESS;
  for (const auto &Dependency : Next.WaitFor) {
    // Another queue's command: completed from here as soon as it ends, as an app thread that
    // waits for it would (not left gathering with the launches that follow it there).
    if (Dependency->status() > CL_COMPLETE && Dependency->queue() &&
        Dependency->queue() != Next.Done->queue()) {
      Dependency->queue()->hurry();
      Dependency->queue()->finishHere(Dependency.get());
    }
    if (Dependency->wait() < 0)
      Result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  if (Result == CL_SUCCESS) {
    if (Done.profiled())
      Done.stamp(CL_PROFILING_COMMAND_START, hostNanoseconds());
    Done.setStatus(CL_RUNNING);
    try {
      Result = Next.Body(Done);
    } catch (...) {
      Result = escapedError(State.Log, bodyName(Done.type()));
    }
    if (Done.profiled() && Result != FinishesLater)
      Done.stampEnd();
  }
  return Result;
}

void Queue::complete(Event &Done, cl_int Result) {
  Done.setStatus(Result == CL_SUCCESS ? CL_COMPLETE : (Result < 0 ? Result : -Result));
}

void Queue::releaseFinishing(Executor &State, std::unique_lock<std::mutex> &Lock) {
  State.Finishing = false;
  const bool WakeExecutor = State.Sleeping;
  Lock.unlock();
  State.FinishingFree.notify_all();
  if (WakeExecutor)
    State.Wake.notify_one();
  Lock.lock();
}

void Queue::finishOldest(Executor &State, RunWait How) {
  Unfinished Oldest;
  {
    std::unique_lock<std::mutex> Lock(State.Mutex);
    // An untracked command's finish waits for nothing itself.
    if (State.Later.front().Untracked && !oldestEnded(State)) {
      try {
        waitForRun(State, Lock, How);
      } catch (...) {
        // What to wait for could not be listed (host memory): the whole device queue instead.
        escapedError(State.Log, "a command's completion");
        if (!Lock.owns_lock())
          Lock.lock();
        ExecDevice &On = *State.Later.front().InOrder;
        Lock.unlock();
        onlyThreadOn(On, [&On] { awaitRealQueue(On); });
        Lock.lock();
      }
    }
    Oldest = std::move(State.Later.front());
    State.Later.pop_front();
  }
  const ScopedSpan Shown(*State.Spans, "complete");
  cl_int Result = CL_SUCCESS;
  try {
    if (Oldest.Finish)
      Result = Oldest.Finish();
  } catch (...) {
    Result = escapedError(State.Log, "a command's completion");
  }
  if (!Oldest.Done)
    return; // run directly: nobody can ask how it ended
  if (Oldest.Done->profiled())
    Oldest.Done->stampEnd();
  complete(*Oldest.Done, Result);
}

void Queue::finishUntilFewer(Executor &State, std::size_t Count, RunWait How) {
  std::unique_lock<std::mutex> Lock(State.Mutex);
  if (State.Later.size() <= Count)
    return;
  State.FinishingFree.wait(Lock, [&] { return !State.Finishing; });
  State.Finishing = true;
  while (State.Later.size() > Count) {
    Lock.unlock();
    finishOldest(State, How);
    Lock.lock();
  }
  releaseFinishing(State, Lock);
}

Queue::Wait Queue::oldestRun(const Executor &State, std::size_t Batch) {
  const Unfinished &First = State.Later.front();
  const Unfinished *Newest = &First;
  if (First.InOrder)
    for (std::size_t I = 1; I < std::min(Batch, State.Later.size()); ++I) {
      const Unfinished &U = State.Later[I];
      if (U.Running.empty() && !U.Untracked)
        continue; // nothing to wait for: it ends with those before it
      if (U.InOrder != First.InOrder)
        break;
      Newest = &U;
    }
  Wait W;
  W.Order = Newest->Order;
  W.Patient = Newest->Patient;
  if (Newest->Untracked)
    W.WholeQueue = Newest->InOrder;
  else
    W.Events = Newest->Running;
  return W;
}

void Queue::waitForRun(Executor &State, std::unique_lock<std::mutex> &Lock, RunWait How) {
  if (State.Later.empty())
    return;
  Wait W = oldestRun(State, MaxRun);
  seal(State, W.Order);
  {
    const HeldEvents Held(*State.Real, std::move(W.Events));
    Lock.unlock();
    Held.wait(How == RunWait::Quiet);
    // A marker enqueued now covers the run: its commands were enqueued before they joined
    // Later. (The device queue's clFinish would also wait for the launches the app enqueues
    // meanwhile: while the app launches faster than the device runs them, until Later is full
    // and the app's launches queue behind this thread.)
    if (W.WholeQueue)
      onlyThreadOn(*W.WholeQueue, [&] {
        if (How == RunWait::Drain)
          awaitRealQueue(*W.WholeQueue);
        else
          awaitRealQueueSoFar(*W.WholeQueue, How == RunWait::Quiet);
      });
  }
  Lock.lock();
  State.EndedUpTo = std::max(State.EndedUpTo, W.Order);
}

std::size_t Queue::gatherLimit(const Executor &State) {
  const bool Measured = std::any_of(State.Later.begin(), State.Later.end(),
                                    [](const Unfinished &U) { return !U.Running.empty(); });
  return Measured ? MaxGathered : MaxUnfinished;
}

bool Queue::oldestEnded(const Executor &State) {
  if (State.Later.empty())
    return false;
  const Unfinished &Oldest = State.Later.front();
  return (Oldest.Running.empty() && !Oldest.Untracked) || Oldest.Order <= State.EndedUpTo;
}

void Queue::runCommand(Executor &State, Command &Next, bool AppThread) {
  // Whether Next's event is completed, or left to an unfinished entry that completes it.
  bool Recorded = false;
  try {
    // A command that waits on events might wait on an unfinished one; too many unfinished ones
    // wait for the oldest.
    finishUntilFewer(State, Next.WaitFor.empty() ? MaxUnfinished - 1 : 0,
                     AppThread ? RunWait::Drain : RunWait::Marker);
    State.Handed = nullptr;
    State.HandedRunning.clear();
    State.HandedQueue = nullptr;
    State.HandedUntracked = false;
    State.HandedPatient = false;
    const cl_int Result = execute(State, Next);
    Next.WaitFor.clear();
    Next.Body = nullptr;
    if (Result == FinishesLater && State.Handed) {
      std::lock_guard<std::mutex> Lock(State.Mutex);
      State.Later.push_back(Unfinished{Next.Done,
                                       std::move(State.Handed),
                                       std::move(State.HandedRunning),
                                       ++State.Joined,
                                       State.HandedQueue,
                                       State.HandedUntracked,
                                       State.HandedPatient,
                                       false,
                                       {}});
    } else {
      const cl_int Final = Result == FinishesLater ? CL_OUT_OF_RESOURCES : Result;
      if (AppThread) {
        std::lock_guard<std::mutex> Lock(State.Mutex);
        State.Later.push_back(Unfinished{Next.Done,
                                         [Final] { return Final; },
                                         {},
                                         ++State.Joined,
                                         nullptr,
                                         false,
                                         false,
                                         false,
                                         {}});
      } else {
        finishAll(State); // the earlier commands complete first
        Recorded = true;
        complete(*Next.Done, Final);
      }
    }
    Recorded = true;
  } catch (...) {
    // Out of what runs a command (its body's own exceptions are its result already): the
    // command ends with the error, ahead of earlier ones still running, rather than never.
    const cl_int Error = escapedError(State.Log, bodyName(Next.Done->type()));
    if (!Recorded)
      complete(*Next.Done, Error);
  }
  State.Handed = nullptr;
  State.HandedRunning.clear();
}

void Queue::run(std::shared_ptr<Executor> State) {
  try {
    nameCallingThreadTrack("queue executor " + std::to_string(::syscall(SYS_gettid)));
  } catch (...) {
    // Host memory exhausted: its timeline track keeps the thread's default name.
  }
  nameThisThread("libsplit-queue");
  std::chrono::microseconds Pause = GatherPause;
  for (;;) {
    Command Next;
    try {
      std::unique_lock<std::mutex> Lock(State->Mutex);
      for (;;) {
        // What ended on the devices completes first, in order, unless an app thread that waits
        // for it completes it itself (one thread hand-off fewer for it).
        if (oldestEnded(*State) && !State->Finishing && State->AppThreadsWaiting == 0) {
          State->Finishing = true;
          Lock.unlock();
          finishOldest(*State);
          Lock.lock();
          releaseFinishing(*State, Lock);
          continue;
        }
        if (State->Stopping && !State->Busy && State->Commands.empty() && State->Later.empty())
          return;
        if (!State->Busy) {
          if (!State->OutOfOrder && !State->Commands.empty()) {
            Next = std::move(State->Commands.front());
            State->Commands.pop_front();
            Pause = GatherPause;
            break;
          }
          if (State->OutOfOrder) {
            if (auto Ready = takeReady(*State)) {
              Next = std::move(*Ready);
              Pause = GatherPause;
              break;
            }
          }
        }
        // Unfinished commands: wait for the oldest one's device commands, holding nothing, so
        // that app threads may start launches meanwhile (a device callback per launch, tried
        // first, made each launch slower with NVIDIA's driver).
        if (!State->Later.empty() && !oldestEnded(*State)) {
          // Patient launches that end the oldest run (without events of their own, or measured
          // for a settled decision only): nobody waits for them (an app thread that does waits
          // itself, finishHere), so while the app keeps launching they gather, and complete
          // together once it pauses or many have gathered: one wait for them all instead of one
          // per launch. (Waiting for each launch measured for a settled guard, one in eight,
          // woke this thread every few launches: on PoCL's pair, whose devices share the app's
          // cores, those hand-offs cost more than the rest of a launch's host time.)
          if (!State->Stopping && State->Commands.empty() &&
              State->Later.front().Order > State->HurriedUpTo &&
              State->Later.size() < gatherLimit(*State) && oldestRun(*State, MaxRun).Patient) {
            const std::uint64_t Arrived = State->Joined + State->JoinedNewest;
            State->Gathering = true;
            State->Wake.wait_for(Lock, Pause);
            State->Gathering = false;
            // Meanwhile launches joined (gather on), or an app thread completed some: look
            // again. While they came at least one a millisecond on average, it looks less often
            // (each look is this thread's wake-up beside the app's launches); else at once every
            // millisecond again, so that a pause in the app's launches still ends the gathering
            // within a few milliseconds.
            const std::uint64_t Joins = State->Joined + State->JoinedNewest - Arrived;
            if (Joins > 0 || State->Later.empty() || oldestEnded(*State)) {
              const bool Dense =
                  Joins >= static_cast<std::uint64_t>(Pause.count() / GatherPause.count());
              Pause = Dense ? std::min(2 * Pause, MaxGatherPause) : GatherPause;
              continue;
            }
          }
          Pause = GatherPause;
          // Asleep: the app's thread launches meanwhile (waitQuietly).
          waitForRun(*State, Lock, RunWait::Quiet);
          continue;
        }
        // Out of order, a held command must not hold back the others: look again when a
        // command arrives or shortly (events of other queues and user events complete without
        // telling this queue).
        State->Sleeping = true;
        if (!State->Busy && State->OutOfOrder && !State->Commands.empty())
          State->Wake.wait_for(Lock, std::chrono::microseconds(500));
        else
          State->Wake.wait(Lock);
        State->Sleeping = false;
      }
      State->Busy = true;
    } catch (...) {
      // Looking for what to do failed (host memory, listing the events to wait for): again a
      // little later, rather than an end of the process.
      escapedError(State->Log, "the queue's executor");
      std::this_thread::sleep_for(GatherPause);
      continue;
    }
    runCommand(*State, Next, false);
    {
      std::lock_guard<std::mutex> Lock(State->Mutex);
      becameIdle(*State);
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
