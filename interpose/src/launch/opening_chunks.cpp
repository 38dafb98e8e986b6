#include "opening_chunks.hpp"

#include "launch_parts.hpp"
#include "launch_plan.hpp"
#include "whole_launch.hpp"

#include "libsplit/planner/chunking.hpp"
#include "libsplit/planner/split_guard.hpp"

#include <algorithm>
#include <limits>

namespace libsplit {

bool firstChunkWaitsLittle(Queue &Q, const LaunchRequest &R, bool AtCall) {
  if (AtCall ? Q.workAheadOfCall() : Q.unfinishedLeft())
    return planner::firstLaunchInChunks(std::numeric_limits<double>::infinity(), AtCall, {});
  const int Home = static_cast<int>(Q.exec().Index);
  std::vector<const Buffer *> Counted;
  double Bytes = 0.0;
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Buffer && A.Mem->initialUploadOwedOn() == Home &&
        std::find(Counted.begin(), Counted.end(), &A.Mem->root()) == Counted.end()) {
      Counted.push_back(&A.Mem->root());
      Bytes += static_cast<double>(A.Mem->root().size());
    }
  return planner::firstLaunchInChunks(Bytes / planner::GuardSettings{}.LinkBytesPerSecond, AtCall,
                                      {});
}

std::optional<cl_int> chunkWhileOpening(Queue &Q, Kernel &K, LaunchRequest &Request,
                                        const CompiledKernel &Facts, bool Fail) {
  Context &C = Q.context();
  ExecDevice &Home = Q.exec();
  if (!C.chunksWhileOpening() || !fillsDevice(Home, Request) ||
      !chunkTakersBeside(Home, C.plannedSplitDevices(), servicesOf(K).Settings))
    return std::nullopt;
  auto never = [&K] {
    K.noteChunkedSecondsPerItem(-1.0); // its launches go the direct way from now on
    return std::nullopt;
  };
  if (!Home.Splits || !K.program().splitProgramFor(Home) || atomicsCombined(Facts, Request))
    return never();
  // Measured before: only a launch long enough to open the devices for (as launchDirect
  // decides), which opens them now.
  const double PerItem = K.chunkedSecondsPerItem();
  if (PerItem > 0.0 && !(PerItem * workItems(Request) >= C.openAfterSeconds() &&
                         C.openForLongLaunch(PerItem * workItems(Request))))
    return std::nullopt;
  LaunchRequest R = Request;
  if (!R.LocalGiven) {
    R.Local = chooseLocalSize(K, R, C.plannedSplitDevices());
    R.LocalGiven = true;
  }
  std::string Why;
  bool Movable = false;
  if (!canRun(K, Home, R, Why))
    return never();
  const std::optional<SplitShape> Shape = shapeOf(Facts, R, servicesOf(K).Settings, Why, Movable);
  if (!Shape || !Shape->DisjointWrites)
    return never();
  if (PerItem == 0.0 && !firstChunkWaitsLittle(Q, Request, false)) {
    // It runs whole, as natively, left running and not waited for (a wait for its event, or for
    // its profiled time, spins in NVIDIA's driver beside the app's next launches); its kernel
    // stays unmeasured, its next launches direct.
    servicesOf(K).Log.once("whole-behind:" + K.name(), config::LogLevel::Info, "kernel ", K.name(),
                           " runs whole while the split devices are not open, not in ",
                           "chunks: work queued before it on ", Home.Name,
                           " would hold the app's thread");
    Queue *Pipeline = Q.canFinishLater() ? &Q : nullptr;
    K.noteLaunchLeftRunning(Pipeline != nullptr);
    return runWhole(K, Request, Home,
                    "the split devices are not open yet (LIBSPLIT_OPEN), and work queued before "
                    "it kept it from running in chunks",
                    Pipeline, Fail, false, std::string());
  }
  ChunkedLaunch L = chunkedLaunch(Q, K, R, Facts, *Shape, Home, Fail, recordOf(K, Request));
  auto able = [&K, &R, &C] {
    std::vector<ExecDevice *> Able;
    std::string Unable;
    for (ExecDevice *D : C.splitDevices())
      if (canRun(K, *D, R, Unable))
        Able.push_back(D);
    return Able;
  };
  L.Joinable = [&Home, able, &Settings = servicesOf(K).Settings] {
    std::vector<ExecDevice *> Others;
    for (ExecDevice *D : able())
      if (D != &Home && takesChunks(*D, Home, Settings))
        Others.push_back(D);
    return Others;
  };
  L.OpenFor = [&C](double Seconds) { return C.openForLongLaunch(Seconds); };
  L.MayJoinLater = [&C, &K, &Home] {
    if (!C.splitDevicesOpen())
      return C.openingStarted();
    return std::any_of(C.splitDevices().begin(), C.splitDevices().end(), [&](ExecDevice *D) {
      return D != &Home && K.program().splitBuildPending(*D);
    });
  };
  L.BalancerDevices = able;
  return runChunked(L);
}

bool chunksWhileOpening(Queue &Q, const LaunchRequest &R) {
  Context &C = Q.context();
  return C.splitDevices().size() < 2 && !C.splitDevicesOpen() && C.chunksWhileOpening() &&
         fillsDevice(Q.exec(), R) &&
         chunkTakersBeside(Q.exec(), C.plannedSplitDevices(), C.launchServices().Settings);
}

bool chunksByItsKernel(Queue &Q, Kernel &K, const LaunchRequest &R) {
  const double PerItem = K.chunkedSecondsPerItem();
  return PerItem == 0.0 ||
         (PerItem > 0.0 && PerItem * workItems(R) >= Q.context().openAfterSeconds());
}

} // namespace libsplit
