// A buffer as the app sees it, and its copies: one real buffer per execution device (separate
// objects even on devices of one context, as on discrete GPUs), plus the host copy (the app's
// memory for CL_MEM_USE_HOST_PTR, else a staging copy owned by libsplit, allocated on first use).
//
// Validity: per place (host, each device) the exact set of bytes that hold the newest data.
// A sub-buffer keeps no state of its own: it forwards to its root buffer with its origin added.
//
// Deferred host writes (LIBSPLIT_DEFER=mprotect): bytes valid on the host may live in the app's
// memory (a PendingWrite, read through its protocol) rather than in the host copy. Pushes to
// devices read them there; code that reads hostData() directly calls holdOnHost() first, which
// copies them in.
//
// Locking contract: the data functions run on a queue's executor thread with the context's
// data lock held; real transfers run on device workers, which the caller waits for.
#pragma once

#include "buffer_home.hpp"
#include "byte_validity.hpp"
#include "handles.hpp"
#include "host_upload.hpp"
#include "pending_write.hpp"
#include "range_set.hpp"

#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace libsplit {

class Buffer : public _cl_mem, public RefCounted<Buffer> {
public:
  using DestructorCallback = void(CL_CALLBACK *)(cl_mem, void *);

  Buffer(std::shared_ptr<BufferHome> Home, cl_mem_flags Flags, size_t Size, void *HostPtr);
  Buffer(std::shared_ptr<Buffer> Parent, cl_mem_flags Flags, size_t Origin, size_t Size);
  ~Buffer();

  // Creates the primary device's real buffer (so the app gets the native error for a size the
  // device refuses). With AppDeviceOnAppMemory (a buffer on the app's memory,
  // CL_MEM_USE_HOST_PTR, in a context where nothing splits), that real buffer is made on the
  // app's memory too, as natively: a CPU device then works in place instead of receiving a copy
  // at the first launch (a CSR SpMV on PoCL took more than twice its native run).
  cl_int initialize(bool AppDeviceOnAppMemory = false);
  // Whether the buffer lives on the app's memory for the app's device alone although launches
  // may split (made with initialize's AppDeviceOnAppMemory where split devices are planned, then
  // marked so): its kernels run whole there (usesAppDeviceObjects).
  bool staysOnAppDevice() { return root().StaysOnAppDevice; }
  void stayOnAppDevice() { StaysOnAppDevice = true; }
  // For CL_MEM_COPY_HOST_PTR where the app's device alone gets a host write at the call: its
  // real buffer is made with the app's bytes, as natively (NVIDIA's copy at creation took less
  // than a write of the same bytes into an empty buffer). False when the real call fails: the
  // caller then initializes and writes as for any buffer.
  bool initializeCopied(ExecDevice &Device, const void *Source);
  // Made so on a device that is not a CPU, the buffer's first command there may wait for the
  // driver's upload of those bytes (NVIDIA's sends them at the buffer's first use, in the queue
  // of that use): the index of that device until a launch there used the buffer, else -1. A
  // launch that would wait for that upload on the app's thread runs whole instead
  // (planner::firstLaunchInChunks). Root buffers.
  int initialUploadOwedOn() const {
    return root().InitialUploadOwedOn.load(std::memory_order_relaxed);
  }
  void usedOn(const ExecDevice &Device);

  // Root buffers: the byte at which the second device's writes began in the last two-device
  // split launch that wrote the buffer without a merge, if any: where its data is divided
  // between the devices, the cut the next launch over it keeps to move least (owner computes).
  // A hint for the planner, priced before use; under the context's data lock.
  // By: who made that split (a kernel, as an identity only; null where unknown).
  std::optional<std::size_t> splitEdge() { return root().SplitEdge; }
  // Root buffers: the last spread probe (LaunchPlanner::noteSpreadProbe) that spread this
  // buffer's bytes to the split devices, 0 if none.
  std::uint64_t spreadProbe() const { return root().SpreadProbe.load(std::memory_order_acquire); }
  void setSpreadProbe(std::uint64_t Probe) {
    root().SpreadProbe.store(Probe, std::memory_order_release);
  }
  const void *splitEdgeBy() { return root().SplitEdgeBy; }
  void setSplitEdge(std::optional<std::size_t> Edge, const void *By = nullptr) {
    root().SplitEdge = Edge;
    root().SplitEdgeBy = Edge ? By : nullptr;
  }

  // The app's context (a buffer of a unit test's home has none).
  Context &context() const { return *Home->appContext(); }
  BufferHome &home() const { return *Home; }
  cl_mem_flags flags() const { return Flags; }
  size_t size() const { return Size; }
  void *hostPtr() const { return HostPtr; }
  Buffer *parent() const { return Parent.get(); }
  size_t origin() const { return Origin; }
  Buffer &root() { return Parent ? Parent->root() : *this; }
  const Buffer &root() const { return Parent ? Parent->root() : *this; }
  size_t rootOffset() const { return Parent ? Parent->rootOffset() + Origin : 0; }

  // This buffer's real object on a device (created on first use); null with Error set when the
  // device cannot hold it (e.g. a sub-buffer origin its alignment rules refuse).
  cl_mem realOn(ExecDevice &Device, cl_int &Error);

  // Host-side data of the root buffer (the staging copy is allocated on first use). Bytes of
  // pending deferred writes are not there until holdOnHost().
  std::uint8_t *hostData();

  // In root-buffer byte coordinates.
  RangeSet missingOn(std::size_t DeviceIndex, const RangeSet &Wanted);
  // Makes Wanted valid on the host (deferred writes stay where they are).
  cl_int fetchToHost(const RangeSet &Wanted);
  // fetchToHost in steps, for a launch that queues work behind the reads before it waits for
  // them: which device sends which of Wanted's bytes the host lacks (the host pages they land on
  // settled first); the reads of one device's parts enqueued on its queue, not waited for; and
  // once the caller has waited for them all (a marker behind them on each queue), the bytes read
  // into a staging copy brought into the host copy and Wanted marked valid there.
  struct HostFetch {
    Buffer *Root;
    ExecDevice *Device;
    cl_mem Source;
    RangeSet Ranges;
    const std::uint8_t *Staged = nullptr; // its spans, one after the other, where read there
  };
  cl_int planFetchToHost(const RangeSet &Wanted, std::vector<HostFetch> &Parts);
  // Parts: all of one device. Into the backend's read staging where it has one and they are a
  // few spans (a halo), else straight into the host copy.
  static cl_int enqueueFetches(const std::vector<HostFetch *> &Parts);
  void fetchedToHost(const RangeSet &Wanted, const std::vector<HostFetch> &Parts);
  // Makes Wanted valid in hostData() itself, deferred writes copied in, for code that reads it.
  cl_int holdOnHost(const RangeSet &Wanted);
  // Runs on the device's worker: writes host data of Ranges into the device copy.
  cl_int pushOnWorker(ExecDevice &Device, const RangeSet &Ranges);
  // The same without waiting for the writes: the bytes are first copied into a new element of
  // Staging, which must stay until a later command of Device's queue has ended. Ranges that
  // deferred writes hold, or of many spans, go as pushOnWorker sends them (waited for).
  cl_int sendStagedOnWorker(ExecDevice &Device, const RangeSet &Ranges,
                            std::deque<std::vector<std::uint8_t>> &Staging);
  // Of Missing (root coordinates), the bytes only devices hold (not the host) that another
  // device of Device's real context holds, by that device: a launch copies them device to device
  // (copyFromPeerOnWorker) instead of through the host. Root buffers.
  struct PeerPart {
    ExecDevice *Peer;
    RangeSet Ranges;
    // Small buffers of Peer's context that Ranges are first copied into on Peer's queue, one per
    // span (stageOnPeer), and the event of Peer's queue after those copies.
    std::vector<cl_mem> Stages;
    cl_event Staged = nullptr;
  };
  std::vector<PeerPart> peerParts(const ExecDevice &Device, const RangeSet &Missing);
  // Of Missing (root coordinates), the bytes the host lacks that another device holds, by that
  // device, where they go faster relayed from that device to Device through page-locked host
  // memory (relayOnWorker, memory/relay.hpp) than fetched into the host copy and sent from
  // there: parts of at least MinRelayBytes in at most MostRelaySpans spans (a halo's few rows
  // keep the host copy's way, tuned for their latency; a column's many rows its rectangles).
  // None where the backend has no page-locked memory. Root buffers.
  struct RelayPart {
    ExecDevice *From;
    RangeSet Ranges;
    double Seconds = 0.0; // how long the relay took, once run
  };
  static constexpr std::size_t MinRelayBytes = std::size_t{1} << 20, MostRelaySpans = 64;
  // ReserveRings: each part's ring is allocated now (false: a price, nothing is relayed).
  std::vector<RelayPart> relayParts(const ExecDevice &Device, const RangeSet &Missing,
                                    bool ReserveRings = true);
  // Runs on Part.From's worker: Part's bytes from From's copy into Device's, enqueued on both
  // queues behind what each was given so far; returns once Device holds them (the caller marks
  // them valid there).
  cl_int relayOnWorker(ExecDevice &Device, RelayPart &Part);
  // Enqueues on Part.Peer's queue the copies of Part.Ranges from Peer's copy into staging buffers
  // of their own: behind what Peer was given so far, before what it is given next. (NVIDIA's
  // driver moves a whole buffer of a context of several devices to the device whose queue uses
  // it: a copy between two devices' full copies moved both of them every launch, a staging
  // buffer moves only the bytes copied.) The caller then marks Peer's queue (Part.Staged).
  cl_int stageOnPeer(PeerPart &Part);
  // Runs on Device's worker: enqueues on its queue the copies of a staged part into Device's
  // copy, to start once Part.Staged has completed. The caller marks them valid on Device once
  // enqueued, and releases the staging buffers (each is freed once its copies have run).
  cl_int copyFromPeerOnWorker(ExecDevice &Device, const PeerPart &Part);
  void markValidOn(std::size_t DeviceIndex, const RangeSet &Ranges);
  // Marked valid for a copy that never ran (ByteValidity::forgetOn).
  void forgetOn(std::size_t DeviceIndex, const RangeSet &Ranges);
  void wroteOn(std::size_t DeviceIndex, const RangeSet &Ranges);
  void wroteOnHost(const RangeSet &Ranges);
  // The same for this buffer's own bytes, without building a set where nothing changes (the
  // common launch, run where the buffer already is): whether the device holds all of them, and
  // that a kernel there wrote them.
  bool wholeValidOn(std::size_t DeviceIndex);
  void wroteWholeOn(std::size_t DeviceIndex);
  bool validOnHost(const RangeSet &Ranges);
  // The part of Wanted the host lacks (only a device holds its newest data).
  RangeSet missingOnHost(const RangeSet &Wanted);
  // Nobody (host or kernel) has written the buffer yet: its contents are undefined, so a device
  // may start from whatever its copy holds instead of receiving the host's zeros.
  bool neverWritten() { return !root().Valid.everWritten(); }
  // The root's ByteValidity::generation, without the data lock.
  std::uint64_t validityGeneration() const { return root().Valid.generation(); }

  // Copies [Offset, Offset + Bytes) of this buffer into Destination, from wherever each byte is
  // valid (device reads run in parallel). ReadOn, where given: whether that device's queue served
  // part of it (its blocking read ran behind every command enqueued there before).
  cl_int read(size_t Offset, size_t Bytes, void *Destination, const ExecDevice *ReadOn = nullptr,
              bool *ReadThere = nullptr);
  // Whether Device holds every byte of [Offset, Offset + Bytes) of this buffer.
  bool validOn(const ExecDevice &Device, size_t Offset, size_t Bytes);
  // Bytes [SourceBase, SourceBase + Bytes) of Source's root into this buffer at Offset, on
  // Device's in-order queue, device side, without waiting (as clEnqueueCopyBuffer is natively),
  // where Device holds all of those source bytes: the copied bytes are then valid there alone.
  // Returns false, having done nothing, where it does not (the copy then goes through the host).
  bool copyOnDevice(Buffer &Source, size_t SourceBase, size_t Offset, size_t Bytes,
                    ExecDevice &Device, cl_int &Error);
  // [Offset, Offset + Bytes) of this buffer filled with Pattern on Device's in-order queue,
  // device side, without waiting (as clEnqueueFillBuffer is natively): those bytes are then
  // valid there alone. Returns the device's error, as natively.
  cl_int fillOnDevice(const std::vector<std::uint8_t> &Pattern, size_t Offset, size_t Bytes,
                      ExecDevice &Device);
  // The same copy where Device holds all of it (validOn): enqueued on Device's in-order queue
  // without waiting, as a non-blocking read is natively; the bytes are in Destination once a
  // later command of that queue has ended. The real buffer must stay alive until then.
  cl_int readLater(ExecDevice &Device, size_t Offset, size_t Bytes, void *Destination);
  // Where the bytes of a host write come from.
  enum class HostSource {
    App,         // the app's memory: deferred (mprotect) or pushed at once (off) as configured
    AppUnstable, // the app's memory that must not be protected (its caller's stack): copied
    HostCopy,    // libsplit's own host copy (a copy between buffers): copied
  };
  // Host data replaces [Offset, Offset + Bytes) of this buffer. To (LIBSPLIT_UPLOAD): the
  // devices that get the bytes now. LeaveRunning: where the bytes go straight from the app's
  // memory to To's app device, that write is enqueued on the device's in-order queue without
  // waiting, as a non-blocking write is natively (Source must then stay as it is until a later
  // command of that queue has ended); returns whether it was.
  bool write(size_t Offset, size_t Bytes, const void *Source, HostSource From,
             const HostUpload &To = {}, bool LeaveRunning = false);
  // After a host write (LIBSPLIT_UPLOAD): sends the devices To names the part of RootRanges
  // they lack, now, from the host. A failure is not the write's: a device gets the bytes before
  // its next use.
  void upload(const HostUpload &To, const RangeSet &RootRanges);
  void upload(const HostUpload &To, size_t Offset, size_t Bytes); // this buffer's coordinates
  // What the last split launch using this buffer needed of it on each device (indexed by
  // execution device): a later host write sends each device its part of it (HostUpload).
  void expectUse(std::vector<RangeSet> NeedByDevice);

  // A CL_MEM_USE_HOST_PTR buffer whose memory the app may rewrite without a write or a map, as
  // it may where its device works on that memory in place (Context::watchHostMemory): a copy of
  // the bytes as libsplit left them there is kept (snapshotHostMemory, at each point where the
  // app synchronizes: all of them the first time, then what libsplit brought there, Refreshed),
  // and the first command that uses the buffer after that takes the parts the app changed as
  // written by the host (absorbHostChanges). Root buffers; data lock held.
  void snapshotHostMemory(const RangeSet *Refreshed = nullptr);
  void absorbHostChanges();

  void addDestructorCallback(DestructorCallback Fn, void *UserData);
  // The property list the app created it with (clCreateBufferWithProperties), for
  // CL_MEM_PROPERTIES: empty when it gave none.
  const std::vector<cl_mem_properties> &properties() const { return Properties; }
  void setProperties(std::vector<cl_mem_properties> Given) { Properties = std::move(Given); }
  std::atomic<cl_uint> MapCount{0};

  // Live mappings (clEnqueueMapBuffer), so that unmapping knows what the host may have written.
  struct Mapping {
    void *Pointer;
    size_t Offset; // in this buffer
    size_t Bytes;
    cl_map_flags Flags;
  };
  void addMapping(const Mapping &M);
  bool takeMapping(void *Pointer, Mapping &M);

private:
  struct FreeDeleter {
    void operator()(std::uint8_t *P) const { std::free(P); }
  };

  std::shared_ptr<BufferHome> Home;
  std::shared_ptr<Buffer> Parent;
  cl_mem_flags Flags;
  size_t Size;
  size_t Origin = 0;
  void *HostPtr = nullptr;
  bool StaysOnAppDevice = false;             // root buffers: see staysOnAppDevice
  std::atomic<int> InitialUploadOwedOn{-1};  // root buffers: see initialUploadOwedOn
  std::atomic<std::uint64_t> SpreadProbe{0}; // root buffers: see spreadProbe
  std::optional<std::size_t> SplitEdge;      // root buffers: see splitEdge
  const void *SplitEdgeBy = nullptr;

  std::mutex Mutex;         // guards Real and Staging creation
  std::vector<cl_mem> Real; // per execution device, may be null
  std::unique_ptr<std::uint8_t, FreeDeleter> Staging;

  // A pending deferred write of [Begin, Begin + length) (root coordinates); Live: the part whose
  // newest host data it still holds. Live parts of different writes never overlap.
  struct Deferred {
    size_t Begin;
    std::shared_ptr<PendingWrite> Write;
    RangeSet Live;
  };
  std::vector<Deferred> Pending; // root buffers only; under the context's data lock
  // Newer data replaces Ranges: pending writes stop holding them.
  void dropDeferred(const RangeSet &Ranges);
  // Copies the host-valid bytes of [Begin, End) into Out, deferred ones from where they live.
  void copyHostBytes(size_t Begin, size_t End, std::uint8_t *Out);
  // Sends Ranges (host-valid) to Device's copy, deferred bytes straight from the app's memory.
  cl_int pushHostBytes(ExecDevice &Device, const RangeSet &Ranges);
  // Whether Pointer lies in this root buffer's staging copy.
  bool inHostCopy(const void *Pointer);
  // The app's memory straight to one device's copy of [Begin, Begin + Bytes), waited for
  // unless LeaveRunning (Buffer::write).
  cl_int sendFromApp(ExecDevice &Device, size_t Begin, size_t Bytes, const void *Source,
                     bool LeaveRunning);
  // LIBSPLIT_DEFER=off: the app's write goes to every device now.
  cl_int pushEverywhere(const RangeSet &Ranges);
  // The host-valid bytes of Ranges that Device lacks, sent now and then valid there.
  void sendNow(ExecDevice &Device, const RangeSet &Ranges);
  // Each splitting device gets the part of Ranges it is expected to use: what it needed at the
  // last split launch, or before any, its share of the buffer by the first split's weights
  // (slices follow device order, so a buffer laid out along the split dimension matches).
  // Everything, when given, gets all of Ranges with the others (the app's device, where the
  // planner may run a kernel whole).
  void sendWhereUsed(const RangeSet &Ranges, ExecDevice *Everything = nullptr);
  std::vector<RangeSet> ExpectedUse;      // root buffers only; empty before a split launch
  ByteValidity Valid;                     // root buffers only
  std::vector<std::uint8_t> HostSnapshot; // snapshotHostMemory's copy of the app's memory
  bool SnapshotArmed = false;             // to compare at the next command that uses the buffer
  std::vector<std::pair<DestructorCallback, void *>> DestructorCallbacks;
  std::vector<cl_mem_properties> Properties;
  std::vector<Mapping> Mappings;
};

Buffer *asBuffer(cl_mem Handle);

} // namespace libsplit
