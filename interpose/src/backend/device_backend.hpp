// What libsplit's buffers ask of a device below them: memory objects, copies between those and
// host memory, and between two devices' buffers of one context, each on one device's in-order
// queue (commands run in the order enqueued).
// RealBackend runs them with the real OpenCL implementation; the unit tests of the buffers run
// them on host memory (tests/unit/memory/fake_backend.hpp), so that which bytes go where, and
// whether the right ones arrive, is tested without a device.
#pragma once

#include "opencl.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace libsplit {

class DeviceBackend {
public:
  virtual ~DeviceBackend() = default;

  // A buffer of Bytes in Context (flags and host pointer as clCreateBuffer takes them); null
  // with Error set when the implementation refuses it.
  virtual cl_mem createBuffer(cl_context Context, cl_mem_flags Flags, std::size_t Bytes,
                              void *HostPtr, cl_int &Error) = 0;
  // [Origin, Origin + Bytes) of Parent as a buffer of its own (clCreateSubBuffer's region).
  virtual cl_mem createSubBuffer(cl_mem Parent, cl_mem_flags Flags, std::size_t Origin,
                                 std::size_t Bytes, cl_int &Error) = 0;
  virtual void release(cl_mem Memory) = 0;
  // Host memory From into [Offset, Offset + Bytes) of Target, enqueued on Queue; Blocking:
  // returns once the bytes are there, else From must stay as it is until finish(Queue).
  virtual cl_int write(cl_command_queue Queue, cl_mem Target, bool Blocking, std::size_t Offset,
                       std::size_t Bytes, const void *From) = 0;
  // [Offset, Offset + Bytes) of Source into host memory Into, the same way.
  virtual cl_int read(cl_command_queue Queue, cl_mem Source, bool Blocking, std::size_t Offset,
                      std::size_t Bytes, void *Into) = 0;
  // Count spans of Bytes, Pitch apart, from Offset: host memory at Host + the same offsets into
  // Target, or the other way (readStrided), the same way as write and read. By default one
  // command per span; the real backend makes it one rectangular transfer.
  virtual cl_int writeStrided(cl_command_queue Queue, cl_mem Target, bool Blocking,
                              std::size_t Offset, std::size_t Bytes, std::size_t Pitch,
                              std::size_t Count, const void *Host) {
    for (std::size_t I = 0; I < Count; ++I)
      if (cl_int E = write(Queue, Target, Blocking, Offset + I * Pitch, Bytes,
                           static_cast<const unsigned char *>(Host) + Offset + I * Pitch);
          E != CL_SUCCESS)
        return E;
    return CL_SUCCESS;
  }
  virtual cl_int readStrided(cl_command_queue Queue, cl_mem Source, bool Blocking,
                             std::size_t Offset, std::size_t Bytes, std::size_t Pitch,
                             std::size_t Count, void *Host) {
    for (std::size_t I = 0; I < Count; ++I)
      if (cl_int E = read(Queue, Source, Blocking, Offset + I * Pitch, Bytes,
                          static_cast<unsigned char *>(Host) + Offset + I * Pitch);
          E != CL_SUCCESS)
        return E;
    return CL_SUCCESS;
  }
  // [SourceOffset, SourceOffset + Bytes) of Source into Target at TargetOffset, enqueued on
  // Queue to start once every event of After has completed. Source may be the buffer of another
  // device of Queue's context: the bytes then go device to device, not through the host.
  virtual cl_int copy(cl_command_queue Queue, cl_mem Source, std::size_t SourceOffset,
                      cl_mem Target, std::size_t TargetOffset, std::size_t Bytes,
                      const std::vector<cl_event> &After) = 0;
  // [Offset, Offset + Bytes) of Target filled with Pattern (PatternBytes, a power of two up to
  // 128 that divides Offset and Bytes), enqueued on Queue without an event.
  virtual cl_int fill(cl_command_queue Queue, cl_mem Target, const void *Pattern,
                      std::size_t PatternBytes, std::size_t Offset, std::size_t Bytes) = 0;
  // Done: an event that completes once every command enqueued on Queue so far has ended.
  virtual cl_int marker(cl_command_queue Queue, cl_event &Done) = 0;
  // Host memory of at least Bytes that reads on Queue (of Context) land in directly: page-locked,
  // so that a read is one transfer by the device, not a copy into the driver's own staging that
  // a host thread then copies out (NVIDIA's reads into pageable memory held the queue that much
  // longer). Kept per queue and reused: valid until the next call for the queue or
  // releaseStaging. Null where the implementation has none (reads then go to the host's memory).
  virtual std::uint8_t *readStaging(cl_context Context, cl_command_queue Queue, std::size_t Bytes) {
    (void)Context, (void)Queue, (void)Bytes;
    return nullptr;
  }
  // The same, kept apart from it, for relays from Queue's device to another (Buffer::relay): a
  // ring that Queue's reads fill and the other device's writes empty.
  virtual std::uint8_t *relayStaging(cl_context Context, cl_command_queue Queue,
                                     std::size_t Bytes) {
    (void)Context, (void)Queue, (void)Bytes;
    return nullptr;
  }
  // Before the queue is released: both stagings.
  virtual void releaseStaging(cl_command_queue Queue) { (void)Queue; }
  // Returns once Done has ended: CL_SUCCESS, or the error it ended with.
  virtual cl_int wait(cl_event Done) = 0;
  virtual void releaseEvent(cl_event Event) = 0;
  // Returns once every command enqueued on Queue so far has ended.
  virtual cl_int finish(cl_command_queue Queue) = 0;
};

} // namespace libsplit
