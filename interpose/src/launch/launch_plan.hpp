// A split launch's plan, before anything runs: per root buffer, the bytes each slice needs and
// may write and whether its writes are merged (by diff, or by combination for atomics), and what
// the split would move against running whole. It reads the kernel's facts, the launch and the
// buffers' validity; it makes no OpenCL call and changes nothing, and builds without the runtime
// (the static library libsplit_plan, unit-tested on a fake backend: tests/unit/plan).
#pragma once

#include "kernel_compiler.hpp"
#include "launch_request.hpp"
#include "merge.hpp"

#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/planner/split_guard.hpp"

#include <map>
#include <string>
#include <vector>

namespace libsplit {

// One device's part of a split launch: work-groups [FirstGroup, EndGroup) of the split dimension.
struct Slice {
  ExecDevice *Device = nullptr;
  std::size_t FirstGroup = 0;
  std::size_t EndGroup = 0;
  double Share = 0.0;
  // Measured while it runs.
  double KernelSeconds = 0.0;
  double TransferSeconds = 0.0;
  std::uint64_t BytesIn = 0;
  std::uint64_t BytesOut = 0;
  std::uint64_t EarlyGroups = 0; // queued before the bytes its device lacked arrived
};

// What one buffer (a root buffer: arguments that alias share one entry) needs per slice.
struct BufferPlan {
  bool Writes = false;
  bool Merge = false;               // merged on the host after the slices (merge.hpp)
  std::vector<CombineSpan> Combine; // atomically updated bytes, merged by combination
  std::vector<RangeSet> Need;       // per slice: bytes that must be valid before it runs
  std::vector<RangeSet> Write;      // per slice: bytes it may write
  std::vector<RangeSet> Missing;    // per slice: Need minus what is already valid there
  // per slice: the part of Missing copied from another device of its real context
  // (LIBSPLIT_PEER_COPY), and the rest, sent from the host
  std::vector<std::vector<Buffer::PeerPart>> FromPeers;
  std::vector<RangeSet> FromHost;
};

// The buffer's own bytes, in root coordinates.
RangeSet wholeOf(Buffer &B);
// Analysis ranges are relative to the argument's pointer; validity is kept per root buffer.
RangeSet toRoot(const analysis::IntervalSet &Ranges, Buffer &B);
// Created CL_MEM_READ_ONLY (itself or the buffer it is a sub-buffer of).
bool readOnlyForKernels(const Buffer &B);
// Whether the region analysis shows the kernel writing argument ArgIndex (false when it does not
// know: no facts, or regions that do not match the launch).
bool analysisShowsWrite(const CompiledKernel *Facts, const LaunchRequest &R, size_t ArgIndex);
// Whether the launch may change buffer argument ArgIndex. A kernel that writes a buffer the app
// created CL_MEM_READ_ONLY is undefined by the specification and works natively (the device
// writes it in place): only a read-only buffer the analysis knows is not written stays as it
// was; one it shows written, or cannot tell about, counts as written.
bool mayWrite(const Buffer &B, const CompiledKernel *Facts, const LaunchRequest &R,
              size_t ArgIndex);

// Whether the compiler's region summary matches the launch's arguments.
bool hasRegions(const CompiledKernel &Facts, const LaunchRequest &R);
// How argument ArgIndex combines after the slices, or null when it is not a buffer the kernel
// updates with global atomics.
const analysis::AtomicMerge *atomicMergeOf(const CompiledKernel &Facts, const LaunchRequest &R,
                                           size_t ArgIndex);
// Why the launch's atomically updated buffers cannot be combined, or "" when they can.
std::string atomicsObstacle(const CompiledKernel &Facts, const LaunchRequest &R, bool Regions);
bool atomicsCombined(const CompiledKernel &Facts, const LaunchRequest &R);
// The root-buffer bytes of an atomically updated argument and how each combines.
std::vector<CombineSpan> combineSpans(const analysis::AtomicMerge &Plan, Buffer &Arg);
analysis::NDRange ndrangeOf(const LaunchRequest &R);
// The regions of slice S of the launch (analysis::evaluateSlice), from the kernel's memory of
// them where R has one.
analysis::SharedRegions sliceRegions(const CompiledKernel &Facts, const LaunchRequest &R,
                                     const analysis::NDRange &Range,
                                     const analysis::LaunchArgs &Scalars, const analysis::Slice &S);
analysis::LaunchArgs scalarsOf(const LaunchRequest &R);

// Per root buffer of the launch's arguments: what each of Slices (along dimension Dim) needs and
// may write, from the regions where the summary matches (Regions), else the whole buffer with
// its writes merged by diff; slices whose writes overlap merge, and a single slice writes in
// place.
std::map<Buffer *, BufferPlan> planBuffers(const CompiledKernel &Facts, const LaunchRequest &R,
                                           const std::vector<Slice> &Slices, bool Regions,
                                           const analysis::NDRange &Range,
                                           const analysis::LaunchArgs &Scalars, cl_uint Dim);

// How bytes that only another device holds may reach a lacking device besides the host copy's
// round trip (read back, then sent): device to device where both share a real context
// (LIBSPLIT_PEER_COPY), relayed through page-locked host memory (LIBSPLIT_RELAY, relays.hpp).
struct ByteRoutes {
  bool PeerCopy = false;
  bool Relay = false;
};
inline ByteRoutes routesOf(const config::Config &Settings) {
  return {Settings.PeerCopy, Settings.Relay};
}

// What a split would move against running whole on Home (planner::PricedBytes): bytes a device
// lacks, twice those that only another device holds (they come through the host) unless Routes
// take them there in one move (a peer copy; a relay, whose read and write overlap), plus, for a
// merged buffer, what each slice sends back.
planner::PricedBytes priceBytes(const std::map<Buffer *, BufferPlan> &Plans,
                                const std::vector<Slice> &Slices, ExecDevice &Home,
                                bool SeparateHardware, ByteRoutes Routes = {});
// The bytes each slice's device moves for it, priced as priceBytes prices them.
std::vector<double> bytesPerSlice(const std::map<Buffer *, BufferPlan> &Plans,
                                  const std::vector<Slice> &Slices, ByteRoutes Routes = {});

} // namespace libsplit
