//===- chunking.hpp - A one-off launch balanced while it runs -------------===//
//
// A launch with nothing measured for it (a kernel's first launch at its size, or one launched
// once) is cut into chunks of work-groups taken while it runs, in the manner of guided
// self-scheduling: the app's device starts at once from the low end; every other device takes
// chunks from the high end once it can run them (open, its program built) and while that pays
// (its data arrives in time); chunks shrink toward the end so that the devices finish together.
// Each device's part stays one contiguous range where two devices take part, so the next launch
// finds its data where its slice is.
//
// Pure: no OpenCL, no clock. Rates are work-groups per second of a device's chunks, measured by
// the caller (enqueue to end, so a chunk's launch cost counts).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

namespace libsplit::planner {

struct ChunkSettings {
  // The app's device's first chunk, when nothing is known of the kernel: this part of the
  // launch's work-groups (at least one). Its time gives the kernel's rate.
  std::size_t FirstChunkDivisor = 64;
  // Guided: a device takes the remaining work-groups times its part of the devices' rates, over
  // this divisor.
  double Divisor = 2.0;
  // A chunk lasts at least this long at its device's rate: each chunk costs a launch and a wait,
  // which chunks shorter than this would show.
  double FloorSeconds = 2e-3;
  // A kernel's first launch waits for its first chunk behind at most this much work queued on
  // the app's device before it (firstLaunchInChunks): about what that chunk's own launch and
  // wait cost the app's thread.
  double MostSecondsAhead = 0.5e-3;
};

// Work-groups of a device's next chunk (1 to Remaining): Remaining times Rate over Divisor
// times TotalRate (the rates of every device expected to take chunks, this one included), at
// least FloorSeconds of work at Rate and at least MinGroups. Rates <= 0 or not finite:
// everything remaining. (A GPU runs a chunk smaller than the work-groups it holds at once in
// about the time of a full one: chunks no smaller than that keep its measured rate true.)
std::size_t nextChunkGroups(std::size_t Remaining, double Rate, double TotalRate,
                            const ChunkSettings &Settings, std::size_t MinGroups = 1);

// Whether a kernel's first launch, nothing measured of it, runs in chunks on the app's device
// while the split devices are not open. Its first chunk waits for the work queued on the device
// before it (SecondsAhead; infinite where not known: commands of the app's queue still
// unfinished). Where the app's thread waits for that chunk (AppThreadWaits: a launch run at the
// app's call), natively that thread would queue its next launches meanwhile, so a run of short
// launches would lose that wait whole (a 1-D stencil's first launch behind the first upload of
// its buffers): beyond Settings.MostSecondsAhead the launch runs whole, as natively, and its
// profiled time gives the kernel's rate instead. Where the queue's executor waits for it (the
// app's thread has returned from its call), work of known length ahead delays the chunk as it
// would delay the whole launch: a one-launch kernel behind its output's first upload still runs
// in chunks and opens the devices for the rest. Unknown work ahead may be long: the executor
// would hold the app's next commands behind it, so it runs whole there too.
bool firstLaunchInChunks(double SecondsAhead, bool AppThreadWaits, const ChunkSettings &Settings);

// The app's device's first chunk of a launch of Groups work-groups, nothing measured.
std::size_t firstChunkGroups(std::size_t Groups, const ChunkSettings &Settings);

// The seconds the rest of a launch (Remaining work-groups, the running chunk's not counted) is
// predicted to take once the app's device's first chunk of ChunkGroups ends, as far as it is
// known while that chunk still runs, Elapsed seconds after its kernel was enqueued: its rate can
// only fall further, so the prediction at its end is at least this. A launch long enough to open
// the split devices for is then known to be so before its first chunk ends, and they open that
// much sooner.
double restSecondsAtLeast(std::size_t Remaining, std::size_t ChunkGroups, double Elapsed);

// The work-items a device holds at once, about: a GPU 2048 per compute unit (NVIDIA's limit per
// multiprocessor), a CPU one work-group per core (ItemsPerGroup each).
double residentItems(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup);
// The same in work-groups of ItemsPerGroup (at least one).
std::size_t residentGroups(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup);
// Whether a launch of WorkItems keeps a device busy: a quarter of what it holds at once. One that
// does not cannot gain from a second device of its kind (each would hold even fewer: the launch
// takes its longest work-item's time either way), so it is not run in chunks to find out.
bool fillsDevice(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup, double WorkItems);

// One chunk a device ran: work-groups [First, End) in Seconds (enqueue to end).
struct ChunkSample {
  std::size_t First = 0, End = 0;
  double Seconds = 0.0;
};

// The work-groups a device needs at once to run a kernel at its full rate, from the app's
// device's chunks in the order it ran them (its first a quarter of what it runs at once, its
// second larger): a second chunk that took at least half as much longer as it has more
// work-groups shows a kernel bound by the device's throughput (a loop of arithmetic), which runs
// at its rate with the first chunk's work-groups, so that chunks may shrink to that near the
// launch's end; one that took about as long shows a kernel whose slowest work-items set the
// time, which needs all the device holds at once (Resident). Resident until two chunks ran.
std::size_t saturatingGroups(std::size_t Resident, const std::vector<ChunkSample> &AppChunks);

// A kernel's seconds per work-group along its index space on one kind of device, as a line
// a + b * g fitted to its chunks (least squares on each chunk's sum): a kernel whose work falls
// or grows with the index (a triangular loop) has a chunk predicted where it runs, not at the
// rate of the part its device ran before. Chunks at one position (or one chunk) give a constant.
// A group's time never falls below a quarter of the fastest measured chunk's mean, so that the
// line's extrapolation stays positive.
class ChunkCost {
public:
  ChunkCost() = default;
  static ChunkCost fit(const std::vector<ChunkSample> &Samples);
  bool known() const { return Known; }
  // Predicted seconds of work-groups [First, End); 0 when not known.
  double seconds(std::size_t First, std::size_t End) const;
  // How many work-groups of [Lo, Hi), taken from the low end (FromLow) or the high end, run
  // within Seconds (0 to Hi - Lo).
  std::size_t groupsWithin(std::size_t Lo, std::size_t Hi, bool FromLow, double Seconds) const;

private:
  double perGroup(double Group) const;
  bool Known = false;
  double Intercept = 0.0, Slope = 0.0, Least = 0.0;
};

// Another device taking chunks, as the one choosing its chunk sees it.
struct ChunkPeer {
  double Rate = 0.0;    // work-groups per second over what remains
  double BusyFor = 0.0; // seconds until its running chunk ends (0: free now, or opening)
};

// When every device would finish if the Remaining work-groups were shared from now on: T such
// that Rate * T + sum over Others of Rate_o * max(0, T - BusyFor_o) = Remaining. Infinite when
// no rate is positive.
double finishTogetherSeconds(double Remaining, double Rate, const std::vector<ChunkPeer> &Others);

// What the caller knows of a device when it hands it its next chunk.
struct ChunkTaker {
  bool AppDevice = false;     // takes from the low end; its first chunk measures the kernel
  bool SameTypeAsApp = true;  // else its first chunk is the floor's: it may be far slower
  std::size_t ChunksDone = 0; // chunks of this launch it has run
  double Rate = 0.0;          // work-groups per second, measured or assumed; <= 0: unknown
  std::size_t Resident = 1;   // the work-groups it runs at once
  // The kernel's cost along the index on this kind of device (unknown: Rate alone).
  const ChunkCost *Cost = nullptr;
  // Its next chunk measures its rate again, no larger than its first of FirstGroups (that first
  // also paid for the kernel's first use of the device: the caller waits for a second rate
  // before it acts on one).
  bool Remeasure = false;
  std::size_t FirstGroups = 0;
};

// The launch when the chunk is handed out.
struct ChunkRound {
  std::size_t Groups = 0;    // of the whole launch
  std::size_t Remaining = 0; // not handed out yet
  double TotalRate = 0.0;    // of every device expected to take chunks, this one included
  std::size_t Active = 1;    // devices still taking chunks, this one included
  bool MoreComing = false;   // devices still opening or building, expected to join
  bool Forced = false;       // LIBSPLIT_CHUNK=always: no floors, no first-chunk rules
  std::size_t Lo = 0;        // the first remaining work-group: [Lo, Lo + Remaining) remain
  // The other devices taking chunks, with how long their running chunks have left: where given,
  // a chunk is sized from when all would finish (finishTogetherSeconds), so that a device
  // finishing early takes its share of what remains and the last chunks end together;
  // otherwise from the rates alone (TotalRate).
  std::vector<ChunkPeer> Others;
};

// Work-groups of the device's next chunk (1 to Remaining; 0 when none remain). A device's first
// chunk measures its rate: the app's device's is firstChunkGroups but no less than a quarter of
// what it runs at once (soon done, so that the devices open early where the launch is long, and
// full enough that its rate is near the device's), another device's as large and no less than
// it runs at once (of another type: the floor's). Alone with nothing coming, the app's device
// takes the rest at once. Otherwise guided: half of its share of what remains (with Others:
// what it runs until all would finish together, along the index by its Cost where known), no
// less than it runs at once unless its whole share is less, never below an eighth of that
// (nor leaving less than that behind).
std::size_t chunkFor(const ChunkTaker &Taker, const ChunkRound &Round,
                     const ChunkSettings &Settings);

// Whether a device that is not the app's takes a chunk: it must have it done (its data in,
// ArriveSeconds, then ChunkSeconds of kernel) before the devices already running would have run
// all the remaining work-groups without it (OthersFinishSeconds). Otherwise the chunk would make
// the launch longer, not shorter (a memory-bound kernel whose bytes take longer to move than the
// app's device takes to run them).
bool chunkPays(double ArriveSeconds, double ChunkSeconds, double OthersFinishSeconds);

} // namespace libsplit::planner
