#include "chunked_launch.hpp"

#include "peer_copies.hpp"

#include "escaped_error.hpp"
#include "launch.hpp"
#include "merge.hpp"
#include "queue.hpp"
#include "split_launch.hpp"

#include "libsplit/planner/chunking.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

namespace libsplit {

namespace {

using Clock = std::chrono::steady_clock;

// How often a launch whose first chunk runs looks whether that already tells it to open the
// split devices (planner::restSecondsAtLeast).
constexpr std::chrono::milliseconds OpenPoll{5};

double secondsBetween(Clock::time_point From, Clock::time_point To) {
  return std::chrono::duration<double>(To - From).count();
}

// A device taking part in the launch, and what its chunks did.
struct Taker {
  ExecDevice *Device = nullptr;
  bool FromLow = false; // takes chunks from the low end: the app's device
  bool Busy = false;    // a chunk of it runs
  bool Stopped = false; // takes no more chunks
  double AssumedRate = 0.0;
  // Work-groups per second, enqueue to end (a chunk's launch and wait count: they are what each
  // further chunk costs), of its largest chunk after its first: a device's first chunk also
  // pays for its first use of the kernel (a fresh context's first launch, PoCL's compilation),
  // which no later chunk does.
  double Rate = 0.0;
  std::size_t RateGroups = 0;
  std::size_t Chunks = 0, Groups = 0;
  std::size_t FirstGroup = std::numeric_limits<std::size_t>::max(), EndGroup = 0;
  // Its chunks' times where they ran (the kernel's cost along the index), and the one running.
  std::vector<planner::ChunkSample> Samples;
  std::size_t RunningFirst = 0, RunningEnd = 0;
  Clock::time_point RunningSince;
  // When the running chunk's kernel was enqueued (its data in): unset before.
  std::optional<Clock::time_point> KernelSince;
  double KernelSeconds = 0.0, TransferSeconds = 0.0;
  std::uint64_t BytesIn = 0, BytesOut = 0;
  std::map<Buffer *, RangeSet> Need, Written; // over its chunks, root coordinates
  double rate() const { return Rate > 0.0 ? Rate : AssumedRate; }
};

struct ChunkState {
  std::mutex Mutex;
  std::condition_variable Changed;
  std::vector<Taker> Takers; // grows on the launching thread only, under Mutex
  std::uint64_t Ended = 0;   // chunks ended so far
  cl_int Error = CL_SUCCESS;
};

struct ChunkJob {
  std::size_t Taker = 0;
  std::size_t FirstGroup = 0, EndGroup = 0;
  std::vector<std::pair<Buffer *, RangeSet>> Pushes; // from the host
  // Per push: what comes straight from another device of the taker's real context, behind
  // that device's marker (peer_copies.hpp); the markers live as long as the job.
  std::vector<std::vector<Buffer::PeerPart>> FromPeers;
  std::shared_ptr<PeerMarkers> Markers;
};

// On the device's worker: the chunk's bytes in, its kernel, its wait. Accounted: the chunk's
// end is counted in S.
void runChunkJob(const ChunkedLaunch &L, ChunkState &S, ExecDevice &Device, const ChunkJob &Job,
                 bool &Accounted) {
  const LaunchRequest &R = *L.R;
  const auto Start = Clock::now();
  cl_int Error = CL_SUCCESS;
  for (std::size_t I = 0; I < Job.Pushes.size() && Error == CL_SUCCESS; ++I) {
    Buffer &Root = *Job.Pushes[I].first;
    if ((Error = Root.pushOnWorker(Device, Job.Pushes[I].second)) == CL_SUCCESS &&
        !Job.FromPeers[I].empty())
      Error = copyPeerParts(Root, Device, Job.FromPeers[I]);
  }
  const auto Pushed = Clock::now();
  auto Enqueued = Pushed, Ended = Pushed;
  double KernelSeconds = 0.0;
  // On the app's device, a kernel whose own code runs a slice exactly (offset-exact) runs from
  // the app's program, already loaded there: the partition-ready program's first launch on a
  // device costs NVIDIA's driver its module load (milliseconds, in a short run's first launch).
  const bool Own = &Device == &L.Q->exec() && L.Facts->OffsetExact;
  if (Error == CL_SUCCESS) {
    if (cl_kernel Real = L.K->realWithArgs(Device, !Own, R.Args, Error)) {
      cl_event Done = nullptr;
      Enqueued = Clock::now();
      {
        std::lock_guard<std::mutex> Lock(S.Mutex);
        S.Takers[Job.Taker].KernelSince = Enqueued;
      }
      Error = Own ? enqueueOwnSlice(Device, Real, R, L.Dim, Job.FirstGroup, Job.EndGroup, &Done)
                  : enqueueSlice(Device, Real, *L.Facts, R, L.Dim, L.Groups, Job.FirstGroup,
                                 Job.EndGroup, &Done);
      if (Error == CL_SUCCESS)
        Error = awaitKernel(Device, Done, KernelSeconds);
      Ended = Clock::now();
      servicesOf(*L.K).Spans.span(Device.Name, L.K->name() + " (chunk)", Enqueued, Ended, R.Called);
      servicesOf(*L.K).Log.debug(config::DebugCategory::Split, "kernel ", L.K->name(), ": ",
                                 Device.Name, " ran work-groups [", Job.FirstGroup, ", ",
                                 Job.EndGroup, ") in ", secondsBetween(Enqueued, Ended) * 1e3,
                                 " ms", Own ? " (the app's own kernel)" : "");
    }
  }
  {
    std::lock_guard<std::mutex> Lock(S.Mutex);
    Taker &T = S.Takers[Job.Taker];
    T.Busy = false;
    T.KernelSince.reset();
    ++S.Ended;
    Accounted = true;
    if (Error != CL_SUCCESS) {
      if (S.Error == CL_SUCCESS)
        S.Error = Error;
    } else {
      const std::size_t Groups = Job.EndGroup - Job.FirstGroup;
      ++T.Chunks;
      T.Groups += Groups;
      T.FirstGroup = std::min(T.FirstGroup, Job.FirstGroup);
      T.EndGroup = std::max(T.EndGroup, Job.EndGroup);
      T.KernelSeconds += KernelSeconds;
      T.TransferSeconds += secondsBetween(Start, Pushed);
      const double Took = secondsBetween(Enqueued, Ended);
      T.Samples.push_back({Job.FirstGroup, Job.EndGroup, Took});
      if (Took > 0.0 && (T.Chunks <= 2 || Groups >= T.RateGroups)) {
        T.RateGroups = Groups;
        T.Rate = static_cast<double>(Groups) / Took;
      }
    }
    // Under the lock: once the launch sees no chunk busy it returns, and S (this condition
    // variable with it) is gone; notified after the unlock, a worker broadcast on freed memory
    // and hung there (the next launch then waited for that worker for ever).
    S.Changed.notify_all();
  }
}

// runChunkJob, whose exception (host memory) fails the launch: the chunk ends, counted, and the
// launching thread, which waits for every chunk to end before S goes, hears of it.
void runChunk(const ChunkedLaunch &L, ChunkState &S, ExecDevice &Device, const ChunkJob &Job) {
  bool Accounted = false;
  try {
    runChunkJob(L, S, Device, Job, Accounted);
  } catch (...) {
    const cl_int Error = escapedError(&servicesOf(*L.K).Log, "a launch's chunk");
    std::lock_guard<std::mutex> Lock(S.Mutex);
    if (!Accounted) {
      Taker &T = S.Takers[Job.Taker];
      T.Busy = false;
      T.KernelSince.reset();
      ++S.Ended;
    }
    if (S.Error == CL_SUCCESS)
      S.Error = Error;
    S.Changed.notify_all();
  }
}

// What another device is assumed to run before its first chunk ends: the app's device's rate,
// a tenth of it for a device of another type (a CPU beside a GPU), so that its first chunk is
// short.
bool sameType(const ExecDevice &A, const ExecDevice &B) {
  const cl_device_type Mask = ~static_cast<cl_device_type>(CL_DEVICE_TYPE_DEFAULT);
  return (A.Type & Mask) == (B.Type & Mask);
}

// The work-groups of R a device runs at once (planner::residentGroups).
std::size_t residentGroups(const ExecDevice &Device, const LaunchRequest &R) {
  std::size_t ItemsPerGroup = 1;
  for (cl_uint D = 0; D < R.WorkDim; ++D)
    ItemsPerGroup *= R.Local[D];
  return planner::residentGroups((Device.Type & CL_DEVICE_TYPE_GPU) != 0, Device.ComputeUnits,
                                 ItemsPerGroup);
}

double assumedRate(const ExecDevice &Device, const ExecDevice &Home, double HomeRate) {
  return sameType(Device, Home) ? HomeRate : HomeRate / 10.0;
}

// Devices alike enough to share one cost along the index: the same model (two of a machine's
// GPUs), so that a device joining late predicts its chunks from what the first one ran.
bool sameKind(const ExecDevice &A, const ExecDevice &B) {
  return sameType(A, B) && A.ComputeUnits == B.ComputeUnits && A.Model == B.Model;
}

// The kernel's cost along the index on Device's kind, from the chunks its kind ran. A chunk of
// less than half of what the device runs at once measured the device partly empty (its time
// set by its slowest work-items more than by its work): left out once fuller ones are there.
planner::ChunkCost costOn(const std::vector<Taker> &Takers, const ExecDevice &Device,
                          std::size_t Resident) {
  std::vector<planner::ChunkSample> Full, All;
  for (const Taker &T : Takers)
    if (sameKind(*T.Device, Device))
      for (const planner::ChunkSample &C : T.Samples) {
        All.push_back(C);
        if ((C.End - C.First) * 2 >= Resident)
          Full.push_back(C);
      }
  return planner::ChunkCost::fit(Full.empty() ? All : Full);
}

// What Device needs at once to run the kernel at its rate (planner::saturatingGroups): as the
// app's device's first chunks showed where it is of the same kind, else what it holds.
std::size_t saturating(const std::vector<Taker> &Takers, const ExecDevice &Device,
                       const LaunchRequest &R) {
  const std::size_t Resident = residentGroups(Device, R);
  const Taker &Home = Takers.front();
  return sameKind(*Home.Device, Device) ? planner::saturatingGroups(Resident, Home.Samples)
                                        : Resident;
}

} // namespace

cl_int runChunked(const ChunkedLaunch &L) {
  LaunchServices &Services = servicesOf(*L.K);
  const LaunchRequest &R = *L.R;
  planner::ChunkSettings Settings;
  if (L.Forced)
    Settings.FloorSeconds = 0.0;
  const planner::GuardSettings Prices;
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);
  L.Q->finishPending(); // earlier launches end, and are measured, before this one

  // Which buffers merge: those a split along Dim merges, and every written one where the regions
  // do not show the slices writing apart (a chunk boundary can fall anywhere).
  const std::vector<Slice> Halves = {{L.Home, 0, L.Groups / 2}, {L.Home, L.Groups / 2, L.Groups}};
  std::map<Buffer *, BufferPlan> Launch =
      planBuffers(*L.Facts, R, Halves, L.Regions, Range, Scalars, L.Dim);
  bool AnyDiffMerge = false, AnyCombine = false;
  std::map<Buffer *, std::vector<std::uint8_t>> Snapshots;
  for (auto &[Root, P] : Launch) {
    P.Merge = P.Merge || (P.Writes && !L.DisjointWrites);
    AnyDiffMerge |= P.Merge && P.Combine.empty();
    AnyCombine |= !P.Combine.empty();
    if (!P.Merge)
      continue;
    // Every device starts from the host's copy: deferred bytes come in, and it is kept.
    if (cl_int Error = Root->holdOnHost(wholeOf(*Root)); Error != CL_SUCCESS)
      return Error;
    const std::uint8_t *Host = Root->hostData();
    Snapshots[Root].assign(Host, Host + Root->size());
  }

  ChunkState S;
  {
    Taker Home;
    Home.Device = L.Home;
    Home.FromLow = true;
    // A kernel measured before: its rate at this launch's size.
    const double PerItem = L.K->chunkedSecondsPerItem();
    double Items = 1.0;
    for (cl_uint D = 0; D < R.WorkDim; ++D)
      Items *= static_cast<double>(R.Global[D]);
    if (PerItem > 0.0)
      Home.AssumedRate = static_cast<double>(L.Groups) / (PerItem * Items);
    else if (L.Forced)
      Home.AssumedRate = 1.0; // the devices start together, as equally fast until measured
    S.Takers.push_back(std::move(Home));
  }
  const auto LaunchStart = Clock::now();
  std::size_t Lo = 0, Hi = L.Groups;
  bool OpenAsked = false, WillJoin = false, PrefetchDue = false;
  std::unique_lock<std::mutex> Lock(S.Mutex);
  auto anyBusy = [&] {
    return std::any_of(S.Takers.begin(), S.Takers.end(), [](const Taker &T) { return T.Busy; });
  };
  // An exception out of the scheduling (host memory) fails the launch, but only once no chunk
  // runs any more: the workers' jobs use S and L, which live on this stack.
  try {
    for (;;) {
      if (S.Error != CL_SUCCESS)
        break;
      const double HomeRate = S.Takers.front().rate();
      // What the rest of the launch needs that only the devices hold (the host lacks it).
      auto restOnDevices = [&] {
        const std::vector<Slice> Rest = {{L.Home, Lo, Hi}};
        std::map<Buffer *, BufferPlan> Needed =
            planBuffers(*L.Facts, R, Rest, L.Regions, Range, Scalars, L.Dim);
        std::vector<std::pair<Buffer *, RangeSet>> Lacking;
        for (auto &[Root, P] : Needed)
          if (!Root->neverWritten() || Launch[Root].Merge)
            if (RangeSet Missing = Root->missingOnHost(P.Need[0]); !Missing.empty())
              Lacking.emplace_back(Root, std::move(Missing));
        return Lacking;
      };
      // Devices that can join now.
      if (Lo < Hi && HomeRate > 0.0) {
        Lock.unlock();
        const std::vector<ExecDevice *> Joiners = L.Joinable();
        if (!OpenAsked) {
          // The app's device measured: a launch long enough to pay for the split devices opens
          // them (they join once open); one that is not runs to its end there.
          OpenAsked = true;
          WillJoin = L.OpenFor(static_cast<double>(Hi - Lo) / HomeRate);
          PrefetchDue = WillJoin && !restOnDevices().empty();
        }
        Lock.lock();
        // A prefetch waits for a rate measured after the first chunk, which also pays for the
        // kernel's first use of the device and of its buffers (a one-launch vector addition's first
        // chunk took far longer than the rest of its launch, whose inputs then came back to the
        // host for devices that never joined).
        const bool Prefetch = PrefetchDue && S.Takers.front().Chunks >= 2;
        PrefetchDue = PrefetchDue && !Prefetch;
        if (Prefetch) {
          // What the rest of the launch needs comes to the host now, while nothing runs: a byte
          // only the app's device holds would otherwise reach a joining device only once the
          // app's device's chunk running then has ended (its queue is in order).
          S.Changed.wait(Lock, [&] { return !anyBusy(); });
          Lock.unlock();
          // Only where that is cheap beside the rest of the launch (a memory-bound kernel's
          // chunks pay for no transfer: chunkPays).
          const std::vector<std::pair<Buffer *, RangeSet>> Lacking = restOnDevices();
          double Bytes = 0.0;
          for (const auto &[Root, Missing] : Lacking)
            Bytes += static_cast<double>(Missing.totalBytes());
          if (Bytes / Prices.LinkBytesPerSecond < 0.1 * static_cast<double>(Hi - Lo) / HomeRate)
            for (const auto &[Root, Missing] : Lacking)
              if (cl_int Error = Root->fetchToHost(Missing); Error != CL_SUCCESS)
                S.Error = Error;
          Lock.lock();
          if (S.Error != CL_SUCCESS)
            break;
        }
        for (ExecDevice *D : Joiners)
          if (std::none_of(S.Takers.begin(), S.Takers.end(),
                           [&](const Taker &T) { return T.Device == D; })) {
            Taker T;
            T.Device = D;
            T.AssumedRate = assumedRate(*D, *L.Home, HomeRate);
            S.Takers.push_back(std::move(T));
            Services.Log.debug(config::DebugCategory::Split, "kernel ", L.K->name(), ": ", D->Name,
                               " joins its launch at work-group ", Hi, " of ", L.Groups);
          }
      }
      const bool MoreComing = WillJoin && L.MayJoinLater();
      for (std::size_t I = 0; I < S.Takers.size() && S.Error == CL_SUCCESS; ++I) {
        Taker &T = S.Takers[I];
        if (T.Busy || T.Stopped)
          continue;
        if (Lo >= Hi) {
          T.Stopped = true;
          continue;
        }
        const std::size_t Remaining = Hi - Lo;
        // Each device's rate over what remains and when its running chunk ends, by the kernel's
        // cost along the index where its kind has run chunks, else by its rate.
        const auto Now = Clock::now();
        const planner::ChunkCost Cost =
            costOn(S.Takers, *T.Device, saturating(S.Takers, *T.Device, R));
        auto rateOver = [&](const Taker &U, const planner::ChunkCost &C) {
          const double Seconds = C.seconds(Lo, Hi);
          return Seconds > 0.0 ? static_cast<double>(Remaining) / Seconds : U.rate();
        };
        double Total = 0.0;
        std::size_t Active = 0;
        std::vector<planner::ChunkPeer> Peers;
        for (const Taker &U : S.Takers)
          if (!U.Stopped) {
            Total += U.rate();
            ++Active;
            if (&U == &T)
              continue;
            const planner::ChunkCost UCost =
                costOn(S.Takers, *U.Device, saturating(S.Takers, *U.Device, R));
            planner::ChunkPeer Peer;
            Peer.Rate = rateOver(U, UCost);
            if (U.Busy) {
              const double Running =
                  UCost.known()    ? UCost.seconds(U.RunningFirst, U.RunningEnd)
                  : U.rate() > 0.0 ? static_cast<double>(U.RunningEnd - U.RunningFirst) / U.rate()
                                   : 0.0;
              Peer.BusyFor = std::max(0.0, Running - secondsBetween(U.RunningSince, Now));
            }
            Peers.push_back(Peer);
          }
        // Devices still opening or building count at the rate they are assumed to have, as free.
        if (MoreComing)
          for (ExecDevice *D : L.Q->context().plannedSplitDevices())
            if (std::none_of(S.Takers.begin(), S.Takers.end(),
                             [&](const Taker &U) { return U.Device == D; })) {
              Total += assumedRate(*D, *L.Home, HomeRate);
              Peers.push_back({assumedRate(*D, *L.Home, HomeRate), 0.0});
            }
        planner::ChunkTaker Taking;
        Taking.AppDevice = T.FromLow;
        Taking.SameTypeAsApp = sameType(*T.Device, *L.Home);
        Taking.ChunksDone = T.Chunks;
        Taking.Rate = rateOver(T, Cost);
        // A device's first chunk measures it full; later ones may shrink to what keeps it busy.
        Taking.Resident =
            T.Chunks == 0 ? residentGroups(*T.Device, R) : saturating(S.Takers, *T.Device, R);
        Taking.Cost = &Cost;
        // A prefetch waits for the app's device's second rate (above): measured soon.
        Taking.Remeasure = T.FromLow && PrefetchDue && T.Chunks == 1;
        Taking.FirstGroups =
            T.Samples.empty() ? 0 : T.Samples.front().End - T.Samples.front().First;
        planner::ChunkRound Round;
        Round.Lo = Lo;
        Round.Others = std::move(Peers);
        Round.Groups = L.Groups;
        Round.Remaining = Remaining;
        Round.TotalRate = Total;
        Round.Active = Active;
        Round.MoreComing = MoreComing;
        Round.Forced = L.Forced;
        const std::size_t Chunk = planner::chunkFor(Taking, Round, Settings);
        ChunkJob Job;
        Job.Taker = I;
        Job.FirstGroup = T.FromLow ? Lo : Hi - Chunk;
        Job.EndGroup = T.FromLow ? Lo + Chunk : Hi;
        const std::vector<Slice> One = {{T.Device, Job.FirstGroup, Job.EndGroup}};
        std::map<Buffer *, BufferPlan> Plans =
            planBuffers(*L.Facts, R, One, L.Regions, Range, Scalars, L.Dim);
        std::uint64_t Bytes = 0, Gathered = 0;
        for (auto &[Root, P] : Plans) {
          RangeSet Missing = Root->missingOn(T.Device->Index, P.Need[0]);
          if (Missing.empty() || (Root->neverWritten() && !Launch[Root].Merge))
            continue; // undefined contents need not travel
          Bytes += Missing.totalBytes();
          if (!Job.Markers)
            Job.Markers = std::make_shared<PeerMarkers>(Services.Backend);
          Job.FromPeers.push_back(takePeerParts(*Root, *T.Device, Missing, *Job.Markers,
                                                Services.Settings.PeerCopy && !Launch[Root].Merge));
          Gathered += Root->missingOnHost(Missing).totalBytes();
          Job.Pushes.emplace_back(Root, std::move(Missing));
        }
        // A device that is not the app's takes the chunk only if it ends it before the others
        // would have run what remains, once their running chunks have ended (counted as free,
        // a GPU a little slower than the app's sat out the launch's last chunks while the app's
        // ran them).
        const double ChunkSeconds = Cost.known() ? Cost.seconds(Job.FirstGroup, Job.EndGroup)
                                                 : static_cast<double>(Chunk) / T.rate();
        if (!T.FromLow && !L.Forced &&
            !planner::chunkPays(static_cast<double>(Bytes + Gathered) / Prices.LinkBytesPerSecond,
                                ChunkSeconds,
                                planner::finishTogetherSeconds(static_cast<double>(Remaining), 0.0,
                                                               Round.Others))) {
          T.Stopped = true;
          Services.Log.debug(config::DebugCategory::Split, "kernel ", L.K->name(), ": ",
                             T.Device->Name,
                             " takes no more chunks (the others would end the launch first)");
          continue;
        }
        if (Gathered) {
          // Bytes only another device holds come to the host first, once no chunk runs: the
          // devices' pushes read the host copy, and the read queues on a device's worker.
          S.Changed.wait(Lock, [&] { return !anyBusy(); });
          Lock.unlock();
          cl_int Error = CL_SUCCESS;
          for (const auto &[Root, Ranges] : Job.Pushes)
            if ((Error = Root->fetchToHost(Ranges)) != CL_SUCCESS)
              break;
          Lock.lock();
          if (Error != CL_SUCCESS) {
            S.Error = Error;
            break;
          }
        }
        for (auto &[Root, P] : Plans) {
          if (Root->neverWritten() && !Launch[Root].Merge)
            Root->markValidOn(T.Device->Index, Root->missingOn(T.Device->Index, P.Need[0]));
          T.Need[Root].add(P.Need[0]);
          T.Written[Root].add(P.Write[0]);
        }
        // Valid there from now on: the device's queue runs the push before any later command.
        for (std::size_t P = 0; P < Job.Pushes.size(); ++P) {
          Buffer &Root = *Job.Pushes[P].first;
          Root.markValidOn(T.Device->Index, Job.Pushes[P].second);
          for (const Buffer::PeerPart &Part : Job.FromPeers[P])
            Root.markValidOn(T.Device->Index, Part.Ranges);
        }
        T.BytesIn += Bytes;
        (T.FromLow ? Lo : Hi) = T.FromLow ? Job.EndGroup : Job.FirstGroup;
        T.Busy = true;
        T.RunningFirst = Job.FirstGroup;
        T.RunningEnd = Job.EndGroup;
        T.RunningSince = Clock::now();
        try {
          // Job copied, not moved: kept whole here until the post has succeeded.
          T.Device->Worker->post(
              [&L, &S, Device = T.Device, Job] { runChunk(L, S, *Device, Job); });
        } catch (...) {
          // Not queued (host memory): its bytes never reach the device, whose copy must not count
          // them (the host, or the peer they came from, still holds them).
          T.Busy = false;
          for (std::size_t P = 0; P < Job.Pushes.size(); ++P) {
            Job.Pushes[P].first->forgetOn(T.Device->Index, Job.Pushes[P].second);
            for (const Buffer::PeerPart &Part : Job.FromPeers[P])
              Job.Pushes[P].first->forgetOn(T.Device->Index, Part.Ranges);
          }
          throw;
        }
      }
      if (S.Error != CL_SUCCESS || (Lo >= Hi && !anyBusy()))
        break;
      // The app's device's first chunk running long enough already tells that the launch pays
      // for opening the split devices: they open now, not once it ends (they join once its rate
      // is known, as before).
      const Taker &First = S.Takers.front();
      const bool FirstRuns = !OpenAsked && !L.Forced && Lo < Hi && First.Chunks == 0 && First.Busy;
      if (FirstRuns && First.KernelSince) {
        const double AtLeast =
            planner::restSecondsAtLeast(Hi - Lo, First.RunningEnd - First.RunningFirst,
                                        secondsBetween(*First.KernelSince, Clock::now()));
        Lock.unlock();
        L.OpenFor(AtLeast); // asked again with the measured rate once the chunk ends
        Lock.lock();
      }
      const std::uint64_t Seen = S.Ended;
      if (Lo < Hi && (MoreComing || FirstRuns))
        S.Changed.wait_for(Lock, MoreComing ? std::chrono::milliseconds(1) : OpenPoll);
      else
        S.Changed.wait(Lock, [&] { return S.Ended != Seen || S.Error != CL_SUCCESS; });
    }
  } catch (...) {
    const cl_int Error = escapedError(&Services.Log, "a launch in chunks");
    if (!Lock.owns_lock())
      Lock.lock();
    if (S.Error == CL_SUCCESS)
      S.Error = Error;
  }
  S.Changed.wait(Lock, [&] { return !anyBusy(); });
  Lock.unlock();
  L.K->noteLaunchLeftRunning(false);
  if (S.Error != CL_SUCCESS)
    return S.Error;

  std::vector<Taker *> Ran;
  for (Taker &T : S.Takers)
    if (T.Chunks)
      Ran.push_back(&T);
  // Who holds what it wrote: a device alone, or a buffer whose slices write apart, keeps it;
  // merged buffers come back to the host.
  for (auto &[Root, P] : Launch) {
    if (P.Merge && Ran.size() > 1) {
      std::vector<MergeSlice> Parts(Ran.size());
      for (std::size_t I = 0; I < Ran.size(); ++I) {
        Parts[I].Device = Ran[I]->Device;
        Parts[I].Written = Ran[I]->Written[Root];
      }
      if (cl_int Error =
              mergeIntoHost(*Root, Snapshots[Root], Parts, P.Combine, L.ElementBytes(*Root));
          Error != CL_SUCCESS)
        return Error;
      for (std::size_t I = 0; I < Ran.size(); ++I) {
        Ran[I]->TransferSeconds += Parts[I].TransferSeconds;
        Ran[I]->BytesOut += Parts[I].BytesOut;
      }
      continue;
    }
    for (Taker *T : Ran)
      if (!T->Written[Root].empty())
        Root->wroteOn(T->Device->Index, T->Written[Root]);
  }
  for (auto &[Root, P] : Launch) {
    std::vector<RangeSet> NeedByDevice(L.Q->context().devices().size());
    for (Taker *T : Ran)
      NeedByDevice[T->Device->Index] = T->Need[Root];
    Root->expectUse(std::move(NeedByDevice)); // where the app's next write of it goes
  }
  const double Makespan = secondsBetween(LaunchStart, Clock::now());

  // What the next launches start from.
  const Taker &Home = S.Takers.front();
  double Items = 1.0;
  for (cl_uint D = 0; D < R.WorkDim; ++D)
    Items *= static_cast<double>(R.Global[D]);
  if (Home.Rate > 0.0) {
    const double PerItem = static_cast<double>(L.Groups) / (Home.Rate * Items);
    L.K->noteChunkedSecondsPerItem(PerItem);
    if (Home.Chunks >= 2) // its rate from a chunk after the first (Taker::Rate)
      L.K->noteWarmSecondsPerItem(PerItem, Home.Device->Index);
  }
  if (L.Note) {
    L.Note->Guard->observe(L.Note->Launch, L.Note->Work, Makespan);
    if (L.SeparateHardware && Home.Rate > 0.0)
      L.Note->Guard->observeInferredWhole(L.Note->Work, static_cast<double>(L.Groups) / Home.Rate);
  }
  for (const Taker *T : Ran)
    L.K->sliceHistory()->observe(T->Device->Index, T->KernelSeconds, T->Groups);
  if (L.BalancerDevices) {
    // The balancer's next split of this key: the devices' measured rates; a device that took no
    // chunk starts without work, as at a first split by type, and is probed later. (Once the
    // balancer knows the key, its next launches are not chunked again.)
    const std::vector<ExecDevice *> Order = L.BalancerDevices();
    std::vector<double> Shares;
    double Sum = 0.0;
    for (ExecDevice *D : Order) {
      auto It =
          std::find_if(Ran.begin(), Ran.end(), [&](const Taker *T) { return T->Device == D; });
      Shares.push_back(It == Ran.end() ? 0.0 : (*It)->Rate);
      Sum += Shares.back();
    }
    if (Order.size() >= 2 && Sum > 0.0) {
      for (double &Share : Shares)
        Share /= Sum;
      Services.Balancer.startFrom(L.Key, std::move(Shares));
    }
  }
  if (Services.Recorder.wanted()) {
    LaunchRecord Rec = L.Base;
    Rec.Split = Ran.size() > 1;
    if (!Rec.Split)
      Rec.Unsplit = "it ran in chunks on one device: no other device could join in time";
    Rec.SplitDim = L.Dim;
    Rec.Purpose = "chunked";
    Rec.Merged = AnyDiffMerge && Ran.size() > 1;
    Rec.Combined = AnyCombine && Ran.size() > 1;
    Rec.MakespanSeconds = Makespan;
    for (const Taker *T : Ran) {
      DeviceRecord D;
      D.Name = T->Device->Name;
      D.Share = static_cast<double>(T->Groups) / static_cast<double>(L.Groups);
      D.FirstGroup = T->FirstGroup;
      D.Groups = T->Groups;
      D.KernelSeconds = T->KernelSeconds;
      D.TransferSeconds = T->TransferSeconds;
      D.BytesIn = T->BytesIn;
      D.BytesOut = T->BytesOut;
      Rec.Devices.push_back(std::move(D));
    }
    Services.Recorder.record(Rec);
  }
  if (Services.Log.enabled(config::DebugCategory::Split)) {
    std::string Text;
    for (const Taker *T : Ran)
      Text += " " + T->Device->Name + "=" + std::to_string(T->Chunks) + " chunks/" +
              std::to_string(T->Groups) + " groups";
    Services.Log.debug(config::DebugCategory::Split, "kernel ", L.K->name(), ": ", L.Groups,
                       " work-groups in chunks:", Text, " (", Makespan * 1e3, " ms)");
  }
  return L.Fail ? InjectedFailure : CL_SUCCESS;
}

} // namespace libsplit
