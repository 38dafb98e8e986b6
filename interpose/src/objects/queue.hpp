// An application command queue. Commands run on one executor thread per queue, in the order they
// were enqueued (a valid schedule for in-order and out-of-order queues alike); each waits for
// its wait list, runs, and completes its event. Blocking calls wait for that event.
#pragma once

#include "config/log.hpp"
#include "event.hpp"
#include "handles.hpp"
#include "kernel.hpp"
#include "repeat_memo.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
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
// command's event ends with, or FinishesLater (below).
using CommandBody = std::function<cl_int(Event &)>;

// A body of an in-order queue that has started device work and handed the rest to
// Queue::finishLater returns this: its event completes when that finish has run, after the
// device commands it named ended. Unfinished commands complete in order, before any later
// command completes and before a command that waits on events starts; meanwhile later commands
// start (the device has the next kernel queued when one ends, as natively). With nothing to
// start, the executor waits for the oldest one's device commands without holding the queue,
// so that an app thread may still start a launch itself (Queue::enqueue), and an app thread
// that waits for the queue waits for the devices itself (Queue::finishHere).
inline constexpr cl_int FinishesLater = 1;

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
  // Never another queue's in the process (QueueSerials).
  std::uint64_t serial() const { return Serial; }
  const std::shared_ptr<Context> &contextPtr() const { return Owner; }
  Device &device() const { return AppDevice; }
  ExecDevice &exec() const { return Exec; }
  cl_command_queue_properties properties() const { return Properties; }
  const std::vector<cl_queue_properties> &appProperties() const { return AppProperties; }

  // Enqueues a command; returns its event (never null). RunHere: the body may run on the
  // calling thread when the queue is idle (see enqueue). BehindLaunches: a launch that will run
  // whole on one device, like every launch where nothing splits: it may start there behind
  // unfinished launches too.
  std::shared_ptr<Event> enqueue(cl_command_type Type, std::vector<std::shared_ptr<Event>> WaitFor,
                                 CommandBody Body, CommandOrder Order = CommandOrder::Free,
                                 bool RunHere = false, bool BehindLaunches = false);
  // Waits for every command enqueued so far.
  cl_int finish();
  // Called by an app thread about to wait for Until (every command when null): waits for the
  // device commands of the unfinished commands up to it itself, and completes those it can,
  // instead of waiting for the executor to be woken and to wake it (one thread hand-off fewer
  // per wait). Leaves the rest to the executor: a command whose event has callbacks (they never
  // run inside the app's call), anything while the executor is running a command.
  void finishHere(const Event *Until);
  // finish's own way where the queue holds launches run directly on one device queue and nothing
  // else (a loop that waits after every launch): that queue's clFinish, then their entries go,
  // without listing what to wait for. False, having done nothing, where it holds anything else.
  bool finishDirectOnly();
  // Every command enqueued so far has finished.
  bool idle();
  // Commands enqueued before the calling command body (or before the app's next one) are left
  // unfinished: device work of theirs may still run ahead of what it enqueues.
  bool unfinishedLeft();
  // Asked by an app thread at a call: commands of the queue are ahead of the one it is making
  // (unfinished, queued, or running on the executor).
  bool workAheadOfCall();
  // The app asked for the status of one of its unfinished commands' events, or for a callback on
  // one: the commands enqueued so far complete as soon as they end, without gathering with later
  // launches (an app that polls its kernel's event waited for the gathering to end each time).
  void hurry();
  // Whether a body may return FinishesLater: an in-order queue.
  bool canFinishLater() const { return !State->OutOfOrder; }
  // Whether the caller is this queue's executor (not an app thread running a command itself).
  bool onExecutor() const { return Thread.get_id() == std::this_thread::get_id(); }
  // Called by a body on the executor thread, which then returns FinishesLater: Finish waits for
  // the work it started (the device commands Running, still alive until Finish has run) and
  // returns CL_SUCCESS or the error its event ends with. InOrder, when given: every one of
  // Running was enqueued on that device's real in-order queue, so that it has ended once a later
  // command of that queue has (whoever waits then waits for the newest of a run of such
  // commands only). Untracked (with InOrder): the body enqueued its device commands there
  // without an event (a profiled event costs NVIDIA's driver about a launch's host time), so it
  // ends with a later command of that queue that has one, or with the queue's clFinish when
  // none comes.
  // Patient (with InOrder): nothing waits for its completion soon (no event of the app's, only a
  // measurement of a settled decision), so that it may gather with the launches after it.
  void finishLater(std::function<cl_int()> Finish, std::vector<cl_event> Running,
                   ExecDevice *InOrder = nullptr, bool Untracked = false, bool Patient = false) {
    State->Handed = std::move(Finish);
    State->HandedRunning = std::move(Running);
    State->HandedQueue = InOrder;
    State->HandedUntracked = Untracked && InOrder;
    State->HandedPatient = (Untracked || Patient) && InOrder;
  }
  // A launch that needs nothing of the queue but its order (the app asked no event, gave no wait
  // list): where the queue is in order and nothing of it is starting or queued, Start runs on
  // the calling thread without a command or an event of libsplit's; returning true with Result
  // CL_SUCCESS, it enqueued its device commands on InOrder's real queue without an event, and
  // the Finish it set (which keeps what they use alive) runs once they ended. Returns false,
  // having run nothing, where the launch must be enqueued as a command after all (Start
  // returned false: it declined).
  // Start(Result, Kept) moves what its device commands use into Kept.
  // Entry, when given: the unfinished entry that holds what Start kept, once it enqueued (0 where
  // it did not; Kernel's RepeatMemo::Entry).
  template <typename DirectStart>
  bool runDirect(DirectStart &&Start, ExecDevice &InOrder, cl_int &Result,
                 std::uint64_t *Entry = nullptr) {
    if (!beginDirect())
      return false;
    std::vector<KernelArg> Kept;
    bool Started = false;
    try {
      Started = Start(Result, Kept);
    } catch (...) {
      // The queue is given back before the exception goes on (to the entry point's handler):
      // what Start enqueued keeps its real objects alive by OpenCL's own references.
      endDirect(false, {}, InOrder);
      throw;
    }
    const std::uint64_t Holder =
        endDirect(Started && Result == CL_SUCCESS, std::move(Kept), InOrder);
    if (Entry)
      *Entry = Holder;
    return Started;
  }
  // A launch that repeats the one Repeat describes (launchRepeat): where nothing of the queue is
  // starting or queued, the entry that holds that one's buffers is still the newest and open to
  // it, and their bytes are where that one left them (RepeatMemo::dataUnchanged), Enqueue(Result)
  // runs under the queue's lock, so that the entry and the buffers it holds stay meanwhile, and
  // the launch joins that entry. Where that entry has completed (the app waited for the queue
  // after each launch), Hold(Kept) holds the launch's buffers instead (false: they changed or
  // one was released), and they join the newest entry or a new one. Enqueue returns false,
  // having enqueued nothing, to decline. Returns false where the launch must go the usual way;
  // else Holder is the entry that holds its buffers.
  // (The executor heard of an entry joined when it was added: nothing to wake it for.)
  template <typename RepeatEnqueue, typename BufferHold>
  bool runRepeat(const RepeatMemo &Repeat, ExecDevice &InOrder, RepeatEnqueue &&Enqueue,
                 BufferHold &&Hold, cl_int &Result, std::uint64_t &Holder) {
    // Released after the lock (declared first): a buffer whose last reference it holds runs the
    // app's destructor callbacks, which may call into this queue.
    std::vector<KernelArg> Kept;
    std::unique_lock<std::mutex> Lock(State->Mutex);
    if (repeatable(*State, Repeat, InOrder)) {
      if (!Enqueue(Result))
        return false;
      if (Result == CL_SUCCESS)
        ++State->JoinedNewest;
      Holder = Repeat.Entry;
      return true;
    }
    if (!idleForDirect(*State) || !Hold(Kept) || !Repeat.dataUnchanged() || !Enqueue(Result))
      return false;
    if (Result != CL_SUCCESS)
      return true;
    Holder = keepDirect(*State, std::move(Kept), InOrder);
    const bool Notify = State->Sleeping;
    Lock.unlock();
    if (Notify)
      State->Wake.notify_one();
    return true;
  }
  // Called by a body on the executor thread: the commands left unfinished before it finish now,
  // all but the Keep newest (a launch that must be measured after the earlier ones).
  void finishPending(std::size_t Keep = 0) { finishUntilFewer(*State, Keep); }
  // Called by a body whose blocking device command on InOrder's real queue has ended: the
  // unfinished commands before it that ran on that queue alone have ended too, so that whoever
  // completes them waits for nothing (an app's blocking read after its launches asked the
  // driver again for each launch's end and for the queue's).
  void endedBehind(const ExecDevice &InOrder);

private:
  struct Command {
    std::shared_ptr<Event> Done;
    std::vector<std::shared_ptr<Event>> WaitFor;
    CommandBody Body;
    CommandOrder Order = CommandOrder::Free;
  };
  // A command whose body returned FinishesLater (or whose completion an app thread left to the
  // executor), its finish, and the device commands it waits for.
  struct Unfinished {
    std::shared_ptr<Event> Done; // null for a launch run directly (runDirect)
    std::function<cl_int()> Finish;
    std::vector<cl_event> Running;
    std::uint64_t Order = 0;       // Executor::Joined when it was added
    ExecDevice *InOrder = nullptr; // see finishLater
    bool Untracked = false;        // see finishLater
    bool Patient = false;          // see finishLater
    // A thread waits for its device commands: later launches may not join it (joinNewest).
    bool Sealed = false;
    // What its device commands use (a launch run directly: its arguments), alive until it ended.
    std::vector<KernelArg> Kept;
  };
  // Shared with the executor thread, which may outlive the Queue object itself: the queue can
  // be destroyed on that very thread when its last command releases it.
  struct Executor {
    // The context's real API and timeline (the process's, so they outlive the queue as the
    // executor may).
    const RealApi *Real = nullptr;
    Timeline *Spans = nullptr;
    config::Logger *Log = nullptr; // where an exception out of a command is said
    std::mutex Mutex;
    std::condition_variable Wake;
    std::deque<Command> Commands;
    bool Stopping = false;
    bool OutOfOrder = false;
    // A command body runs, on the executor thread or on an app thread that enqueued into a
    // queue with nothing starting. Handed belongs to whoever set Busy; Later is read and changed
    // with Mutex held.
    bool Busy = false;
    std::function<cl_int()> Handed; // from the body that just ran
    std::vector<cl_event> HandedRunning;
    ExecDevice *HandedQueue = nullptr;
    bool HandedUntracked = false;
    bool HandedPatient = false;
    // The executor thread waits on Wake: whoever gives it something to do wakes it.
    bool Sleeping = false;
    // The executor lets untracked launches gather (see run): only a queued command wakes it.
    bool Gathering = false;
    // The unfinished commands up to this one are waited for at once, not gathered: the app asked
    // how one of them is doing, or for a callback on one (hurry).
    std::uint64_t HurriedUpTo = 0;
    // An app thread waits (Idle) for the command body that runs to end, to start its launch
    // itself rather than queue it behind (see enqueue).
    bool AppWaitsIdle = false;
    std::condition_variable Idle;
    // Someone completes unfinished commands (in order: one at a time); a command body that
    // needs them completed waits on FinishingFree.
    bool Finishing = false;
    std::condition_variable FinishingFree;
    std::uint64_t EndedUpTo = 0; // the unfinished commands up to this one ended on their devices
    std::size_t AppThreadsWaiting = 0; // in finishHere
    // Unfinished commands, oldest first: they complete in this order, each once its device
    // commands ended.
    std::deque<Unfinished> Later;
    std::uint64_t Joined = 0;       // how many entries ever joined Later
    std::uint64_t JoinedNewest = 0; // how many launches joined the newest entry instead
  };
  // A launch run directly behind one that the newest unfinished entry holds, on the same device
  // queue, nothing waited for yet: it joins that entry (its buffers kept alive with the others)
  // instead of adding one. A stream of short launches then costs no entry each, and never fills
  // Later (Mutex held). False where it cannot, having taken nothing: the caller adds an entry.
  static bool joinNewest(Executor &State, std::vector<KernelArg> &Kept, ExecDevice &InOrder);
  // Whether a launch may join the newest unfinished entry (joinNewest), buffers aside.
  static bool newestJoinable(const Executor &State, const ExecDevice &InOrder);
  // What a thread waits for is sealed first: the entries up to Order UpTo (Mutex held).
  static void seal(Executor &State, std::uint64_t UpTo);
  // Distinct buffers one joined entry keeps at most.
  static constexpr std::size_t MaxJoinedBuffers = 64;
  // More unfinished commands than this and the next command waits for the oldest (the devices'
  // own queues are bounded too).
  static constexpr std::size_t MaxUnfinished = 1024;
  static void run(std::shared_ptr<Executor> State);
  // Runs a taken command (Busy held): its body, then its completion, after every earlier
  // command's, or its finish left for later. Completes nothing on an app thread when AppThread:
  // the app's callbacks never run inside its own enqueue call.
  static void runCommand(Executor &State, Command &Next, bool AppThread);
  // Whether the oldest unfinished command may finish without waiting for a device (Mutex held).
  static bool oldestEnded(const Executor &State);
  // What to wait for so that the unfinished commands up to Order have ended, from the oldest
  // on, at most Batch of them: a run of commands on one in-order real queue needs only its
  // newest one's events, or the clFinish of that queue (WholeQueue) where its newest has none;
  // any other command ends the run (Mutex held; Later not empty).
  struct Wait {
    std::vector<cl_event> Events;
    ExecDevice *WholeQueue = nullptr;
    std::uint64_t Order = 0;
    bool Patient = false; // its newest command is patient (see finishLater)
  };
  static Wait oldestRun(const Executor &State, std::size_t Batch);
  // Waits (Mutex released meanwhile) for what oldestRun named, and records that the commands up
  // to its Order ended, How.
  enum class RunWait {
    Marker, // a marker's event (a thread that waits while an app thread may launch)
    Quiet,  // the same, asleep (waitQuietly): the executor, while the app launches
    Drain,  // the device queue's clFinish: an app thread (nothing of its own is enqueued meanwhile;
            // NVIDIA's driver then keeps no event or marker to track)
  };
  static void waitForRun(Executor &State, std::unique_lock<std::mutex> &Lock, RunWait How);
  static constexpr std::size_t MaxRun = MaxUnfinished;
  // Patient launches the executor lets gather while the app keeps launching, and the pause in
  // launches after which it completes them. Launches nothing measures (no event of their own)
  // gather until as many are unfinished as allowed, which the app's thread then completes itself:
  // meanwhile the executor waits for none of them. A run with a measured launch completes after
  // MaxGathered, so that what learns from it (the split guard, the whole placement) hears of it
  // within that many launches.
  static constexpr std::size_t MaxGathered = 256;
  static std::size_t gatherLimit(const Executor &State);
  static constexpr std::chrono::microseconds GatherPause{1000};
  // While launches keep joining at least one a millisecond, the pause doubles up to this: a
  // stream of launches wakes the executor about a hundred times a second, not a thousand (an
  // app thread that waits completes what it waits for itself, and a query or a callback hurries
  // it). Kept short: until the gathering ends the queue is not idle, which decides whether a
  // host write finishes inside its call and how a kernel's first launch runs.
  static constexpr std::chrono::microseconds MaxGatherPause{8000};
  // How long an app thread waits for a running command body before it queues its launch.
  static constexpr std::chrono::microseconds CatchUp{200};
  // Busy given up (Mutex held): an app thread waiting to start its launch is woken.
  static void becameIdle(Executor &State);
  // runDirect's two halves: whether the launch may start here (then Busy is set), and its
  // unfinished entry (where Enqueued) with Busy given up.
  // endDirect returns the Order of the entry that holds Kept (0 where nothing was enqueued).
  bool beginDirect();
  std::uint64_t endDirect(bool Enqueued, std::vector<KernelArg> Kept, ExecDevice &InOrder);
  // runRepeat's conditions (Mutex held).
  static bool repeatable(const Executor &State, const RepeatMemo &Repeat,
                         const ExecDevice &InOrder);
  // Whether a launch may start on the calling thread now, without waiting (Mutex held).
  static bool idleForDirect(const Executor &State);
  // A launch run directly on InOrder: the newest entry keeps what it used, or a new one
  // (joinNewest). Its Order (Mutex held).
  static std::uint64_t keepDirect(Executor &State, std::vector<KernelArg> Kept,
                                  ExecDevice &InOrder);
  // Whether completing U would run the app's callbacks.
  static bool hasCallbacks(const Unfinished &U);
  // Whether every unfinished entry is a launch left running on Device's in-order real queue
  // alone (a launch run whole there, directly or not), nothing else (Mutex held).
  static bool onlyOn(const Executor &State, const ExecDevice &Device);
  // Completes the oldest unfinished command (Finishing held, Mutex not). Never throws: a finish
  // that does completes its command with the error.
  static void finishOldest(Executor &State, RunWait How = RunWait::Marker);
  // Completes the oldest ones until Count are left, waiting for Finishing if need be.
  static void finishUntilFewer(Executor &State, std::size_t Count, RunWait How = RunWait::Marker);
  static void finishAll(Executor &State) { finishUntilFewer(State, 0); }
  // Gives Finishing up (Mutex held by Lock, released meanwhile).
  static void releaseFinishing(Executor &State, std::unique_lock<std::mutex> &Lock);
  // Completes a command's event with its result.
  static void complete(Event &Done, cl_int Result);
  // Out-of-order queues: the first command that may start now, if any (Mutex held).
  static std::optional<Command> takeReady(Executor &State);
  // Runs the command's body after its wait list: its result, or the error of an exception out
  // of it (escapedError).
  static cl_int execute(Executor &State, Command &Next);

  std::shared_ptr<Context> Owner;
  std::uint64_t Serial;
  Device &AppDevice;
  ExecDevice &Exec;
  cl_command_queue_properties Properties;
  std::vector<cl_queue_properties> AppProperties;
  std::shared_ptr<Executor> State;
  std::mutex PendingMutex;
  // Commands not known to be finished: clFinish waits for all of them (on an out-of-order queue
  // the last one enqueued is not the last one to finish).
  // Weak: an event holds its queue, so a strong reference here would keep the queue alive.
  std::deque<std::weak_ptr<Event>> Pending;
  // Pending's size at which the next full pass drops what finished out of order.
  std::size_t FullPruneAt = MinFullPrune;
  static constexpr std::size_t MinFullPrune = 64;
  // Drops finished commands (PendingMutex held): from the front at every call, from the whole
  // list once it has doubled since the last full pass. Scanning it all at each enqueue made an
  // app that queues thousands of launches before clFinish pay for every one still queued.
  void prunePending();
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
