#include "launch.hpp"

#include "launch_parts.hpp"
#include "launch_plan.hpp"
#include "opening_chunks.hpp"
#include "whole_launch.hpp"

#include <mutex>
#include <string>
#include <tuple>

namespace libsplit {

bool runsWholeOnAppDevice(Queue &Q, Kernel &K, const LaunchRequest &R) {
  return Q.context().splitDevices().size() < 2 &&
         !(chunksWhileOpening(Q, R) && chunksByItsKernel(Q, K, R));
}

namespace {

// What would make runWhole keep a record, a real event or a log line for the launch. (The
// summary alone counts a launch run here, untimed: countedUntimed.)
bool recordsLaunch(const LaunchServices &S, const LaunchRequest &R) {
  return R.EventWanted || S.Settings.FailLaunch != 0 || S.Recorder.tracing() || S.Spans.enabled() ||
         S.Log.enabled(config::LogLevel::Info);
}

// What the summary says of a launch run here, as natively: counted, not timed (a record of its
// own, timed, would take it the executor's way, several times slower for a short kernel).
// Unsplittable: why its kernel cannot split, where that kept it home (placedAtHome).
void countedUntimed(const Queue &Q, const Kernel &K, const ExecDevice &Device, bool Settled,
                    const LaunchRequest &R, const std::string &Unsplittable) {
  const Context &C = Q.context();
  RunRecorder &Recorder = C.launchServices().Recorder;
  if (!Recorder.summarizing())
    return;
  if (!Unsplittable.empty())
    Recorder.countUntimed(K.name(), Device.Name, Unsplittable);
  else if (Settled)
    Recorder.countUntimed(K.name(), Device.Name,
                          R.Decided ? guardedWholeReason(*R.Decided) : GuardedWholeReason);
  else if (C.plannedSplitDevices().size() >= 2 && !C.splitDevicesOpen())
    Recorder.countUntimedNotOpen(K.name(), Device.Name, C.openAfterSeconds(), C.waitedSeconds(),
                                 C.queuedSeconds());
  else
    Recorder.countUntimed(K.name(), Device.Name, FewerThanTwoReason);
}

// Whole on the app's device as the split guard settled it, a launch it does not measure.
bool settledWhole(const LaunchRequest &R) {
  return R.Decided && R.Decided->Launch.Run == planner::Mode::Whole && R.Decided->Settled &&
         !R.Decided->Launch.Measured;
}

// A kernel that cannot split (no partition-ready facts, Why says why) whose whole placement
// settled on the app's device at this NDRange: it runs there as natively, on the app's thread,
// like a kernel the guard settled whole (through the queue's executor, a PoCL CPU device ran
// its launches on two threads by turns, each fetching the data into its own core's cache).
bool placedAtHome(Queue &Q, Kernel &K, const LaunchRequest &R, std::string &Why) {
  return !K.splitFacts(Why) && K.wholePlacement()->settled(placementKey(R)) == Q.exec().Index;
}

// Measured long enough to run in chunks while the split devices open: not a direct launch.
bool chunksNow(Queue &Q, Kernel &K, const LaunchRequest &R) {
  const double PerItem = K.chunkedSecondsPerItem();
  return PerItem > 0.0 && PerItem * workItems(R) >= Q.context().openAfterSeconds();
}

} // namespace

bool launchRepeat(Queue &Q, Kernel &K, LaunchRequest &R, const RepeatMemo &Memo,
                  bool ScalarsChanged, bool SetBack, cl_int &Result) {
  ExecDevice &Device = Q.exec();
  const LaunchServices &S = Q.context().launchServices();
  // While no split device is open, or where the guard settled on running the kernel whole and
  // does not measure this launch (R.Decided). A launch that may run in chunks while they open goes
  // the usual way, as launchDirect would send it: its kernel's first of a size that may (a
  // smaller one repeated before), or one measured long.
  // Whether the split devices were open when it was decided (what the summary says of it: they
  // may open meanwhile).
  const bool Settled = Q.context().splitDevices().size() >= 2;
  std::string Unsplittable;
  if (Memo.Device != Device.Index || recordsLaunch(S, R) ||
      (Settled && !settledWhole(R) && !placedAtHome(Q, K, R, Unsplittable)) ||
      (chunksWhileOpening(Q, R) &&
       ((K.chunkedSecondsPerItem() == 0.0 && !K.firstLaunchClaimed()) || chunksNow(Q, K, R))))
    return false;
  auto Enqueue = [&](cl_int &Error) {
    // Never waits for the worker here (under the queue's lock): a job of its runs, the launch
    // goes the usual way.
    if (!Device.Worker->tryHold())
      return false;
    // The real kernel still has that launch's arguments, unless a launch through another queue
    // of the device set others since: its scalars as the kernel has them now where any may differ.
    const auto [NonScalarSets, Sets] = K.realArgSets(Device);
    cl_kernel Real = nullptr;
    std::pair<std::uint64_t, std::uint64_t> Seen{0, 0};
    if (SetBack)
      Real = K.realWithMemoArgs(Device, Memo, Error, Seen);
    else if (NonScalarSets == Memo.NonScalarSets)
      Real = !ScalarsChanged && Sets == Memo.Sets
                 ? K.realFor(Device, false, Error)
                 : K.realWithCurrentScalars(Device, Memo.BufferArgs, Error);
    if (!Real && Error == CL_SUCCESS) {
      Device.Worker->release();
      return false;
    }
    if (Real)
      Error = enqueueRealKernel(Device, Real, R.WorkDim, R.Offset.data(), R.Global.data(),
                                R.LocalGiven ? R.Local.data() : nullptr, nullptr);
    // While the worker is held: the real kernel's argument counts the memo takes are this
    // launch's, not those of another queue's job on the device that starts once it is released.
    if (Error == CL_SUCCESS && SetBack)
      K.repeatedSetBack(Device, Memo, Seen);
    Device.Worker->release();
    if (Error == CL_SUCCESS)
      K.noteLaunchLeftRunning(true);
    return true;
  };
  // Where the app waited for the queue since (clFinish after each launch), the launch holds its
  // buffers itself: the kernel's buffer arguments, where no buffer argument was set since the
  // memo was taken, so that held they are the very objects it names. (A memo set back names
  // buffers by address only: one released since may have left its address to another.)
  auto Hold = [&](std::vector<KernelArg> &Kept) {
    return !SetBack && K.holdBufferArgs(Memo.BufferArgs, Kept);
  };
  std::uint64_t Holder = 0;
  if (!Q.runRepeat(Memo, Device, Enqueue, Hold, Result, Holder))
    return false;
  if (Result != CL_SUCCESS)
    return true;
  if (Holder != Memo.Entry)
    K.repeatHeldBy(Memo, Holder);
  countedUntimed(Q, K, Device, Settled, R, Unsplittable);
  return true;
}

bool launchDirect(Queue &Q, Kernel &K, LaunchRequest &R, cl_int &Result) {
  Context &C = Q.context();
  const LaunchServices &S = C.launchServices();
  const bool OneDevice = C.splitDevices().size() < 2;
  const bool SettledWhole = settledWhole(R);
  std::string Unsplittable;
  if (recordsLaunch(S, R) || !(OneDevice || SettledWhole || placedAtHome(Q, K, R, Unsplittable)))
    return false;
  // A kernel's first launch, and one measured long enough, may run in chunks while the split
  // devices open (chunkWhileOpening): not here. A launch behind its kernel's first, still running
  // on the queue's executor, waits a little for it (beginDirect) rather than joining the queue:
  // queued, it and every launch after it would go through the executor while the app launches
  // faster than the executor runs them (a loop of short kernels, to its end). It is decided
  // again once the first one has been measured. A first launch behind work queued before it
  // would run whole, unmeasured, in any case (chunkWhileOpening): it runs here, as natively, on
  // the app's thread (NVIDIA's driver holds a kernel's first launch there while it uploads the
  // data its buffers were created with; on the executor, the app's next launches would each wait
  // a little for it, then queue).
  const bool MayChunk = chunksWhileOpening(Q, R);
  if (MayChunk && ((K.chunkedSecondsPerItem() == 0.0 && K.claimFirstLaunch() &&
                    firstChunkWaitsLittle(Q, R, true)) ||
                   chunksNow(Q, K, R)))
    return false;
  ExecDevice &Device = Q.exec();
  // What the next launch may repeat (launchRepeat).
  RepeatMemo Memo;
  bool Repeatable = true;
  auto Start = [&](cl_int &Error, std::vector<KernelArg> &Kept) {
    if (MayChunk && chunksNow(Q, K, R))
      return false;
    std::lock_guard<std::mutex> DataLock(C.dataLock());
    // Every byte already on the device (or never written): nothing moves.
    bool Unwritten = false; // a buffer never written, not valid there yet
    for (const KernelArg &A : R.Args) {
      if (A.What != KernelArg::Kind::Buffer)
        continue;
      A.Mem->usedOn(Device);
      if (!A.Mem->wholeValidOn(Device.Index)) {
        if (!A.Mem->neverWritten())
          return false;
        Unwritten = true;
      }
    }
    if (Unwritten)
      for (const KernelArg &A : R.Args)
        if (A.What == KernelArg::Kind::Buffer && !A.Mem->wholeValidOn(Device.Index))
          A.Mem->markValidOn(Device.Index, wholeOf(*A.Mem));
    auto Job = [&] {
      cl_kernel Real = K.realWithArgs(Device, false, R.Args, Error);
      if (Real)
        Error = enqueueRealKernel(Device, Real, R.WorkDim, R.Offset.data(), R.Global.data(),
                                  R.LocalGiven ? R.Local.data() : nullptr, nullptr);
      std::tie(Memo.NonScalarSets, Memo.Sets) = K.realArgSets(Device);
      if (Real && Error == CL_SUCCESS)
        K.describeRepeat(Device, Memo);
    };
    Device.Worker->runHere(std::ref(Job));
    if (Error != CL_SUCCESS)
      return true; // the device's own answer, as natively at the call
    markWrittenWhole(K, R, Device);
    K.noteLaunchLeftRunning(true);
    for (const KernelArg &A : R.Args)
      if (A.What == KernelArg::Kind::Buffer && Repeatable) {
        Repeatable = Memo.Buffers < RepeatMemo::MaxBuffers;
        if (Repeatable)
          Memo.Validity[Memo.Buffers++] = {&A.Mem->root(), A.Mem->validityGeneration()};
      }
    // The arguments stay alive until the kernel ran, whatever the app releases meanwhile.
    Kept = std::move(R.Args);
    return true;
  };
  const bool Ran = Q.runDirect(Start, Device, Result, &Memo.Entry);
  if (Ran && Result == CL_SUCCESS)
    countedUntimed(Q, K, Device, SettledWhole, R, Unsplittable);
  if (Ran && Result == CL_SUCCESS && Repeatable && Memo.Entry != 0) {
    Memo.OnQueue = Q.serial();
    Memo.Device = Device.Index;
    std::tie(Memo.BufferArgs, Memo.AllArgs) = R.ArgsGeneration;
    K.rememberRepeat(Memo);
  }
  return Ran;
}

} // namespace libsplit
