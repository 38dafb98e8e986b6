// What the stages of a launch share (launch.cpp, whole_launch.cpp, opening_chunks.cpp,
// direct_launch.cpp): the launch's record, the local size chosen for it, whether a device can
// run its slices, its split shape and balancer key, which devices take chunks of it.
#pragma once

#include "chunked_launch.hpp"
#include "launch.hpp"
#include "launch_report.hpp"

#include "libsplit/balancer/balancer.hpp"
#include "libsplit/planner/pipelined_cost.hpp"

#include <array>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace libsplit {

// The launch as the app made it, for its record.
LaunchRecord recordOf(const Kernel &K, const LaunchRequest &R);

// A local size that divides the global size and that every device and the kernel accept; used
// when the app left the choice to the implementation.
std::array<size_t, 3> chooseLocalSize(Kernel &K, const LaunchRequest &R,
                                      const std::vector<ExecDevice *> &Devices);

// Whether Device can run this launch's slices: the work-group size the kernel allows there
// (register pressure can lower it below the device's maximum) and its local memory.
bool canRun(Kernel &K, ExecDevice &Device, const LaunchRequest &R, std::string &Why);

// The launch's work-items, all dimensions.
double workItems(const LaunchRequest &R);

// How a launch splits: along which dimension, in how many work-groups; R's local size set.
struct SplitShape {
  bool Regions = false;        // the compiler's region summary matches the launch
  bool DisjointWrites = false; // slices along Dim write disjoint bytes (no merge)
  cl_uint Dim = 0;
  size_t Groups = 0;
};

// The launch's shape, or why it cannot split (Movable: the kernel itself cannot, rather than this
// launch being too small to).
std::optional<SplitShape> shapeOf(const CompiledKernel &Facts, const LaunchRequest &R,
                                  const config::Config &Settings, std::string &Why, bool &Movable);

// The balancer's key for the launch split along Dim.
balancer::LaunchKey launchKey(Kernel &K, const LaunchRequest &R, cl_uint Dim);

// Whether Device takes chunks of a launch whose app's device is Home: a device of Home's type,
// or any with LIBSPLIT_FIRST_SPLIT=uniform. (A CPU beside a GPU app, as at a first split: its
// first chunk includes PoCL's compilation of the kernel and can outlast the GPUs' whole launch;
// the balancer probes it later.)
bool takesChunks(const ExecDevice &Device, const ExecDevice &Home, const config::Config &Settings);

// Whether a device of Devices beside Home would take chunks of its launches: otherwise a launch
// run in chunks would only pay for their waits (one GPU beside a CPU: the GPU alone ran them).
bool chunkTakersBeside(const ExecDevice &Home, const std::vector<ExecDevice *> &Devices,
                       const config::Config &Settings);

// What every planned launch carries (PlannedLaunch).
void plannedLaunch(PlannedLaunch &L, Queue &Q, Kernel &K, const LaunchRequest &R,
                   const CompiledKernel &Facts, cl_uint Dim, size_t Groups, bool Fail,
                   LaunchRecord Base);

// A chunked launch's fixed parts; the caller says who joins.
ChunkedLaunch chunkedLaunch(Queue &Q, Kernel &K, const LaunchRequest &R,
                            const CompiledKernel &Facts, const SplitShape &Shape, ExecDevice &Home,
                            bool Fail, LaunchRecord Base);

// Whether a launch keeps the app's device busy (planner::fillsDevice): one that does not is not
// run in chunks to find out whether a second device would help. Before the local size is chosen,
// a GPU's share is counted in work-items.
bool fillsDevice(const ExecDevice &Device, const LaunchRequest &R);

// A pipelined launch part's device times (the first and last commands' profiling), relative to
// the first's queueing so that nanosecond stamps keep their precision; LastEnd (the device's last
// pipelined part's end) kept as the latest seen (another queue's parts may be told first).
void timeOnDevice(planner::PipelinedSlice &Cost, const RealTimes &First, const RealTimes &Last,
                  std::atomic<cl_ulong> &LastEnd);

} // namespace libsplit
