#include "launch.hpp"

#include "launch_parts.hpp"
#include "launch_plan.hpp"
#include "opening_chunks.hpp"
#include "whole_launch.hpp"

#include <mutex>

namespace libsplit {

bool runsWholeOnAppDevice(Queue &Q, Kernel &K, const LaunchRequest &R) {
  return Q.context().splitDevices().size() < 2 &&
         !(chunksWhileOpening(Q, R) && chunksByItsKernel(Q, K, R));
}

bool launchDirect(Queue &Q, Kernel &K, LaunchRequest &R, cl_int &Result) {
  Context &C = Q.context();
  const LaunchServices &S = C.launchServices();
  const bool OneDevice = C.splitDevices().size() < 2;
  const bool SettledWhole = R.Decided && R.Decided->Launch.Run == planner::Mode::Whole &&
                            R.Decided->Settled && !R.Decided->Launch.Measured;
  // What would make runWhole keep a record, a real event or a log line for the launch.
  if (R.EventWanted || !(OneDevice || SettledWhole) || S.Settings.FailLaunch != 0 ||
      S.Recorder.wanted() || S.Spans.enabled() || S.Log.enabled(config::LogLevel::Info))
    return false;
  // A kernel's first launch, and one measured long enough, may run in chunks while the split
  // devices open (chunkWhileOpening): not here. A launch behind its kernel's first, still running
  // on the queue's executor, waits a little for it (beginDirect) rather than joining the queue:
  // queued, it and every launch after it would go through the executor while the app launches
  // faster than the executor runs them (a loop of short kernels, to its end). It is decided
  // again once the first one has been measured.
  const bool MayChunk = chunksWhileOpening(Q, R);
  auto chunks = [&] {
    const double PerItem = K.chunkedSecondsPerItem();
    return PerItem > 0.0 && PerItem * workItems(R) >= C.openAfterSeconds();
  };
  if (MayChunk && ((K.chunkedSecondsPerItem() == 0.0 && K.claimFirstLaunch()) || chunks()))
    return false;
  ExecDevice &Device = Q.exec();
  auto Start = [&](cl_int &Error, std::vector<KernelArg> &Kept) {
    if (MayChunk && chunks())
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
    };
    Device.Worker->runHere(std::ref(Job));
    if (Error != CL_SUCCESS)
      return true; // the device's own answer, as natively at the call
    markWrittenWhole(K, R, Device);
    K.noteLaunchLeftRunning(true);
    // The arguments stay alive until the kernel ran, whatever the app releases meanwhile.
    Kept = std::move(R.Args);
    return true;
  };
  return Q.runDirect(Start, Device, Result);
}

} // namespace libsplit
