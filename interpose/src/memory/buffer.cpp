#include "buffer.hpp"
#include "relay.hpp"
#include "strided_runs.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>

namespace libsplit {

namespace {
constexpr cl_mem_flags KernelAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

} // namespace

Buffer::Buffer(std::shared_ptr<BufferHome> Home, cl_mem_flags Flags, size_t Size, void *HostPtr)
    : Home(std::move(Home)), Flags(Flags), Size(Size),
      HostPtr((Flags & CL_MEM_USE_HOST_PTR) ? HostPtr : nullptr),
      // The app's own memory (USE_HOST_PTR, COPY_HOST_PTR) holds its data.
      Valid(this->Home->devices().size(), Size, HostPtr != nullptr) {
  initHandle(*this, HandleMagic::Mem);
  Real.assign(this->Home->devices().size(), nullptr);
  this->Home->services().Live.add(static_cast<_cl_mem *>(this));
}

Buffer::Buffer(std::shared_ptr<Buffer> Parent, cl_mem_flags Flags, size_t Origin, size_t Size)
    : Home(Parent->Home), Parent(std::move(Parent)), Flags(Flags), Size(Size), Origin(Origin) {
  initHandle(*this, HandleMagic::Mem);
  Real.assign(Home->devices().size(), nullptr);
  if (this->Parent->HostPtr)
    HostPtr = static_cast<std::uint8_t *>(this->Parent->HostPtr) + Origin;
  Home->services().Live.add(static_cast<_cl_mem *>(this));
}

Buffer::~Buffer() {
  MemoryServices &Services = Home->services();
  Services.Live.remove(static_cast<_cl_mem *>(this));
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend(); ++It)
    It->first(this, It->second);
  for (cl_mem M : Real)
    if (M)
      Services.Backend.release(M);
}

cl_int Buffer::initialize(bool AppDeviceOnAppMemory) {
  cl_int Error = CL_SUCCESS;
  ExecDevice &App = Home->primary();
  if (!Parent && HostPtr && AppDeviceOnAppMemory) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Real[App.Index] = Home->services().Backend.createBuffer(
        App.RealContext, (Flags & KernelAccessFlags) | CL_MEM_USE_HOST_PTR, Size, HostPtr, Error);
    if (!Real[App.Index])
      return Error;
    // What the implementation keeps of the app's memory is the app's data: valid there. Where
    // it works in place, libsplit's later copies between the two move identical bytes.
    Valid.markValidOn(App.Index, RangeSet(0, Size));
    return CL_SUCCESS;
  }
  if (!realOn(App, Error))
    return Error;
  if (!Parent && (Flags & CL_MEM_COPY_HOST_PTR))
    return CL_SUCCESS; // the caller copies the data in with write()
  return CL_SUCCESS;
}

bool Buffer::initializeCopied(ExecDevice &Device, const void *Source) {
  cl_int Error = CL_SUCCESS;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Real[Device.Index] = Home->services().Backend.createBuffer(
        Device.RealContext, (Flags & KernelAccessFlags) | CL_MEM_COPY_HOST_PTR, Size,
        const_cast<void *>(Source), Error);
    if (!Real[Device.Index])
      return false;
  }
  wroteOn(Device.Index, RangeSet(0, Size));
  if (!(Device.Type & CL_DEVICE_TYPE_CPU))
    InitialUploadOwedOn.store(static_cast<int>(Device.Index), std::memory_order_relaxed);
  return true;
}

void Buffer::usedOn(const ExecDevice &Device) {
  std::atomic<int> &Owed = root().InitialUploadOwedOn;
  if (Owed.load(std::memory_order_relaxed) == static_cast<int>(Device.Index))
    Owed.store(-1, std::memory_order_relaxed);
}

cl_mem Buffer::realOn(ExecDevice &Device, cl_int &Error) {
  std::lock_guard<std::mutex> Lock(Mutex);
  cl_mem &Slot = Real[Device.Index];
  Error = CL_SUCCESS;
  if (Slot)
    return Slot;
  DeviceBackend &Backend = Home->services().Backend;
  if (Parent) {
    cl_mem ParentReal = Parent->realOn(Device, Error);
    if (!ParentReal)
      return nullptr;
    Slot = Backend.createSubBuffer(ParentReal, Flags & KernelAccessFlags, Origin, Size, Error);
    return Slot;
  }
  Slot = Backend.createBuffer(Device.RealContext, Flags & KernelAccessFlags, Size, nullptr, Error);
  return Slot;
}

std::uint8_t *Buffer::hostData() {
  if (Parent)
    return Parent->hostData() + Origin;
  if (HostPtr)
    return static_cast<std::uint8_t *>(HostPtr);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Staging)
    Staging.reset(static_cast<std::uint8_t *>(std::calloc(Size ? Size : 1, 1)));
  return Staging.get();
}

RangeSet Buffer::missingOn(std::size_t DeviceIndex, const RangeSet &Wanted) {
  if (Parent)
    return root().missingOn(DeviceIndex, Wanted);
  return Valid.missingOn(DeviceIndex, Wanted);
}

bool Buffer::validOnHost(const RangeSet &Ranges) {
  if (Parent)
    return root().validOnHost(Ranges);
  return Valid.validOnHost(Ranges);
}

RangeSet Buffer::missingOnHost(const RangeSet &Wanted) {
  if (Parent)
    return root().missingOnHost(Wanted);
  return Valid.missingOnHost(Wanted);
}

cl_int Buffer::planFetchToHost(const RangeSet &Wanted, std::vector<HostFetch> &Parts) {
  if (Parent)
    return root().planFetchToHost(Wanted, Parts);
  RangeSet Missing = Valid.missingOnHost(Wanted);
  if (Missing.empty())
    return CL_SUCCESS;
  std::uint8_t *Host = hostData();
  // Devices write there, possibly by DMA, which a write-protected page would refuse: the app's
  // memory (USE_HOST_PTR), or a staging copy the app used as the source of a deferred write
  // (a mapped pointer).
  for (const Span &S : Missing.spans())
    Home->services().Deferred.settle(Host + S.Begin, S.size(), DeferredWrites::Settle::BeforeWrite);
  auto &Devices = Home->devices();
  for (std::size_t D = 0; D < Devices.size() && !Missing.empty(); ++D) {
    RangeSet Here = Valid.on(D).intersection(Missing);
    if (Here.empty())
      continue;
    Missing.subtract(Here);
    cl_int Error = CL_SUCCESS;
    cl_mem Source = realOn(*Devices[D], Error);
    if (!Source)
      return Error;
    Parts.push_back({this, Devices[D].get(), Source, std::move(Here)});
  }
  return CL_SUCCESS;
}

namespace {
// What a read staging takes: a halo's few spans, not a whole buffer's gather.
constexpr std::size_t MostStagedSpans = 64, MostStagedBytes = std::size_t{4} << 20;
} // namespace

cl_int Buffer::enqueueFetches(const std::vector<HostFetch *> &Parts) {
  if (Parts.empty())
    return CL_SUCCESS;
  ExecDevice &Device = *Parts.front()->Device;
  DeviceBackend &Backend = Parts.front()->Root->Home->services().Backend;
  std::size_t Staged = 0;
  for (const HostFetch *Part : Parts)
    Staged += Part->Ranges.spans().size() <= MostStagedSpans ? Part->Ranges.totalBytes() : 0;
  std::uint8_t *Staging = Staged && Staged <= MostStagedBytes
                              ? Backend.readStaging(Device.RealContext, Device.RealQueue, Staged)
                              : nullptr;
  for (HostFetch *Part : Parts) {
    const bool ToStaging = Staging && Part->Ranges.spans().size() <= MostStagedSpans;
    if (ToStaging) {
      Part->Staged = Staging;
      for (const Span &S : Part->Ranges.spans()) {
        if (cl_int E =
                Backend.read(Device.RealQueue, Part->Source, false, S.Begin, S.size(), Staging);
            E != CL_SUCCESS)
          return E;
        Staging += S.size();
      }
      continue;
    }
    std::uint8_t *Host = Part->Root->hostData();
    for (const StridedRun &R : stridedRuns(Part->Ranges))
      if (cl_int E = R.Count == 1 ? Backend.read(Device.RealQueue, Part->Source, false, R.Begin,
                                                 R.Bytes, Host + R.Begin)
                                  : Backend.readStrided(Device.RealQueue, Part->Source, false,
                                                        R.Begin, R.Bytes, R.Pitch, R.Count, Host);
          E != CL_SUCCESS)
        return E;
  }
  return CL_SUCCESS;
}

void Buffer::fetchedToHost(const RangeSet &Wanted, const std::vector<HostFetch> &Parts) {
  if (Parent)
    return root().fetchedToHost(Wanted, Parts);
  std::uint8_t *Host = hostData();
  for (const HostFetch &Part : Parts) {
    if (Part.Root != this || !Part.Staged)
      continue;
    const std::uint8_t *From = Part.Staged;
    for (const Span &S : Part.Ranges.spans()) {
      std::copy(From, From + S.size(), Host + S.Begin);
      From += S.size();
    }
  }
  Valid.markValidOnHost(Wanted);
}

cl_int Buffer::fetchToHost(const RangeSet &Wanted) {
  std::vector<HostFetch> Parts;
  if (cl_int Error = planFetchToHost(Wanted, Parts); Error != CL_SUCCESS || Parts.empty())
    return Error;
  MemoryServices &Services = Home->services();
  std::vector<DeviceJob> Jobs;
  for (HostFetch &Part : Parts)
    Jobs.push_back({Part.Device, [&Services, &Part] {
                      const ScopedSpan Shown(Services.Spans, Part.Device->Name, "to host copy");
                      if (cl_int E = enqueueFetches({&Part}); E != CL_SUCCESS)
                        return E;
                      return Services.Backend.finish(Part.Device->RealQueue);
                    }});
  cl_int Result = runOnDevices(std::move(Jobs));
  if (Result == CL_SUCCESS)
    fetchedToHost(Wanted, Parts);
  return Result;
}

cl_int Buffer::holdOnHost(const RangeSet &Wanted) {
  if (Parent)
    return root().holdOnHost(Wanted);
  if (cl_int Error = fetchToHost(Wanted); Error != CL_SUCCESS)
    return Error;
  std::uint8_t *Host = hostData();
  RangeSet Copied;
  for (Deferred &D : Pending) {
    const RangeSet Here = D.Live.intersection(Wanted);
    for (const Span &S : Here.spans())
      D.Write->copyOut(S.Begin - D.Begin, S.size(), Host + S.Begin);
    Copied.add(Here);
  }
  dropDeferred(Copied);
  return CL_SUCCESS;
}

cl_int Buffer::pushOnWorker(ExecDevice &Device, const RangeSet &Ranges) {
  if (Ranges.empty())
    return CL_SUCCESS;
  return root().pushHostBytes(Device, Ranges);
}

cl_int Buffer::pushHostBytes(ExecDevice &Device, const RangeSet &Ranges) {
  cl_int Error = CL_SUCCESS;
  cl_mem Target = realOn(Device, Error);
  if (!Target)
    return Error;
  DeviceBackend &Backend = Home->services().Backend;
  auto send = [&](size_t Begin, size_t Bytes, const void *From) {
    return Backend.write(Device.RealQueue, Target, false, Begin, Bytes, From);
  };
  RangeSet FromStaging = Ranges;
  for (const Deferred &D : Pending)
    FromStaging.subtract(D.Live);
  const std::uint8_t *Host = FromStaging.empty() ? nullptr : hostData();
  for (const StridedRun &R : stridedRuns(FromStaging))
    if ((Error = R.Count == 1
                     ? send(R.Begin, R.Bytes, Host + R.Begin)
                     : Backend.writeStrided(Device.RealQueue, Target, false, R.Begin, R.Bytes,
                                            R.Pitch, R.Count, Host)) != CL_SUCCESS)
      return Error;
  // Deferred bytes go straight from the app's memory (or the staging copy of pages preserved
  // since). The device reads them after the call returns: the reads are checked once it has
  // finished, and pages preserved meanwhile are sent again from their staging copy.
  struct Sent {
    const Deferred *From;
    PendingWrite::Piece Piece;
  };
  std::deque<PendingWrite::ReadScope> Reading;
  std::vector<Sent> FromApp;
  for (const Deferred &D : Pending) {
    const RangeSet Here = D.Live.intersection(Ranges);
    if (Here.empty())
      continue;
    Reading.emplace_back(*D.Write);
    for (const Span &S : Here.spans())
      for (const PendingWrite::Piece &P : D.Write->pieces(S.Begin - D.Begin, S.size())) {
        if ((Error = send(D.Begin + P.Offset, P.Length, P.From)) != CL_SUCCESS)
          return Error;
        if (P.FromApp)
          FromApp.push_back({&D, P});
      }
  }
  if ((Error = Backend.finish(Device.RealQueue)) != CL_SUCCESS || FromApp.empty())
    return Error;
  bool Resent = false;
  for (const Sent &S : FromApp)
    if (!S.From->Write->unchanged(S.Piece)) {
      for (const PendingWrite::Piece &P : S.From->Write->pieces(S.Piece.Offset, S.Piece.Length))
        if (!P.FromApp && (Error = send(S.From->Begin + P.Offset, P.Length, P.From)) != CL_SUCCESS)
          return Error;
      Resent = true;
    }
  return Resent ? Backend.finish(Device.RealQueue) : CL_SUCCESS;
}

cl_int Buffer::sendStagedOnWorker(ExecDevice &Device, const RangeSet &Ranges,
                                  std::deque<std::vector<std::uint8_t>> &Staging) {
  if (Parent)
    return root().sendStagedOnWorker(Device, Ranges, Staging);
  if (Ranges.empty())
    return CL_SUCCESS;
  // A stencil's halo is a span or two; rows of a column go as one rectangle by pushHostBytes.
  constexpr std::size_t MostSpans = 16;
  bool InDeferred = false;
  for (const Deferred &D : Pending)
    InDeferred = InDeferred || !D.Live.intersection(Ranges).empty();
  if (InDeferred || Ranges.spans().size() > MostSpans)
    return pushHostBytes(Device, Ranges);
  cl_int Error = CL_SUCCESS;
  cl_mem Target = realOn(Device, Error);
  if (!Target)
    return Error;
  const std::uint8_t *Host = hostData();
  std::vector<std::uint8_t> &Copy = Staging.emplace_back(Ranges.totalBytes());
  std::size_t At = 0;
  for (const Span &S : Ranges.spans()) {
    std::copy(Host + S.Begin, Host + S.End, Copy.data() + At);
    if ((Error = Home->services().Backend.write(Device.RealQueue, Target, false, S.Begin, S.size(),
                                                Copy.data() + At)) != CL_SUCCESS)
      return Error;
    At += S.size();
  }
  return CL_SUCCESS;
}

std::vector<Buffer::PeerPart> Buffer::peerParts(const ExecDevice &Device, const RangeSet &Missing) {
  if (Parent)
    return root().peerParts(Device, Missing);
  std::vector<PeerPart> Parts;
  RangeSet Rest = Valid.missingOnHost(Missing);
  for (const auto &Peer : Home->devices()) {
    if (Rest.empty())
      break;
    // Not between sub-devices of one device: on PoCL's pthread sub-devices such copies gave
    // wrong bytes about one run in two (jacobi2d), unexplained; through the host they do not.
    if (Peer.get() == &Device || Peer->RealContext != Device.RealContext ||
        (Peer->Visible && Peer->Visible == Device.Visible) ||
        !Peer->Ready.load(std::memory_order_acquire))
      continue;
    RangeSet Here = Valid.on(Peer->Index).intersection(Rest);
    if (Here.empty())
      continue;
    Rest.subtract(Here);
    Parts.push_back({Peer.get(), std::move(Here), {}, nullptr});
  }
  return Parts;
}

std::vector<Buffer::RelayPart> Buffer::relayParts(const ExecDevice &Device, const RangeSet &Missing,
                                                  bool ReserveRings) {
  if (Parent)
    return root().relayParts(Device, Missing, ReserveRings);
  std::vector<RelayPart> Parts;
  RangeSet Rest = Valid.missingOnHost(Missing);
  if (Rest.totalBytes() < MinRelayBytes)
    return Parts;
  DeviceBackend &Backend = Home->services().Backend;
  for (const auto &From : Home->devices()) {
    if (Rest.totalBytes() < MinRelayBytes)
      break;
    if (From.get() == &Device || !From->Ready.load(std::memory_order_acquire))
      continue;
    RangeSet Here = Valid.on(From->Index).intersection(Rest);
    if (Here.totalBytes() < MinRelayBytes || Here.spans().size() > MostRelaySpans)
      continue;
    // Allocated here, once per queue, so that a relay never lacks its ring once taken.
    const RelayRing Ring = relayRingFor(Here.totalBytes());
    if (ReserveRings &&
        !Backend.relayStaging(From->RealContext, From->RealQueue, Ring.SlotBytes * Ring.Slots))
      return Parts;
    Rest.subtract(Here);
    Parts.push_back({From.get(), std::move(Here)});
  }
  return Parts;
}

cl_int Buffer::relayOnWorker(ExecDevice &Device, RelayPart &Part) {
  if (Parent)
    return root().relayOnWorker(Device, Part);
  const auto Start = std::chrono::steady_clock::now();
  ExecDevice &From = *Part.From;
  cl_int Error = CL_SUCCESS;
  cl_mem Source = realOn(From, Error);
  if (!Source)
    return Error;
  cl_mem Target = realOn(Device, Error);
  if (!Target)
    return Error;
  MemoryServices &Services = Home->services();
  const ScopedSpan Shown(Services.Spans, Device.Name, "relay in");
  DeviceBackend &Backend = Services.Backend;
  RelayRing Ring = relayRingFor(Part.Ranges.totalBytes());
  Ring.Memory = Backend.relayStaging(From.RealContext, From.RealQueue, Ring.SlotBytes * Ring.Slots);
  if (!Ring.Memory)
    return CL_OUT_OF_HOST_MEMORY;
  Error = relayThroughRing(Backend, From.RealQueue, Source, Device.RealQueue, Target, Part.Ranges,
                           Ring);
  Part.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return Error;
}

cl_int Buffer::stageOnPeer(PeerPart &Part) {
  if (Parent)
    return root().stageOnPeer(Part);
  cl_int Error = CL_SUCCESS;
  ExecDevice &Peer = *Part.Peer;
  cl_mem Source = realOn(Peer, Error);
  if (!Source)
    return Error;
  DeviceBackend &Backend = Home->services().Backend;
  for (const Span &S : Part.Ranges.spans()) {
    cl_mem Stage =
        Backend.createBuffer(Peer.RealContext, CL_MEM_READ_WRITE, S.size(), nullptr, Error);
    if (!Stage)
      return Error;
    Part.Stages.push_back(Stage);
    if ((Error = Backend.copy(Peer.RealQueue, Source, S.Begin, Stage, 0, S.size(), {})) !=
        CL_SUCCESS)
      return Error;
  }
  return CL_SUCCESS;
}

cl_int Buffer::copyFromPeerOnWorker(ExecDevice &Device, const PeerPart &Part) {
  if (Parent)
    return root().copyFromPeerOnWorker(Device, Part);
  cl_int Error = CL_SUCCESS;
  cl_mem Target = realOn(Device, Error);
  if (!Target)
    return Error;
  DeviceBackend &Backend = Home->services().Backend;
  const std::vector<cl_event> After{Part.Staged};
  const std::vector<Span> Spans = Part.Ranges.spans();
  if (Spans.size() != Part.Stages.size())
    return CL_INVALID_VALUE; // a part not staged (stageOnPeer failed): never copied
  for (std::size_t I = 0; I < Spans.size(); ++I)
    if ((Error = Backend.copy(Device.RealQueue, Part.Stages[I], 0, Target, Spans[I].Begin,
                              Spans[I].size(), After)) != CL_SUCCESS)
      return Error;
  return CL_SUCCESS;
}

void Buffer::markValidOn(std::size_t DeviceIndex, const RangeSet &Ranges) {
  if (Parent)
    return root().markValidOn(DeviceIndex, Ranges);
  Valid.markValidOn(DeviceIndex, Ranges);
}

void Buffer::forgetOn(std::size_t DeviceIndex, const RangeSet &Ranges) {
  if (Parent)
    return root().forgetOn(DeviceIndex, Ranges);
  Valid.forgetOn(DeviceIndex, Ranges);
}

void Buffer::wroteOn(std::size_t DeviceIndex, const RangeSet &Ranges) {
  if (Parent)
    return root().wroteOn(DeviceIndex, Ranges);
  dropDeferred(Ranges);
  Valid.wroteOn(DeviceIndex, Ranges);
}

bool Buffer::wholeValidOn(std::size_t DeviceIndex) {
  const size_t Base = rootOffset();
  return root().Valid.wholeOn(DeviceIndex, Base, Base + Size);
}

void Buffer::wroteWholeOn(std::size_t DeviceIndex) {
  Buffer &Root = root();
  const size_t Base = rootOffset(), End = Base + Size;
  if (!Root.Pending.empty() || !Root.Valid.onlyOn(DeviceIndex, Base, End))
    Root.wroteOn(DeviceIndex, RangeSet(Base, End));
}

void Buffer::wroteOnHost(const RangeSet &Ranges) {
  if (Parent)
    return root().wroteOnHost(Ranges);
  dropDeferred(Ranges);
  Valid.wroteOnHost(Ranges);
}

void Buffer::snapshotHostMemory(const RangeSet *Refreshed) {
  if (Parent || !HostPtr)
    return;
  const auto *Host = static_cast<const std::uint8_t *>(HostPtr);
  if (!Refreshed || HostSnapshot.size() != Size) {
    HostSnapshot.assign(Host, Host + Size);
  } else {
    for (const Span &S : Refreshed->spans())
      std::memcpy(HostSnapshot.data() + S.Begin, Host + S.Begin, S.End - S.Begin);
  }
  SnapshotArmed = true;
}

void Buffer::absorbHostChanges() {
  if (Parent)
    return root().absorbHostChanges();
  if (!SnapshotArmed || !HostPtr)
    return;
  SnapshotArmed = false;
  // Compared a block at a time: a changed block is taken whole (its unchanged bytes are the
  // host's newest too). The copy follows the memory, so that the next synchronization needs
  // to copy only what it brings there.
  constexpr size_t Block = 4096;
  const auto *Host = static_cast<const std::uint8_t *>(HostPtr);
  RangeSet Changed;
  for (size_t At = 0; At < Size; At += Block) {
    const size_t Length = std::min(Block, Size - At);
    if (std::memcmp(Host + At, HostSnapshot.data() + At, Length) != 0) {
      std::memcpy(HostSnapshot.data() + At, Host + At, Length);
      Changed.add(At, At + Length);
    }
  }
  if (!Changed.empty())
    wroteOnHost(Changed);
}

cl_int Buffer::read(size_t Offset, size_t Bytes, void *Destination, const ExecDevice *ReadOn,
                    bool *ReadThere) {
  Buffer &Root = root();
  const size_t Base = rootOffset() + Offset;
  RangeSet Wanted(Base, Base + Bytes);
  auto *Out = static_cast<std::uint8_t *>(Destination);
  // Devices (the vendor's threads, DMA) write into the app's memory: it must be writable.
  MemoryServices &Services = Home->services();
  Services.Deferred.settle(Out, Bytes, DeferredWrites::Settle::BeforeWrite);
  // Bytes valid on the host are copied directly; the rest comes from the devices, each
  // range from one device holding it, all devices at once.
  RangeSet FromHost = Root.Valid.onHost().intersection(Wanted);
  RangeSet Rest = Wanted;
  Rest.subtract(FromHost);
  std::vector<DeviceJob> Jobs;
  auto &Devices = Home->devices();
  for (std::size_t D = 0; D < Devices.size() && !Rest.empty(); ++D) {
    RangeSet Here = Root.Valid.on(D).intersection(Rest);
    if (Here.empty())
      continue;
    Rest.subtract(Here);
    cl_int Error = CL_SUCCESS;
    cl_mem Source = Root.realOn(*Devices[D], Error);
    if (!Source)
      return Error;
    ExecDevice *Device = Devices[D].get();
    if (ReadThere && Device == ReadOn)
      *ReadThere = true;
    // Blocking reads: into the app's pageable memory, NVIDIA's were faster than non-blocking
    // ones and a clFinish (conv2d's result on an H200, interleaved rounds).
    Jobs.push_back({Device, [&Services, Device, Source, Here, Out, Base] {
                      const ScopedSpan Shown(Services.Spans, Device->Name, "read to app");
                      for (const Span &S : Here.spans()) {
                        cl_int E = Services.Backend.read(Device->RealQueue, Source, true, S.Begin,
                                                         S.size(), Out + (S.Begin - Base));
                        if (E != CL_SUCCESS)
                          return E;
                      }
                      return CL_SUCCESS;
                    }});
  }
  FromHost.add(Rest); // valid nowhere cannot happen; the host copy is the safe answer
  for (const Span &S : FromHost.spans())
    Root.copyHostBytes(S.Begin, S.End, Out + (S.Begin - Base));
  return runOnDevices(std::move(Jobs));
}

bool Buffer::validOn(const ExecDevice &Device, size_t Offset, size_t Bytes) {
  const size_t Base = rootOffset() + Offset;
  return root().Valid.wholeOn(Device.Index, Base, Base + Bytes);
}

bool Buffer::copyOnDevice(Buffer &Source, size_t SourceBase, size_t Offset, size_t Bytes,
                          ExecDevice &Device, cl_int &Error) {
  Error = CL_SUCCESS;
  Buffer &From = Source.root(), &To = root();
  const size_t TargetBase = rootOffset() + Offset;
  if (!From.Valid.wholeOn(Device.Index, SourceBase, SourceBase + Bytes))
    return false;
  cl_mem Real = From.realOn(Device, Error);
  cl_mem Target = Real ? To.realOn(Device, Error) : nullptr;
  if (!Target)
    return false;
  DeviceBackend &Backend = Home->services().Backend;
  Error = runOnDevices({{&Device, [&] {
                           return Backend.copy(Device.RealQueue, Real, SourceBase, Target,
                                               TargetBase, Bytes, {});
                         }}});
  if (Error != CL_SUCCESS)
    return true; // the device's own answer, as natively
  To.wroteOn(Device.Index, RangeSet(TargetBase, TargetBase + Bytes));
  return true;
}

cl_int Buffer::fillOnDevice(const std::vector<std::uint8_t> &Pattern, size_t Offset, size_t Bytes,
                            ExecDevice &Device) {
  Buffer &To = root();
  const size_t Base = rootOffset() + Offset;
  cl_int Error = CL_SUCCESS;
  cl_mem Target = To.realOn(Device, Error);
  if (!Target)
    return Error;
  DeviceBackend &Backend = Home->services().Backend;
  Error = runOnDevices({{&Device, [&] {
                           return Backend.fill(Device.RealQueue, Target, Pattern.data(),
                                               Pattern.size(), Base, Bytes);
                         }}});
  if (Error == CL_SUCCESS)
    To.wroteOn(Device.Index, RangeSet(Base, Base + Bytes));
  return Error;
}

cl_int Buffer::readLater(ExecDevice &Device, size_t Offset, size_t Bytes, void *Destination) {
  Buffer &Root = root();
  MemoryServices &Services = Home->services();
  Services.Deferred.settle(Destination, Bytes, DeferredWrites::Settle::BeforeWrite);
  cl_int Error = CL_SUCCESS;
  cl_mem Source = Root.realOn(Device, Error);
  if (!Source)
    return Error;
  Device.Worker->runHere([&] {
    Error = Services.Backend.read(Device.RealQueue, Source, false, rootOffset() + Offset, Bytes,
                                  Destination);
  });
  return Error;
}

void Buffer::copyHostBytes(size_t Begin, size_t End, std::uint8_t *Out) {
  RangeSet FromStaging(Begin, End);
  for (const Deferred &D : Pending) {
    const RangeSet Here = D.Live.intersection(RangeSet(Begin, End));
    for (const Span &S : Here.spans())
      D.Write->copyOut(S.Begin - D.Begin, S.size(), Out + (S.Begin - Begin));
    FromStaging.subtract(Here);
  }
  if (FromStaging.empty())
    return;
  const std::uint8_t *Host = hostData();
  for (const Span &S : FromStaging.spans())
    std::memcpy(Out + (S.Begin - Begin), Host + S.Begin, S.size());
}

void Buffer::dropDeferred(const RangeSet &Ranges) {
  for (auto It = Pending.begin(); It != Pending.end();) {
    const RangeSet Here = It->Live.intersection(Ranges);
    for (const Span &S : Here.spans())
      It->Write->drop(S.Begin - It->Begin, S.size());
    It->Live.subtract(Here);
    It = It->Live.empty() ? Pending.erase(It) : It + 1; // the last owner retires the write
  }
}

bool Buffer::write(size_t Offset, size_t Bytes, const void *Source, HostSource From,
                   const HostUpload &To, bool LeaveRunning) {
  Buffer &Root = root();
  const size_t Base = rootOffset() + Offset;
  const RangeSet Written(Base, Base + Bytes);
  MemoryServices &Services = Home->services();
  const config::DeferMode Mode = Services.Defer;
  // For the app's device, as natively: straight from the app's memory, and that device alone
  // holds the bytes (another device that needs them gets them from it). Nothing is protected or
  // copied on the host: write-protecting a large buffer and lifting it later cost time, the
  // second inside the app's first launches.
  if (To.AppDevice && From == HostSource::App && Mode != config::DeferMode::Off && !Root.HostPtr &&
      !Root.inHostCopy(Source) &&
      Root.sendFromApp(*To.AppDevice, Base, Bytes, Source, LeaveRunning) == CL_SUCCESS) {
    Root.wroteOn(To.AppDevice->Index, Written);
    Services.Recorder.countHostWrite(RunRecorder::HostWrite::ToAppDevice, Bytes);
    Services.Recorder.countEagerBytes(Bytes);
    return LeaveRunning;
  }
  // A buffer on the app's memory (USE_HOST_PTR) has its host copy there: copy into it. So with
  // a source inside this buffer's own host copy (a pointer the app mapped): nothing to defer.
  if (Mode == config::DeferMode::Mprotect && From == HostSource::App && !Root.HostPtr &&
      !Root.inHostCopy(Source)) {
    std::string WhyNot;
    if (auto Write = Services.Deferred.defer(Source, Bytes, WhyNot)) {
      Root.wroteOnHost(Written);
      Root.Pending.push_back({Base, std::move(Write), Written});
      Services.Recorder.countHostWrite(RunRecorder::HostWrite::Deferred, Bytes);
      Root.upload(To, Written);
      return false;
    }
    Services.Log.debug(config::DebugCategory::Mem, "host write of ", Bytes,
                       " bytes copied: ", WhyNot);
  }
  std::uint8_t *Host = Root.hostData();
  if (Host + Base != Source)
    std::memmove(Host + Base, Source, Bytes);
  Root.wroteOnHost(Written);
  const bool Eager = Mode == config::DeferMode::Off && From != HostSource::HostCopy;
  Services.Recorder.countHostWrite(
      Eager ? RunRecorder::HostWrite::Eager : RunRecorder::HostWrite::Copied, Bytes);
  if (Eager)
    Root.pushEverywhere(Written);
  else
    Root.upload(To, Written);
  return false;
}

cl_int Buffer::sendFromApp(ExecDevice &Device, size_t Begin, size_t Bytes, const void *Source,
                           bool LeaveRunning) {
  cl_int Error = CL_SUCCESS;
  cl_mem Target = realOn(Device, Error);
  if (!Target)
    return Error;
  ExecDevice *On = &Device;
  MemoryServices &Services = Home->services();
  return runOnDevices({{On, [&Services, On, Target, Begin, Bytes, Source, LeaveRunning] {
                          const ScopedSpan Shown(Services.Spans, On->Name, "write from app");
                          return Services.Backend.write(On->RealQueue, Target, !LeaveRunning, Begin,
                                                        Bytes, Source);
                        }}});
}

void Buffer::upload(const HostUpload &To, size_t Offset, size_t Bytes) {
  const size_t Base = rootOffset() + Offset;
  upload(To, RangeSet(Base, Base + Bytes));
}

void Buffer::upload(const HostUpload &To, const RangeSet &RootRanges) {
  if (Parent)
    return root().upload(To, RootRanges);
  if (To.WhereUsed)
    sendWhereUsed(RootRanges, To.AppDevice);
  else if (To.AppDevice)
    sendNow(*To.AppDevice, RootRanges);
}

void Buffer::sendNow(ExecDevice &Device, const RangeSet &Ranges) {
  RangeSet Missing = Valid.onHost().intersection(missingOn(Device.Index, Ranges));
  if (Missing.empty())
    return;
  ExecDevice *Target = &Device;
  if (runOnDevices({{Target, [this, Target, &Missing] {
                       return pushHostBytes(*Target, Missing);
                     }}}) != CL_SUCCESS)
    return;
  markValidOn(Device.Index, Missing);
  Home->services().Recorder.countEagerBytes(Missing.totalBytes());
}

void Buffer::sendWhereUsed(const RangeSet &Ranges, ExecDevice *Everything) {
  const std::vector<ExecDevice *> Split = Home->splitDevices();
  if (Everything && std::find(Split.begin(), Split.end(), Everything) == Split.end())
    sendNow(*Everything, Ranges);
  std::vector<RangeSet> Parts(Split.size());
  if (ExpectedUse.empty()) {
    const std::vector<double> Weights = Home->firstSplitWeights(Home->primary());
    double Sum = 0.0;
    for (double W : Weights)
      Sum += W;
    double Before = 0.0;
    for (std::size_t I = 0; I < Split.size() && I < Weights.size() && Sum > 0.0; ++I) {
      const auto Begin = static_cast<size_t>(static_cast<double>(Size) * (Before / Sum));
      Before += Weights[I];
      const size_t End = I + 1 == Split.size()
                             ? Size
                             : static_cast<size_t>(static_cast<double>(Size) * (Before / Sum));
      if (Begin < End)
        Parts[I] = Ranges.intersection(RangeSet(Begin, End));
    }
  } else {
    for (std::size_t I = 0; I < Split.size(); ++I)
      if (Split[I]->Index < ExpectedUse.size())
        Parts[I] = Ranges.intersection(ExpectedUse[Split[I]->Index]);
  }
  std::vector<DeviceJob> Jobs;
  std::vector<cl_int> Results(Split.size(), CL_SUCCESS);
  for (std::size_t I = 0; I < Split.size(); ++I) {
    if (Split[I] == Everything)
      Parts[I] = Ranges;
    Parts[I] = Valid.onHost().intersection(missingOn(Split[I]->Index, Parts[I]));
    if (Parts[I].empty())
      continue;
    ExecDevice *Target = Split[I];
    Jobs.push_back({Target, [this, Target, &Part = Parts[I], &Result = Results[I]] {
                      return Result = pushHostBytes(*Target, Part);
                    }});
  }
  runOnDevices(std::move(Jobs)); // a device that failed gets its part before its next use
  for (std::size_t I = 0; I < Split.size(); ++I)
    if (!Parts[I].empty() && Results[I] == CL_SUCCESS) {
      markValidOn(Split[I]->Index, Parts[I]);
      Home->services().Recorder.countEagerBytes(Parts[I].totalBytes());
    }
}

void Buffer::expectUse(std::vector<RangeSet> NeedByDevice) {
  if (Parent)
    return root().expectUse(std::move(NeedByDevice));
  ExpectedUse = std::move(NeedByDevice);
}

cl_int Buffer::pushEverywhere(const RangeSet &Ranges) {
  std::vector<DeviceJob> Jobs;
  for (const auto &Device : Home->devices()) {
    ExecDevice *D = Device.get();
    if (D->Ready.load(std::memory_order_acquire))
      Jobs.push_back({D, [this, D, Ranges] { return pushHostBytes(*D, Ranges); }});
  }
  const cl_int Error = runOnDevices(Jobs);
  if (Error != CL_SUCCESS)
    return Error; // the devices lack it: they will be sent it before their next use
  for (const DeviceJob &Job : Jobs)
    markValidOn(Job.Device->Index, Ranges);
  Home->services().Recorder.countEagerBytes(Ranges.totalBytes() * Jobs.size());
  return CL_SUCCESS;
}

bool Buffer::inHostCopy(const void *Pointer) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const auto *Byte = static_cast<const std::uint8_t *>(Pointer);
  return Staging && Byte >= Staging.get() && Byte < Staging.get() + Size;
}

void Buffer::addDestructorCallback(DestructorCallback Fn, void *UserData) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DestructorCallbacks.emplace_back(Fn, UserData);
}

void Buffer::addMapping(const Mapping &M) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Mappings.push_back(M);
  ++MapCount;
}

bool Buffer::takeMapping(void *Pointer, Mapping &M) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (auto It = Mappings.begin(); It != Mappings.end(); ++It)
    if (It->Pointer == Pointer) {
      M = *It;
      Mappings.erase(It);
      --MapCount;
      return true;
    }
  return false;
}

Buffer *asBuffer(cl_mem Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Mem))
    return nullptr;
  return static_cast<Buffer *>(Handle);
}

} // namespace libsplit
