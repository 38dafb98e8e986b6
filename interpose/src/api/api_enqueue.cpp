// Entry points: everything enqueued on a command queue.
#include "api_common.hpp"

#include "launch.hpp"
#include "launch_parts.hpp"
#include "memory_map.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

using namespace libsplit;

namespace {

// Enqueues Body on Q after the app's wait list; blocks when asked; hands out the event. A
// blocking command that failed returns its error, as the native call would. FinishAnyway: a
// non-blocking command waited for all the same, its error left to its event. RunHere: a launch,
// or a blocking read (the driver's copy into the app's memory then runs on the app's thread, as
// natively), which may start on this thread when the queue is idle (Queue::enqueue).
template <typename Fn>
cl_int enqueue(Queue &Q, cl_command_type Type, cl_uint NumWait, const cl_event *WaitList,
               cl_event *EventOut, bool Blocking, Fn Body, CommandOrder Order = CommandOrder::Free,
               bool FinishAnyway = false, bool RunHere = false, bool BehindLaunches = false) {
  std::vector<std::shared_ptr<Event>> Dependencies;
  if (cl_int Error = resolveWaitList(NumWait, WaitList, Q.context(), Dependencies);
      Error != CL_SUCCESS)
    return Error;
  // A blocking command may run on this thread (Queue::enqueue): its device time is waited here.
  std::optional<AppWait> Waiting;
  if (Blocking || FinishAnyway)
    Waiting.emplace(Q.context());
  auto Done =
      Q.enqueue(Type, std::move(Dependencies), std::move(Body), Order, RunHere, BehindLaunches);
  cl_int Result = CL_SUCCESS;
  if ((Blocking || FinishAnyway) && Done->status() > CL_COMPLETE)
    Q.finishHere(Done.get()); // what it waits behind completes on this thread, as it would
  if ((Blocking || FinishAnyway) && Done->wait() < 0 && Blocking)
    Result = Done->status();
  Waiting.reset();
  if (Blocking)
    Q.context().caughtUp(Q);
  if (Blocking)
    Q.context().refreshHostMemory();
  returnEvent(Done, EventOut);
  return Result;
}

bool hostCannotRead(const Buffer &B) {
  return B.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
}
bool hostCannotWrite(const Buffer &B) {
  return B.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
}

// Judged on the app's thread, at the call: memory on its stack is copied, never protected.
Buffer::HostSource appSource(const void *Pointer, size_t Bytes) {
  return onCallingThreadStack(Pointer, Bytes) ? Buffer::HostSource::AppUnstable
                                              : Buffer::HostSource::App;
}

// Where the app's host writes on Q go at once (LIBSPLIT_UPLOAD).
HostUpload uploadTarget(Queue &Q) { return Q.context().uploadAtWrite(Q.exec()); }

// The largest non-blocking write from the app's stack left running from a snapshot (what a
// small reset value needs; larger ones are copied into libsplit's host copy and sent, waited).
constexpr size_t MaxSnapshotBytes = 64 * 1024;

// A non-blocking write sent at once finishes inside the call when nothing can hold it back (no
// wait list, an idle queue), as NVIDIA's driver does with pageable memory: otherwise it would
// run beside the app's next calls and land in the first launch, which natively starts with the
// data already on the device.
bool finishWithinCall(Queue &Q, const HostUpload &SendTo, cl_uint NumWait) {
  return (SendTo.AppDevice || SendTo.WhereUsed) && NumWait == 0 && Q.idle();
}

// A rectangle in a linear buffer: the byte offset of each row.
struct RectRows {
  size_t RowBytes = 0;
  std::vector<size_t> Offsets;
};

// Checks the rect arguments the way the specification does and lists each row's offset.
cl_int rectRows(const size_t *Origin, const size_t *Region, size_t RowPitch, size_t SlicePitch,
                size_t Limit, RectRows &Out) {
  if (!Origin || !Region || Region[0] == 0 || Region[1] == 0 || Region[2] == 0)
    return CL_INVALID_VALUE;
  if (RowPitch == 0)
    RowPitch = Region[0];
  if (SlicePitch == 0)
    SlicePitch = Region[1] * RowPitch;
  if (RowPitch < Region[0] || SlicePitch < Region[1] * RowPitch || (SlicePitch % RowPitch) != 0)
    return CL_INVALID_VALUE;
  const size_t Last = Origin[0] + Origin[1] * RowPitch + Origin[2] * SlicePitch +
                      (Region[2] - 1) * SlicePitch + (Region[1] - 1) * RowPitch + Region[0];
  if (Last > Limit)
    return CL_INVALID_VALUE;
  Out.RowBytes = Region[0];
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      Out.Offsets.push_back(Origin[0] + (Origin[1] + Y) * RowPitch + (Origin[2] + Z) * SlicePitch);
  return CL_SUCCESS;
}

// The same rectangle seen in a buffer and in host memory (clEnqueue{Read,Write}BufferRect).
cl_int rectRows(const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region,
                size_t BufferRowPitch, size_t BufferSlicePitch, size_t HostRowPitch,
                size_t HostSlicePitch, size_t BufferSize, RectRows &InBuffer, RectRows &InHost) {
  if (cl_int E =
          rectRows(BufferOrigin, Region, BufferRowPitch, BufferSlicePitch, BufferSize, InBuffer);
      E != CL_SUCCESS)
    return E;
  return rectRows(HostOrigin, Region, HostRowPitch, HostSlicePitch, SIZE_MAX, InHost);
}

RangeSet rowsIn(Buffer &B, const RectRows &Rows) {
  RangeSet Ranges;
  const size_t Base = B.rootOffset();
  for (size_t Offset : Rows.Offsets)
    Ranges.add(Base + Offset, Base + Offset + Rows.RowBytes);
  return Ranges;
}

// A zero-size read or write is an error in OpenCL 1.2 and a no-op for some newer
// implementations: the real implementation of the app's device decides, and if it accepts, the
// command is a no-op in libsplit's queue too (so that its event and ordering still hold).
cl_int zeroSizeTransfer(Queue &Q, Buffer &B, cl_command_type Type, cl_bool Blocking, size_t Offset,
                        void *Pointer, cl_uint NumWait, const cl_event *WaitList,
                        cl_event *EventOut) {
  const RealApi &Api = runtime().real();
  cl_int Error = CL_SUCCESS;
  cl_mem Real = B.realOn(Q.exec(), Error);
  if (!Real)
    return Error;
  cl_event Probe = nullptr;
  Error = Type == CL_COMMAND_READ_BUFFER
              ? Api.clEnqueueReadBuffer(Q.exec().RealQueue, Real, CL_TRUE, Offset, 0, Pointer, 0,
                                        nullptr, &Probe)
              : Api.clEnqueueWriteBuffer(Q.exec().RealQueue, Real, CL_TRUE, Offset, 0, Pointer, 0,
                                         nullptr, &Probe);
  if (Probe)
    Api.clReleaseEvent(Probe);
  if (Error != CL_SUCCESS)
    return Error;
  return enqueue(Q, Type, NumWait, WaitList, EventOut, Blocking,
                 [](libsplit::Event &) { return CL_SUCCESS; });
}

#define LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, MemHandle)                                          \
  Queue *Q = asQueue(QueueHandle);                                                                 \
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);                                                    \
  Buffer *B = asBuffer(MemHandle);                                                                 \
  LIBSPLIT_CHECK(!B, CL_INVALID_MEM_OBJECT);                                                       \
  LIBSPLIT_CHECK(&B->context() != &Q->context(), CL_INVALID_CONTEXT);                              \
  Q->context().absorbHostChanges(*B)

// An image of the queue's context (clCreateImage: a real image of the app's device).
#define LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, ImageHandle)                                         \
  Queue *Q = asQueue(QueueHandle);                                                                 \
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);                                                    \
  LIBSPLIT_CHECK(RT.deviceObjectContext(ImageHandle).get() != &Q->context(), CL_INVALID_MEM_OBJECT)

// A command on images, which live on the app's device alone: Enqueue(real queue, real event)
// enqueues it on the queue's device, in the queue's order, and the command ends with that event.
template <typename Call>
cl_int onAppDevice(Queue &Q, cl_command_type Type, cl_uint NumWait, const cl_event *WaitList,
                   cl_event *EventOut, bool Blocking, Call Enqueue) {
  ExecDevice *Device = &Q.exec();
  return enqueue(Q, Type, NumWait, WaitList, EventOut, Blocking,
                 [Device, Enqueue](libsplit::Event &) {
                   const RealApi &Real = runtime().real();
                   cl_int Error = CL_SUCCESS;
                   cl_event Done = nullptr;
                   Device->Worker->runHere([&] { Error = Enqueue(Device->RealQueue, &Done); });
                   if (Error != CL_SUCCESS || !Done)
                     return Error;
                   Real.clWaitForEvents(1, &Done);
                   cl_int Status = CL_COMPLETE;
                   Real.clGetEventInfo(Done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status),
                                       &Status, nullptr);
                   Real.clReleaseEvent(Done);
                   return Status < 0 ? Status : CL_SUCCESS;
                 });
}

// The bytes an image region spans in a buffer (CL_IMAGE_ELEMENT_SIZE per pixel, packed).
size_t imageRegionBytes(cl_mem Image, const size_t *Region) {
  size_t Element = 0;
  runtime().real().clGetImageInfo(Image, CL_IMAGE_ELEMENT_SIZE, sizeof(Element), &Element, nullptr);
  return Element * Region[0] * Region[1] * Region[2];
}

} // namespace

LIBSPLIT_API cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue QueueHandle, cl_mem Mem,
                                                    cl_bool Blocking, size_t Offset, size_t Size,
                                                    void *Pointer, cl_uint NumWait,
                                                    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueReadBuffer, QueueHandle, Mem, Blocking, Offset, Size,
                                   Pointer, NumWait, WaitList, Event);
  LIBSPLIT_SHOW_CALL("clEnqueueReadBuffer");
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Mem);
  if (Size == 0)
    return zeroSizeTransfer(*Q, *B, CL_COMMAND_READ_BUFFER, Blocking, Offset, Pointer, NumWait,
                            WaitList, Event);
  LIBSPLIT_CHECK(!Pointer || Offset + Size > B->size() || Offset + Size < Offset, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(hostCannotRead(*B), CL_INVALID_OPERATION);
  auto Keep = B->shared_from_this();
  // A non-blocking read of bytes the queue's own device holds, with no event or wait list
  // asked, is left running on that device's in-order queue, as natively, and starts on the
  // app's thread: through the executor, the blocking read that usually follows it waited for
  // two thread hand-offs (a one-launch app's whole run took half as long again as natively).
  ExecDevice &Exec = Q->exec();
  const bool Later = !Blocking && NumWait == 0 && !Event && Q->canFinishLater() && [&] {
    std::lock_guard<std::mutex> Lock(Q->context().dataLock());
    return B->validOn(Exec, Offset, Size);
  }();
  auto QueueKeep = Q->shared_from_this();
  return enqueue(
      *Q, CL_COMMAND_READ_BUFFER, NumWait, WaitList, Event, Blocking,
      [Keep, QueueKeep, &Exec, Offset, Size, Pointer, Later](libsplit::Event &) {
        std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
        if (!Later || !Keep->validOn(Exec, Offset, Size)) {
          bool OnItsQueue = false;
          const cl_int Result = Keep->read(Offset, Size, Pointer, &Exec, &OnItsQueue);
          if (Result == CL_SUCCESS && OnItsQueue)
            QueueKeep->endedBehind(Exec);
          return Result;
        }
        if (const cl_int Error = Keep->readLater(Exec, Offset, Size, Pointer); Error != CL_SUCCESS)
          return Error;
        QueueKeep->finishLater([Keep] { return CL_SUCCESS; }, {}, &Exec, true);
        return FinishesLater;
      },
      CommandOrder::Free, false, Blocking || Later);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueReadBuffer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue QueueHandle, cl_mem Mem,
                                                     cl_bool Blocking, size_t Offset, size_t Size,
                                                     const void *Pointer, cl_uint NumWait,
                                                     const cl_event *WaitList,
                                                     cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueWriteBuffer, QueueHandle, Mem, Blocking, Offset, Size,
                                   Pointer, NumWait, WaitList, Event);
  LIBSPLIT_SHOW_CALL("clEnqueueWriteBuffer");
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Mem);
  if (Size == 0)
    return zeroSizeTransfer(*Q, *B, CL_COMMAND_WRITE_BUFFER, Blocking, Offset,
                            const_cast<void *>(Pointer), NumWait, WaitList, Event);
  LIBSPLIT_CHECK(!Pointer || Offset + Size > B->size() || Offset + Size < Offset, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(hostCannotWrite(*B), CL_INVALID_OPERATION);
  auto Keep = B->shared_from_this();
  const Buffer::HostSource Source = appSource(Pointer, Size);
  const HostUpload SendTo = uploadTarget(*Q);
  const bool Finish = finishWithinCall(*Q, SendTo, NumWait);
  // A non-blocking write from the app's memory to the queue's own device, with no event or wait
  // list asked, behind commands still unfinished, is left running on that device's in-order
  // queue, as natively, and starts on the app's thread (as a non-blocking read does): through
  // the executor, a blocking write waited there behind the kernels before it, and the app's
  // next launches waited for the executor, then queued behind it (a loop that resets a small
  // buffer before each launch ran its kernels one at a time, each behind the host). On an idle
  // queue it still finishes inside the call (finishWithinCall): a kernel's first launch behind
  // it then finds nothing unfinished, and may run in chunks. A blocking write runs on the app's
  // thread too where the queue lets it (as a blocking read does): through the executor, each one
  // cost a hand-off there and back (Rodinia's helpers write with a blocking call before every
  // launch: streamcluster's 2,149 writes on PoCL's pair).
  // Bytes on the app's stack (a small reset value) go from a snapshot taken at the call, kept
  // until the queue's device commands have ended.
  ExecDevice &Exec = Q->exec();
  const bool Later = !Blocking && !Finish && NumWait == 0 && !Event && Q->canFinishLater() &&
                     SendTo.AppDevice == &Exec &&
                     (Source == Buffer::HostSource::App || Size <= MaxSnapshotBytes);
  std::shared_ptr<std::vector<std::uint8_t>> Snapshot;
  if (Later && Source != Buffer::HostSource::App) {
    const auto *Bytes = static_cast<const std::uint8_t *>(Pointer);
    Snapshot = std::make_shared<std::vector<std::uint8_t>>(Bytes, Bytes + Size);
  }
  const void *From = Snapshot ? Snapshot->data() : Pointer;
  const Buffer::HostSource FromSource = Snapshot ? Buffer::HostSource::App : Source;
  auto QueueKeep = Q->shared_from_this();
  return enqueue(
      *Q, CL_COMMAND_WRITE_BUFFER, NumWait, WaitList, Event, Blocking,
      [Keep, QueueKeep, &Exec, Offset, Size, From, FromSource, Snapshot, SendTo,
       Later](libsplit::Event &) {
        std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
        if (!Keep->write(Offset, Size, From, FromSource, SendTo, Later))
          return CL_SUCCESS;
        QueueKeep->finishLater([Keep, Snapshot] { return CL_SUCCESS; }, {}, &Exec, true);
        return FinishesLater;
      },
      CommandOrder::Free, Finish, Blocking || Later);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueWriteBuffer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue QueueHandle, cl_mem Source,
                                                    cl_mem Target, size_t SourceOffset,
                                                    size_t TargetOffset, size_t Size,
                                                    cl_uint NumWait, const cl_event *WaitList,
                                                    cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueCopyBuffer, QueueHandle, Source, Target, SourceOffset,
                                   TargetOffset, Size, NumWait, WaitList, Event);
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Source);
  Buffer *T = asBuffer(Target);
  LIBSPLIT_CHECK(!T, CL_INVALID_MEM_OBJECT);
  LIBSPLIT_CHECK(&T->context() != &Q->context(), CL_INVALID_CONTEXT);
  Q->context().absorbHostChanges(*T);
  LIBSPLIT_CHECK(Size == 0 || SourceOffset + Size > B->size() || TargetOffset + Size > T->size(),
                 CL_INVALID_VALUE);
  const size_t SourceBase = B->rootOffset() + SourceOffset;
  const size_t TargetBase = T->rootOffset() + TargetOffset;
  LIBSPLIT_CHECK(&B->root() == &T->root() && SourceBase < TargetBase + Size &&
                     TargetBase < SourceBase + Size,
                 CL_MEM_COPY_OVERLAP);
  auto From = B->shared_from_this(), To = T->shared_from_this();
  // Where the queue's device holds the source bytes, the copy runs there, device side, left
  // running on its in-order queue as natively; otherwise through the host. With no event or
  // wait list asked, such a copy starts on the app's thread (as a non-blocking read does):
  // through the executor, the app's next launch found it queued there and went the same way (a
  // solver's launch after its per-iteration copy waited a thread hand-off each time).
  ExecDevice &Exec = Q->exec();
  const bool OnDevice = Q->canFinishLater();
  const bool Here = OnDevice && NumWait == 0 && !Event && [&] {
    std::lock_guard<std::mutex> Lock(Q->context().dataLock());
    return B->validOn(Exec, SourceOffset, Size);
  }();
  auto QueueKeep = Q->shared_from_this();
  return enqueue(
      *Q, CL_COMMAND_COPY_BUFFER, NumWait, WaitList, Event, false,
      [From, To, QueueKeep, &Exec, OnDevice, SourceBase, TargetOffset, Size](libsplit::Event &) {
        std::lock_guard<std::mutex> Lock(From->context().dataLock());
        Buffer &Root = From->root();
        cl_int Error = CL_SUCCESS;
        if (OnDevice && To->copyOnDevice(Root, SourceBase, TargetOffset, Size, Exec, Error)) {
          if (Error != CL_SUCCESS)
            return Error;
          QueueKeep->finishLater([From, To] { return CL_SUCCESS; }, {}, &Exec, true);
          return FinishesLater;
        }
        if (cl_int E = Root.holdOnHost(RangeSet(SourceBase, SourceBase + Size)); E != CL_SUCCESS)
          return E;
        To->write(TargetOffset, Size, Root.hostData() + SourceBase, Buffer::HostSource::HostCopy);
        return CL_SUCCESS;
      },
      CommandOrder::Free, false, Here);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueCopyBuffer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue QueueHandle, cl_mem Mem,
                                                    const void *Pattern, size_t PatternSize,
                                                    size_t Offset, size_t Size, cl_uint NumWait,
                                                    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueFillBuffer, QueueHandle, Mem, Pattern, PatternSize,
                                   Offset, Size, NumWait, WaitList, Event);
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Mem);
  const bool PowerOfTwo = PatternSize && (PatternSize & (PatternSize - 1)) == 0;
  LIBSPLIT_CHECK(!Pattern || !PowerOfTwo || PatternSize > 128 || Offset % PatternSize ||
                     Size % PatternSize || Offset + Size > B->size(),
                 CL_INVALID_VALUE);
  auto Keep = B->shared_from_this();
  std::vector<std::uint8_t> Bytes(static_cast<const std::uint8_t *>(Pattern),
                                  static_cast<const std::uint8_t *>(Pattern) + PatternSize);
  // On an in-order queue the fill runs on the queue's device, left running there as natively;
  // with no event or wait list asked it starts on the app's thread. Through the host, a loop
  // that clears a buffer before each launch waited for every kernel before it to end (the fill
  // wrote the host's copy), and its next launch went through the executor behind it.
  ExecDevice &Exec = Q->exec();
  const bool OnDevice = Q->canFinishLater();
  const bool Here = OnDevice && NumWait == 0 && !Event;
  auto QueueKeep = Q->shared_from_this();
  return enqueue(
      *Q, CL_COMMAND_FILL_BUFFER, NumWait, WaitList, Event, false,
      [Keep, QueueKeep, &Exec, OnDevice, Bytes, Offset, Size](libsplit::Event &) {
        std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
        if (OnDevice) {
          if (const cl_int Error = Keep->fillOnDevice(Bytes, Offset, Size, Exec);
              Error != CL_SUCCESS)
            return Error;
          QueueKeep->finishLater([Keep] { return CL_SUCCESS; }, {}, &Exec, true);
          return FinishesLater;
        }
        Buffer &Root = Keep->root();
        const size_t Base = Keep->rootOffset() + Offset;
        std::uint8_t *Host = Root.hostData() + Base;
        for (size_t At = 0; At < Size; At += Bytes.size())
          std::memcpy(Host + At, Bytes.data(), Bytes.size());
        Root.wroteOnHost(RangeSet(Base, Base + Size));
        return CL_SUCCESS;
      },
      CommandOrder::Free, false, Here);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueFillBuffer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue QueueHandle, cl_mem Mem, cl_bool Blocking, const size_t *BufferOrigin,
    const size_t *HostOrigin, const size_t *Region, size_t BufferRowPitch, size_t BufferSlicePitch,
    size_t HostRowPitch, size_t HostSlicePitch, void *Pointer, cl_uint NumWait,
    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueReadBufferRect, QueueHandle, Mem, Blocking,
                                   BufferOrigin, HostOrigin, Region, BufferRowPitch,
                                   BufferSlicePitch, HostRowPitch, HostSlicePitch, Pointer, NumWait,
                                   WaitList, Event);
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Mem);
  LIBSPLIT_CHECK(!Pointer, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(hostCannotRead(*B), CL_INVALID_OPERATION);
  RectRows InBuffer, InHost;
  if (cl_int E = rectRows(BufferOrigin, HostOrigin, Region, BufferRowPitch, BufferSlicePitch,
                          HostRowPitch, HostSlicePitch, B->size(), InBuffer, InHost);
      E != CL_SUCCESS)
    return E;
  auto Keep = B->shared_from_this();
  return enqueue(*Q, CL_COMMAND_READ_BUFFER_RECT, NumWait, WaitList, Event, Blocking,
                 [Keep, InBuffer, InHost, Pointer](libsplit::Event &) {
                   std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
                   Buffer &Root = Keep->root();
                   if (cl_int E = Root.holdOnHost(rowsIn(*Keep, InBuffer)); E != CL_SUCCESS)
                     return E;
                   const std::uint8_t *Host = Root.hostData() + Keep->rootOffset();
                   for (size_t Row = 0; Row < InBuffer.Offsets.size(); ++Row)
                     std::memcpy(static_cast<std::uint8_t *>(Pointer) + InHost.Offsets[Row],
                                 Host + InBuffer.Offsets[Row], InBuffer.RowBytes);
                   return CL_SUCCESS;
                 });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueReadBufferRect", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue QueueHandle, cl_mem Mem, cl_bool Blocking, const size_t *BufferOrigin,
    const size_t *HostOrigin, const size_t *Region, size_t BufferRowPitch, size_t BufferSlicePitch,
    size_t HostRowPitch, size_t HostSlicePitch, const void *Pointer, cl_uint NumWait,
    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueWriteBufferRect, QueueHandle, Mem, Blocking,
                                   BufferOrigin, HostOrigin, Region, BufferRowPitch,
                                   BufferSlicePitch, HostRowPitch, HostSlicePitch, Pointer, NumWait,
                                   WaitList, Event);
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Mem);
  LIBSPLIT_CHECK(!Pointer, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(hostCannotWrite(*B), CL_INVALID_OPERATION);
  RectRows InBuffer, InHost;
  if (cl_int E = rectRows(BufferOrigin, HostOrigin, Region, BufferRowPitch, BufferSlicePitch,
                          HostRowPitch, HostSlicePitch, B->size(), InBuffer, InHost);
      E != CL_SUCCESS)
    return E;
  auto Keep = B->shared_from_this();
  // Each row is a write of its own: rows large enough are deferred, the others copied.
  const size_t HostExtent = InHost.Offsets.back() + InHost.RowBytes;
  const Buffer::HostSource Source = appSource(Pointer, HostExtent);
  const HostUpload SendTo = uploadTarget(*Q);
  const bool Finish = finishWithinCall(*Q, SendTo, NumWait);
  return enqueue(
      *Q, CL_COMMAND_WRITE_BUFFER_RECT, NumWait, WaitList, Event, Blocking,
      [Keep, InBuffer, InHost, Pointer, Source, SendTo](libsplit::Event &) {
        std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
        for (size_t Row = 0; Row < InBuffer.Offsets.size(); ++Row)
          Keep->write(InBuffer.Offsets[Row], InBuffer.RowBytes,
                      static_cast<const std::uint8_t *>(Pointer) + InHost.Offsets[Row], Source);
        Keep->upload(SendTo, rowsIn(*Keep, InBuffer));
        return CL_SUCCESS;
      },
      CommandOrder::Free, Finish);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueWriteBufferRect", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue QueueHandle, cl_mem Source, cl_mem Target, const size_t *SourceOrigin,
    const size_t *TargetOrigin, const size_t *Region, size_t SourceRowPitch,
    size_t SourceSlicePitch, size_t TargetRowPitch, size_t TargetSlicePitch, cl_uint NumWait,
    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(
      clEnqueueCopyBufferRect, QueueHandle, Source, Target, SourceOrigin, TargetOrigin, Region,
      SourceRowPitch, SourceSlicePitch, TargetRowPitch, TargetSlicePitch, NumWait, WaitList, Event);
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Source);
  Buffer *T = asBuffer(Target);
  LIBSPLIT_CHECK(!T, CL_INVALID_MEM_OBJECT);
  LIBSPLIT_CHECK(&T->context() != &Q->context(), CL_INVALID_CONTEXT);
  Q->context().absorbHostChanges(*T);
  RectRows From, To;
  if (cl_int E = rectRows(SourceOrigin, Region, SourceRowPitch, SourceSlicePitch, B->size(), From);
      E != CL_SUCCESS)
    return E;
  if (cl_int E = rectRows(TargetOrigin, Region, TargetRowPitch, TargetSlicePitch, T->size(), To);
      E != CL_SUCCESS)
    return E;
  // The same buffer with different pitches is an error of its own, checked before overlap.
  const bool SameBuffer = &B->root() == &T->root();
  LIBSPLIT_CHECK(B == T &&
                     (SourceRowPitch != TargetRowPitch || SourceSlicePitch != TargetSlicePitch),
                 CL_INVALID_VALUE);
  LIBSPLIT_CHECK(SameBuffer && rowsIn(*B, From).intersection(rowsIn(*T, To)).totalBytes() > 0,
                 CL_MEM_COPY_OVERLAP);
  auto S = B->shared_from_this(), D = T->shared_from_this();
  return enqueue(*Q, CL_COMMAND_COPY_BUFFER_RECT, NumWait, WaitList, Event, false,
                 [S, D, From, To](libsplit::Event &) {
                   std::lock_guard<std::mutex> Lock(S->context().dataLock());
                   Buffer &Root = S->root();
                   if (cl_int E = Root.holdOnHost(rowsIn(*S, From)); E != CL_SUCCESS)
                     return E;
                   const std::uint8_t *Host = Root.hostData() + S->rootOffset();
                   for (size_t Row = 0; Row < From.Offsets.size(); ++Row)
                     D->write(To.Offsets[Row], From.RowBytes, Host + From.Offsets[Row],
                              Buffer::HostSource::HostCopy);
                   return CL_SUCCESS;
                 });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueCopyBufferRect", nullptr);
}

LIBSPLIT_API void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue QueueHandle, cl_mem Mem,
                                                  cl_bool Blocking, cl_map_flags Flags,
                                                  size_t Offset, size_t Size, cl_uint NumWait,
                                                  const cl_event *WaitList, cl_event *Event,
                                                  cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueMapBuffer, QueueHandle, Mem, Blocking, Flags, Offset,
                                   Size, NumWait, WaitList, Event, ErrorRet);
  LIBSPLIT_SHOW_CALL("clEnqueueMapBuffer");
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK_RET(!Q, CL_INVALID_COMMAND_QUEUE, ErrorRet);
  Buffer *B = asBuffer(Mem);
  LIBSPLIT_CHECK_RET(!B, CL_INVALID_MEM_OBJECT, ErrorRet);
  LIBSPLIT_CHECK_RET(&B->context() != &Q->context(), CL_INVALID_CONTEXT, ErrorRet);
  LIBSPLIT_CHECK_RET(Size == 0 || Offset + Size > B->size(), CL_INVALID_VALUE, ErrorRet);
  const cl_map_flags Known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  LIBSPLIT_CHECK_RET((Flags & ~Known) || ((Flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                                          (Flags & (CL_MAP_READ | CL_MAP_WRITE))),
                     CL_INVALID_VALUE, ErrorRet);
  LIBSPLIT_CHECK_RET((Flags & CL_MAP_READ) && hostCannotRead(*B), CL_INVALID_OPERATION, ErrorRet);
  LIBSPLIT_CHECK_RET((Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
                         hostCannotWrite(*B),
                     CL_INVALID_OPERATION, ErrorRet);
  // The mapped pointer is the host copy itself (the app's memory for CL_MEM_USE_HOST_PTR, as
  // the specification requires), known before the command runs.
  Buffer &Root = B->root();
  const size_t Base = B->rootOffset() + Offset;
  void *Pointer = Root.hostData() + Base;
  B->addMapping({Pointer, Offset, Size, Flags});
  auto Keep = B->shared_from_this();
  const cl_int Result = enqueue(*Q, CL_COMMAND_MAP_BUFFER, NumWait, WaitList, Event, Blocking,
                                [Keep, Base, Size, Flags](libsplit::Event &) {
                                  if (Flags & CL_MAP_WRITE_INVALIDATE_REGION)
                                    return CL_SUCCESS;
                                  std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
                                  return Keep->root().holdOnHost(RangeSet(Base, Base + Size));
                                });
  setError(ErrorRet, Result);
  if (Result != CL_SUCCESS) {
    Buffer::Mapping Dropped;
    B->takeMapping(Pointer, Dropped);
    return nullptr;
  }
  return Pointer;
} catch (...) {
  return libsplit::escapedFrom<void *>("clEnqueueMapBuffer", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue QueueHandle, cl_mem Mem,
                                                        void *Pointer, cl_uint NumWait,
                                                        const cl_event *WaitList,
                                                        cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueUnmapMemObject, QueueHandle, Mem, Pointer, NumWait,
                                   WaitList, Event);
  if (!asBuffer(Mem) && RT.deviceObjectContext(Mem)) {
    LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Mem);
    return onAppDevice(*Q, CL_COMMAND_UNMAP_MEM_OBJECT, NumWait, WaitList, Event, false,
                       [Mem, Pointer](cl_command_queue Real, cl_event *Done) {
                         return runtime().real().clEnqueueUnmapMemObject(Real, Mem, Pointer, 0,
                                                                         nullptr, Done);
                       });
  }
  LIBSPLIT_QUEUE_AND_BUFFER(QueueHandle, Mem);
  Buffer::Mapping M;
  LIBSPLIT_CHECK(!B->takeMapping(Pointer, M), CL_INVALID_VALUE);
  auto Keep = B->shared_from_this();
  const HostUpload SendTo = uploadTarget(*Q);
  return enqueue(*Q, CL_COMMAND_UNMAP_MEM_OBJECT, NumWait, WaitList, Event, false,
                 [Keep, M, SendTo](libsplit::Event &) {
                   if (M.Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) {
                     std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
                     const size_t Base = Keep->rootOffset() + M.Offset;
                     Keep->root().wroteOnHost(RangeSet(Base, Base + M.Bytes));
                     Keep->upload(SendTo, M.Offset, M.Bytes);
                   }
                   return CL_SUCCESS;
                 });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueUnmapMemObject", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue QueueHandle, cl_uint NumObjects, const cl_mem *Objects,
    cl_mem_migration_flags Flags, cl_uint NumWait, const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueMigrateMemObjects, QueueHandle, NumObjects, Objects,
                                   Flags, NumWait, WaitList, Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK(NumObjects == 0 || !Objects, CL_INVALID_VALUE);
  LIBSPLIT_CHECK(Flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
                 CL_INVALID_VALUE);
  for (cl_uint I = 0; I < NumObjects; ++I)
    LIBSPLIT_CHECK(!asBuffer(Objects[I]), CL_INVALID_MEM_OBJECT);
  // libsplit places data itself at each launch; a migration hint has nothing to do.
  return enqueue(*Q, CL_COMMAND_MIGRATE_MEM_OBJECTS, NumWait, WaitList, Event, false,
                 [](libsplit::Event &) { return CL_SUCCESS; });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueMigrateMemObjects", nullptr);
}

// Images: each command runs on the app's device (onAppDevice).
LIBSPLIT_API cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue QueueHandle, cl_mem Image,
                                                   cl_bool Blocking, const size_t *Origin,
                                                   const size_t *Region, size_t RowPitch,
                                                   size_t SlicePitch, void *Pointer,
                                                   cl_uint NumWait, const cl_event *WaitList,
                                                   cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueReadImage, QueueHandle, Image, Blocking, Origin, Region,
                                   RowPitch, SlicePitch, Pointer, NumWait, WaitList, Event);
  LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Image);
  LIBSPLIT_CHECK(!Origin || !Region || !Pointer, CL_INVALID_VALUE);
  const std::array<size_t, 3> At = {Origin[0], Origin[1], Origin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  return onAppDevice(*Q, CL_COMMAND_READ_IMAGE, NumWait, WaitList, Event, Blocking,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueReadImage(Real, Image, CL_FALSE, At.data(),
                                                                  Size.data(), RowPitch, SlicePitch,
                                                                  Pointer, 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueReadImage", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue QueueHandle, cl_mem Image,
                                                    cl_bool Blocking, const size_t *Origin,
                                                    const size_t *Region, size_t RowPitch,
                                                    size_t SlicePitch, const void *Pointer,
                                                    cl_uint NumWait, const cl_event *WaitList,
                                                    cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueWriteImage, QueueHandle, Image, Blocking, Origin,
                                   Region, RowPitch, SlicePitch, Pointer, NumWait, WaitList, Event);
  LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Image);
  LIBSPLIT_CHECK(!Origin || !Region || !Pointer, CL_INVALID_VALUE);
  const std::array<size_t, 3> At = {Origin[0], Origin[1], Origin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  // The app leaves its memory alone until the command ended (its event), as natively.
  return onAppDevice(*Q, CL_COMMAND_WRITE_IMAGE, NumWait, WaitList, Event, Blocking,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueWriteImage(
                           Real, Image, CL_FALSE, At.data(), Size.data(), RowPitch, SlicePitch,
                           Pointer, 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueWriteImage", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue QueueHandle, cl_mem Source,
                                                   cl_mem Destination, const size_t *SourceOrigin,
                                                   const size_t *DestinationOrigin,
                                                   const size_t *Region, cl_uint NumWait,
                                                   const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueCopyImage, QueueHandle, Source, Destination,
                                   SourceOrigin, DestinationOrigin, Region, NumWait, WaitList,
                                   Event);
  LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Source);
  LIBSPLIT_CHECK(RT.deviceObjectContext(Destination).get() != &Q->context(), CL_INVALID_MEM_OBJECT);
  LIBSPLIT_CHECK(!SourceOrigin || !DestinationOrigin || !Region, CL_INVALID_VALUE);
  const std::array<size_t, 3> From = {SourceOrigin[0], SourceOrigin[1], SourceOrigin[2]};
  const std::array<size_t, 3> To = {DestinationOrigin[0], DestinationOrigin[1],
                                    DestinationOrigin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  return onAppDevice(*Q, CL_COMMAND_COPY_IMAGE, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueCopyImage(Real, Source, Destination,
                                                                  From.data(), To.data(),
                                                                  Size.data(), 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueCopyImage", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue QueueHandle, cl_mem Image,
                                                   const void *FillColor, const size_t *Origin,
                                                   const size_t *Region, cl_uint NumWait,
                                                   const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueFillImage, QueueHandle, Image, FillColor, Origin,
                                   Region, NumWait, WaitList, Event);
  LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Image);
  LIBSPLIT_CHECK(!FillColor || !Origin || !Region, CL_INVALID_VALUE);
  // A colour is four components of at most 4 bytes each; copied, as the call's may go.
  std::array<std::uint8_t, 16> Color;
  std::memcpy(Color.data(), FillColor, Color.size());
  const std::array<size_t, 3> At = {Origin[0], Origin[1], Origin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  return onAppDevice(*Q, CL_COMMAND_FILL_IMAGE, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueFillImage(
                           Real, Image, Color.data(), At.data(), Size.data(), 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueFillImage", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue QueueHandle, cl_mem Source, cl_mem Destination, const size_t *SourceOrigin,
    const size_t *Region, size_t DestinationOffset, cl_uint NumWait, const cl_event *WaitList,
    cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueCopyImageToBuffer, QueueHandle, Source, Destination,
                                   SourceOrigin, Region, DestinationOffset, NumWait, WaitList,
                                   Event);
  LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Source);
  Buffer *B = asBuffer(Destination);
  LIBSPLIT_CHECK(!B, CL_INVALID_MEM_OBJECT);
  LIBSPLIT_CHECK(&B->context() != &Q->context(), CL_INVALID_CONTEXT);
  Q->context().absorbHostChanges(*B);
  LIBSPLIT_CHECK(!SourceOrigin || !Region, CL_INVALID_VALUE);
  const size_t Bytes = imageRegionBytes(Source, Region);
  LIBSPLIT_CHECK(DestinationOffset + Bytes > B->size(), CL_INVALID_VALUE);
  const std::array<size_t, 3> From = {SourceOrigin[0], SourceOrigin[1], SourceOrigin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  auto Keep = B->shared_from_this();
  ExecDevice *Device = &Q->exec();
  return onAppDevice(*Q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
                       cl_int Error = CL_SUCCESS;
                       cl_mem Target = Keep->realOn(*Device, Error);
                       if (!Target)
                         return Error;
                       Error = runtime().real().clEnqueueCopyImageToBuffer(
                           Real, Source, Target, From.data(), Size.data(), DestinationOffset, 0,
                           nullptr, Done);
                       // Later commands find these bytes on the app's device, behind the copy.
                       if (Error == CL_SUCCESS) {
                         const size_t Base = Keep->rootOffset() + DestinationOffset;
                         Keep->root().wroteOn(Device->Index, RangeSet(Base, Base + Bytes));
                       }
                       return Error;
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueCopyImageToBuffer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue QueueHandle, cl_mem Source, cl_mem Destination, size_t SourceOffset,
    const size_t *DestinationOrigin, const size_t *Region, cl_uint NumWait,
    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueCopyBufferToImage, QueueHandle, Source, Destination,
                                   SourceOffset, DestinationOrigin, Region, NumWait, WaitList,
                                   Event);
  LIBSPLIT_QUEUE_AND_IMAGE(QueueHandle, Destination);
  Buffer *B = asBuffer(Source);
  LIBSPLIT_CHECK(!B, CL_INVALID_MEM_OBJECT);
  LIBSPLIT_CHECK(&B->context() != &Q->context(), CL_INVALID_CONTEXT);
  Q->context().absorbHostChanges(*B);
  LIBSPLIT_CHECK(!DestinationOrigin || !Region, CL_INVALID_VALUE);
  const size_t Bytes = imageRegionBytes(Destination, Region);
  LIBSPLIT_CHECK(SourceOffset + Bytes > B->size(), CL_INVALID_VALUE);
  const std::array<size_t, 3> To = {DestinationOrigin[0], DestinationOrigin[1],
                                    DestinationOrigin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  auto Keep = B->shared_from_this();
  ExecDevice *Device = &Q->exec();
  return onAppDevice(
      *Q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, NumWait, WaitList, Event, false,
      [=](cl_command_queue Real, cl_event *Done) {
        std::lock_guard<std::mutex> Lock(Keep->context().dataLock());
        // The buffer's bytes first reach the app's device, from wherever they are newest.
        const size_t Base = Keep->rootOffset() + SourceOffset;
        Buffer &Root = Keep->root();
        RangeSet Lacking = Root.missingOn(Device->Index, RangeSet(Base, Base + Bytes));
        cl_int Error = Root.fetchToHost(Lacking);
        if (Error == CL_SUCCESS && !Lacking.empty())
          Error = Root.pushOnWorker(*Device, Lacking);
        if (Error != CL_SUCCESS)
          return Error;
        Root.markValidOn(Device->Index, Lacking);
        cl_mem From = Keep->realOn(*Device, Error);
        if (!From)
          return Error;
        return runtime().real().clEnqueueCopyBufferToImage(
            Real, From, Destination, SourceOffset, To.data(), Size.data(), 0, nullptr, Done);
      });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueCopyBufferToImage", nullptr);
}

LIBSPLIT_API void *CL_API_CALL clEnqueueMapImage(cl_command_queue QueueHandle, cl_mem Image,
                                                 cl_bool Blocking, cl_map_flags Flags,
                                                 const size_t *Origin, const size_t *Region,
                                                 size_t *RowPitch, size_t *SlicePitch,
                                                 cl_uint NumWait, const cl_event *WaitList,
                                                 cl_event *Event, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueMapImage, QueueHandle, Image, Blocking, Flags, Origin,
                                   Region, RowPitch, SlicePitch, NumWait, WaitList, Event,
                                   ErrorRet);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK_RET(!Q, CL_INVALID_COMMAND_QUEUE, ErrorRet);
  LIBSPLIT_CHECK_RET(RT.deviceObjectContext(Image).get() != &Q->context(), CL_INVALID_MEM_OBJECT,
                     ErrorRet);
  LIBSPLIT_CHECK_RET(!Origin || !Region || !RowPitch, CL_INVALID_VALUE, ErrorRet);
  const std::array<size_t, 3> At = {Origin[0], Origin[1], Origin[2]};
  const std::array<size_t, 3> Size = {Region[0], Region[1], Region[2]};
  // The pointer is the call's answer: the map is waited for even when not blocking.
  void *Mapped = nullptr;
  cl_int MapError = CL_SUCCESS;
  const cl_int Error = onAppDevice(*Q, CL_COMMAND_MAP_IMAGE, NumWait, WaitList, Event, true,
                                   [&, At, Size](cl_command_queue Real, cl_event *Done) {
                                     Mapped = runtime().real().clEnqueueMapImage(
                                         Real, Image, CL_FALSE, Flags, At.data(), Size.data(),
                                         RowPitch, SlicePitch, 0, nullptr, Done, &MapError);
                                     return MapError;
                                   });
  setError(ErrorRet, Error != CL_SUCCESS ? Error : MapError);
  return Error == CL_SUCCESS ? Mapped : nullptr;
} catch (...) {
  return libsplit::escapedFrom<void *>("clEnqueueMapImage", ErrorRet);
}

// SVM: each command runs on the app's device (onAppDevice), where the allocations live.
LIBSPLIT_API cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue QueueHandle, cl_bool Blocking,
                                                   void *Destination, const void *Source,
                                                   size_t Size, cl_uint NumWait,
                                                   const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueSVMMemcpy, QueueHandle, Blocking, Destination, Source,
                                   Size, NumWait, WaitList, Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK(!Destination || !Source, CL_INVALID_VALUE);
  const auto *From = static_cast<const std::uint8_t *>(Source);
  const auto *To = static_cast<const std::uint8_t *>(Destination);
  LIBSPLIT_CHECK((From < To + Size && To < From + Size), CL_MEM_COPY_OVERLAP);
  return onAppDevice(*Q, CL_COMMAND_SVM_MEMCPY, NumWait, WaitList, Event, Blocking,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueSVMMemcpy(Real, CL_FALSE, Destination,
                                                                  Source, Size, 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueSVMMemcpy", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue QueueHandle, void *Pointer,
                                                    const void *Pattern, size_t PatternSize,
                                                    size_t Size, cl_uint NumWait,
                                                    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueSVMMemFill, QueueHandle, Pointer, Pattern, PatternSize,
                                   Size, NumWait, WaitList, Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK(!Pointer || !Pattern || PatternSize == 0 || PatternSize > 128, CL_INVALID_VALUE);
  // The pattern is the call's: copied.
  std::vector<std::uint8_t> Bytes(static_cast<const std::uint8_t *>(Pattern),
                                  static_cast<const std::uint8_t *>(Pattern) + PatternSize);
  return onAppDevice(*Q, CL_COMMAND_SVM_MEMFILL, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueSVMMemFill(
                           Real, Pointer, Bytes.data(), Bytes.size(), Size, 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueSVMMemFill", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue QueueHandle, cl_bool Blocking,
                                                cl_map_flags Flags, void *Pointer, size_t Size,
                                                cl_uint NumWait, const cl_event *WaitList,
                                                cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueSVMMap, QueueHandle, Blocking, Flags, Pointer, Size,
                                   NumWait, WaitList, Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK(!Pointer || Size == 0, CL_INVALID_VALUE);
  return onAppDevice(*Q, CL_COMMAND_SVM_MAP, NumWait, WaitList, Event, Blocking,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueSVMMap(Real, CL_FALSE, Flags, Pointer, Size,
                                                               0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueSVMMap", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue QueueHandle, void *Pointer,
                                                  cl_uint NumWait, const cl_event *WaitList,
                                                  cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueSVMUnmap, QueueHandle, Pointer, NumWait, WaitList,
                                   Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK(!Pointer, CL_INVALID_VALUE);
  return onAppDevice(*Q, CL_COMMAND_SVM_UNMAP, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueSVMUnmap(Real, Pointer, 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueSVMUnmap", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueSVMMigrateMem(
    cl_command_queue QueueHandle, cl_uint NumPointers, const void **Pointers, const size_t *Sizes,
    cl_mem_migration_flags Flags, cl_uint NumWait, const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueSVMMigrateMem, QueueHandle, NumPointers, Pointers,
                                   Sizes, Flags, NumWait, WaitList, Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK(NumPointers == 0 || !Pointers, CL_INVALID_VALUE);
  auto Moved = std::make_shared<std::vector<const void *>>(Pointers, Pointers + NumPointers);
  std::vector<size_t> Lengths =
      Sizes ? std::vector<size_t>(Sizes, Sizes + NumPointers) : std::vector<size_t>(NumPointers, 0);
  return onAppDevice(*Q, CL_COMMAND_SVM_MIGRATE_MEM, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       return runtime().real().clEnqueueSVMMigrateMem(Real, NumPointers,
                                                                      Moved->data(), Lengths.data(),
                                                                      Flags, 0, nullptr, Done);
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueSVMMigrateMem", nullptr);
}

// Freed on the app's device in the queue's order; with the app's own function, that function
// is called instead (with the app's queue), once what came before ended there.
LIBSPLIT_API cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue QueueHandle, cl_uint NumPointers, void *Pointers[],
                 void(CL_CALLBACK *FreeFn)(cl_command_queue, cl_uint, void *[], void *),
                 void *UserData, cl_uint NumWait, const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueSVMFree, QueueHandle, NumPointers, Pointers, FreeFn,
                                   UserData, NumWait, WaitList, Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  LIBSPLIT_CHECK((NumPointers == 0) != (Pointers == nullptr), CL_INVALID_VALUE);
  auto Freed = std::make_shared<std::vector<void *>>(Pointers, Pointers + NumPointers);
  return onAppDevice(*Q, CL_COMMAND_SVM_FREE, NumWait, WaitList, Event, false,
                     [=](cl_command_queue Real, cl_event *Done) {
                       const RealApi &Api = runtime().real();
                       if (!FreeFn)
                         return Api.clEnqueueSVMFree(Real, NumPointers, Freed->data(), nullptr,
                                                     nullptr, 0, nullptr, Done);
                       cl_event Before = nullptr;
                       if (cl_int E = Api.clEnqueueMarkerWithWaitList(Real, 0, nullptr, &Before);
                           E != CL_SUCCESS)
                         return E;
                       Api.clWaitForEvents(1, &Before);
                       Api.clReleaseEvent(Before);
                       FreeFn(QueueHandle, NumPointers, Freed->data(), UserData);
                       return CL_SUCCESS;
                     });
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueSVMFree", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue QueueHandle, cl_kernel KernelHandle, cl_uint WorkDim,
    const size_t *GlobalOffset, const size_t *GlobalSize, const size_t *LocalSize, cl_uint NumWait,
    const cl_event *WaitList, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueNDRangeKernel, QueueHandle, KernelHandle, WorkDim,
                                   GlobalOffset, GlobalSize, LocalSize, NumWait, WaitList, Event);
  LIBSPLIT_SHOW_CALL("clEnqueueNDRangeKernel");
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  LIBSPLIT_CHECK(&K->program().context() != &Q->context(), CL_INVALID_CONTEXT);
  LIBSPLIT_CHECK(WorkDim < 1 || WorkDim > 3, CL_INVALID_WORK_DIMENSION);
  LaunchRequest R;
  // Without an event or a wait list, the launch may repeat the kernel's last one (launchRepeat).
  Kernel::LaunchView View =
      K->viewForLaunch(Q->exec().Real, R.Args, NumWait == 0 && !Event ? Q->serial() : 0);
  LIBSPLIT_CHECK(!View.AllSet, CL_INVALID_KERNEL_ARGS);
  R.ArgsGeneration = View.ArgsGeneration;
  Q->context().countLaunch();
  // Since OpenCL 2.1 an empty NDRange (NULL or a zero size) is a no-op, before that an error.
  bool Empty = !GlobalSize;
  for (cl_uint D = 0; GlobalSize && D < WorkDim; ++D)
    Empty |= GlobalSize[D] == 0;
  if (Empty) {
    LIBSPLIT_CHECK(Q->exec().Version < 21, CL_INVALID_GLOBAL_WORK_SIZE);
    return enqueue(*Q, CL_COMMAND_NDRANGE_KERNEL, NumWait, WaitList, Event, false,
                   [](libsplit::Event &) { return CL_SUCCESS; });
  }
  // A reqd_work_group_size attribute must be matched exactly.
  const std::array<size_t, 3> &Required = View.Required;
  if (Required[0] || Required[1] || Required[2]) {
    LIBSPLIT_CHECK(!LocalSize, CL_INVALID_WORK_GROUP_SIZE);
    for (cl_uint D = 0; D < WorkDim; ++D)
      LIBSPLIT_CHECK(LocalSize[D] != Required[D], CL_INVALID_WORK_GROUP_SIZE);
  }
  R.WorkDim = WorkDim;
  size_t GroupSize = 1;
  for (cl_uint D = 0; D < WorkDim; ++D) {
    R.Global[D] = GlobalSize[D];
    R.Offset[D] = GlobalOffset ? GlobalOffset[D] : 0;
    if (LocalSize) {
      LIBSPLIT_CHECK(LocalSize[D] == 0 || GlobalSize[D] % LocalSize[D] != 0,
                     CL_INVALID_WORK_GROUP_SIZE);
      R.Local[D] = LocalSize[D];
      GroupSize *= LocalSize[D];
    }
  }
  // The group as a whole is checked before each dimension, as implementations do.
  LIBSPLIT_CHECK(GroupSize > Q->exec().MaxWorkGroupSize, CL_INVALID_WORK_GROUP_SIZE);
  for (cl_uint D = 0; LocalSize && D < WorkDim; ++D)
    LIBSPLIT_CHECK(LocalSize[D] > Q->exec().MaxWorkItemSizes[D], CL_INVALID_WORK_ITEM_SIZE);
  R.LocalGiven = LocalSize != nullptr;
  R.EventWanted = Event != nullptr;
  R.RegionMemo = K->regionMemo().get();
  if (RT.timeline().enabled())
    R.Called = Timeline::Call{callingThreadTrack(), std::chrono::steady_clock::now()};
  // What the launch is predicted to run on the app's device, from its kernel's first launch
  // (LIBSPLIT_OPEN=auto: the app's queued work opens the split devices), whichever way it goes.
  const double Predicted = K->warmSecondsPerItem() * workItems(R);
  const auto noteQueued = [&](cl_int Result) {
    if (Result == CL_SUCCESS && Predicted > 0.0)
      Q->context().noteQueued(Predicted, NumWait == 0);
    return Result;
  };
  // Its host memory watched (a CPU app device's buffers on the app's memory), a launch first
  // takes what the app changed there: not a repeat.
  const bool Repeats = View.Repeat && !Q->context().watchesHostMemory();
  if (Repeats) {
    Q->context().noteLaunch(false);
    // The guard's decision for it, made once (a launch it measures is not a repeat); none while
    // no split device is open.
    if (Q->context().splitDevices().size() >= 2)
      R.Decided = decideAtCall(*Q, *K, R);
    cl_int Repeated = CL_SUCCESS;
    if (launchRepeat(*Q, *K, R, *View.Repeat, View.ScalarsChanged, View.SetBack, Repeated))
      return noteQueued(Repeated);
  }
  if (View.Repeat) {
    R.Args.clear();
    View = K->viewForLaunch(Q->exec().Real, R.Args);
    R.ArgsGeneration = View.ArgsGeneration;
    LIBSPLIT_CHECK(!View.AllSet, CL_INVALID_KERNEL_ARGS);
  }
  LIBSPLIT_CHECK(!View.ArgsAlive, CL_INVALID_MEM_OBJECT);
  Q->context().absorbHostChanges(R.Args);
  if (joinsProbe(*Q, *K, R) && Repeats) {
    withdrawDecision(*Q, *K, R);
    R.Decided = decideAtCall(*Q, *K, R);
  }
  // Decided whole and settled, the launch leaves its kernel running whatever the last one did.
  if (!Repeats) {
    Q->context().noteLaunch(false);
    R.Decided = decideAtCall(*Q, *K, R);
  }
  const auto wholeSettled = [&R] {
    return R.Decided && R.Decided->Launch.Run == planner::Mode::Whole && R.Decided->Settled;
  };
  if (NumWait == 0) {
    cl_int Direct = CL_SUCCESS;
    if (launchDirect(*Q, *K, R, Direct))
      return noteQueued(Direct);
    // launchDirect waited a little for the launches queued before it: another kernel's probe
    // among them may have spread buffers this one names since it was decided. Queued whole, it
    // would gather them back between that probe and its warm repeat.
    // (A measured one is kept: its sample is awaited, and the join waits for the next launch.)
    if (wholeSettled() && joinsProbe(*Q, *K, R) && !R.Decided->Launch.Measured) {
      withdrawDecision(*Q, *K, R);
      R.Decided = decideAtCall(*Q, *K, R);
    }
  }
  // The command keeps the kernel and the queue alive until it ran.
  auto Keep = K->shared_from_this();
  auto QueueKeep = Q->shared_from_this();
  const bool Whole = wholeSettled() || runsWholeOnAppDevice(*Q, *Keep, R);
  const bool RunHere = Whole || Keep->lastLaunchLeftRunning();
  return noteQueued(enqueue(
      *Q, CL_COMMAND_NDRANGE_KERNEL, NumWait, WaitList, Event, false,
      [Keep, QueueKeep, R = std::move(R)](libsplit::Event &Done) mutable {
        return executeLaunch(*QueueKeep, *Keep, R, Done);
      },
      CommandOrder::Free, false, RunHere, Whole));
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueNDRangeKernel", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueTask(cl_command_queue QueueHandle, cl_kernel KernelHandle,
                                              cl_uint NumWait, const cl_event *WaitList,
                                              cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueTask, QueueHandle, KernelHandle, NumWait, WaitList,
                                   Event);
  const size_t One = 1;
  return clEnqueueNDRangeKernel(QueueHandle, KernelHandle, 1, nullptr, &One, &One, NumWait,
                                WaitList, Event);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueTask", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue QueueHandle,
                                                      void(CL_CALLBACK *)(void *), void *, size_t,
                                                      cl_uint, const cl_mem *, const void **,
                                                      cl_uint, const cl_event *, cl_event *) try {
  Runtime &RT = runtime();
  if (!RT.splitting())
    return CL_INVALID_OPERATION;
  LIBSPLIT_CHECK(!asQueue(QueueHandle), CL_INVALID_COMMAND_QUEUE);
  return CL_INVALID_OPERATION; // devices report no CL_EXEC_NATIVE_KERNEL under libsplit
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueNativeKernel", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue QueueHandle,
                                                            cl_uint NumWait,
                                                            const cl_event *WaitList,
                                                            cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueMarkerWithWaitList, QueueHandle, NumWait, WaitList,
                                   Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  return enqueue(
      *Q, CL_COMMAND_MARKER, NumWait, WaitList, Event, false,
      [](libsplit::Event &) { return CL_SUCCESS; },
      NumWait ? CommandOrder::Free : CommandOrder::AfterEarlier);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueMarkerWithWaitList", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue QueueHandle,
                                                             cl_uint NumWait,
                                                             const cl_event *WaitList,
                                                             cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueBarrierWithWaitList, QueueHandle, NumWait, WaitList,
                                   Event);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  return enqueue(
      *Q, CL_COMMAND_BARRIER, NumWait, WaitList, Event, false,
      [](libsplit::Event &) { return CL_SUCCESS; },
      NumWait ? CommandOrder::Barrier : CommandOrder::BarrierAfterEarlier);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueBarrierWithWaitList", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueMarker(cl_command_queue QueueHandle, cl_event *Event) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueMarker, QueueHandle, Event);
  LIBSPLIT_CHECK(asQueue(QueueHandle) && !Event, CL_INVALID_VALUE);
  return clEnqueueMarkerWithWaitList(QueueHandle, 0, nullptr, Event);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueMarker", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue QueueHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueBarrier, QueueHandle);
  return clEnqueueBarrierWithWaitList(QueueHandle, 0, nullptr, nullptr);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueBarrier", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue QueueHandle,
                                                       cl_uint NumEvents,
                                                       const cl_event *EventList) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clEnqueueWaitForEvents, QueueHandle, NumEvents, EventList);
  LIBSPLIT_CHECK(asQueue(QueueHandle) && (NumEvents == 0 || !EventList), CL_INVALID_VALUE);
  return clEnqueueBarrierWithWaitList(QueueHandle, NumEvents, EventList, nullptr);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clEnqueueWaitForEvents", nullptr);
}
