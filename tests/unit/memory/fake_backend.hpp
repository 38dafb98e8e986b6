// A DeviceBackend on host memory, for the buffers' unit tests: each device's buffer is bytes of
// its own, and each device's queue runs in order what was enqueued on it, a non-blocking
// command only at a later blocking one or at finish() (as a real queue may: a buffer that read
// a host pointer too early, or relied on data before finishing, gets wrong bytes here). It
// checks what a real implementation would refuse (a queue of one device used with another's
// buffer, a region out of bounds), counts the bytes each device sent and received, and fails a
// chosen command with a chosen error. Device workers call it at once: one lock keeps it whole.
// Devices have a context each, or share one (SharedContext: two GPUs of one platform, whose
// buffers copy device to device).
#pragma once

#include "device_backend.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace libsplit::testing {

class FakeBackend final : public DeviceBackend {
public:
  explicit FakeBackend(std::size_t Devices, bool SharedContext = false);

  // The handles a device's ExecDevice carries.
  cl_context contextOf(std::size_t Device);
  cl_command_queue queueOf(std::size_t Device);

  // A device's copy of a buffer, as a kernel there reads and changes it (its queue finished).
  std::uint8_t *bytesOf(cl_mem Memory);

  std::uint64_t bytesWrittenTo(std::size_t Device) const;
  std::uint64_t bytesReadFrom(std::size_t Device) const;
  // Bytes copied into Device's buffers from other buffers (copy()).
  std::uint64_t bytesCopiedTo(std::size_t Device) const;
  // Strided transfers asked (writeStrided, readStrided), each run as its rows.
  std::size_t stridedTransfers() const { return Strided; }
  std::size_t liveEvents() const;
  std::size_t liveBuffers() const;
  // The Nth transfer from now (0: the next write or read) returns Error instead of running.
  void failTransfer(unsigned Nth, cl_int Error);

  cl_mem createBuffer(cl_context Context, cl_mem_flags Flags, std::size_t Bytes, void *HostPtr,
                      cl_int &Error) override;
  cl_mem createSubBuffer(cl_mem Parent, cl_mem_flags Flags, std::size_t Origin, std::size_t Bytes,
                         cl_int &Error) override;
  void release(cl_mem Memory) override;
  cl_int write(cl_command_queue Queue, cl_mem Target, bool Blocking, std::size_t Offset,
               std::size_t Bytes, const void *From) override;
  cl_int read(cl_command_queue Queue, cl_mem Source, bool Blocking, std::size_t Offset,
              std::size_t Bytes, void *Into) override;
  cl_int writeStrided(cl_command_queue Queue, cl_mem Target, bool Blocking, std::size_t Offset,
                      std::size_t Bytes, std::size_t Pitch, std::size_t Count,
                      const void *Host) override {
    ++Strided;
    return DeviceBackend::writeStrided(Queue, Target, Blocking, Offset, Bytes, Pitch, Count, Host);
  }
  cl_int readStrided(cl_command_queue Queue, cl_mem Source, bool Blocking, std::size_t Offset,
                     std::size_t Bytes, std::size_t Pitch, std::size_t Count, void *Host) override {
    ++Strided;
    return DeviceBackend::readStrided(Queue, Source, Blocking, Offset, Bytes, Pitch, Count, Host);
  }
  cl_int copy(cl_command_queue Queue, cl_mem Source, std::size_t SourceOffset, cl_mem Target,
              std::size_t TargetOffset, std::size_t Bytes,
              const std::vector<cl_event> &After) override;
  cl_int fill(cl_command_queue Queue, cl_mem Target, const void *Pattern, std::size_t PatternBytes,
              std::size_t Offset, std::size_t Bytes) override;
  cl_int marker(cl_command_queue Queue, cl_event &Done) override;
  cl_int wait(cl_event Done) override;
  // Host memory of its own per queue, as page-locked memory would be.
  std::uint8_t *readStaging(cl_context Context, cl_command_queue Queue, std::size_t Bytes) override;
  std::uint8_t *relayStaging(cl_context Context, cl_command_queue Queue,
                             std::size_t Bytes) override;
  // Whether relayStaging gives memory (a backend without page-locked memory gives none).
  void offerRelayStaging(bool Offered) { RelayOffered = Offered; }
  void releaseEvent(cl_event Event) override;
  cl_int finish(cl_command_queue Queue) override;

private:
  std::size_t Strided = 0;
  struct Memory {
    std::size_t Context;
    std::shared_ptr<std::vector<std::uint8_t>> Storage; // shared by a buffer and its sub-buffers
    std::size_t Origin, Size;
  };
  struct DeviceState {
    std::size_t Context = 0; // its index in Contexts
    char Queue = 0;          // its address is the device's queue
    std::deque<std::function<void()>> Pending;
  };
  Memory *find(cl_mem Handle);
  // Checks what every command needs: a queue of the backend, a buffer of its context, a region in
  // bounds; then the failure asked for, if this is the command.
  cl_int check(cl_command_queue Queue, cl_mem Handle, std::size_t Offset, std::size_t Bytes);
  std::size_t deviceOfQueue(cl_command_queue Queue) const;
  // Checks a transfer, then runs it at once (Blocking: after the queue's pending commands) or
  // queues it.
  cl_int transfer(cl_command_queue Queue, cl_mem Handle, bool Blocking, std::size_t Offset,
                  std::size_t Bytes, std::function<void(std::uint8_t *)> Run);
  void runPending(std::size_t Device);

  mutable std::mutex Mutex; // every member below; held by each public function
  std::vector<std::unique_ptr<DeviceState>> Devices;
  std::vector<std::unique_ptr<char>> Contexts; // their addresses are the contexts' handles
  std::map<cl_event, std::size_t> Events;      // markers not released, by their device
  std::map<cl_command_queue, std::vector<std::uint8_t>> Staging;
  std::map<cl_command_queue, std::vector<std::uint8_t>> RelayRings;
  bool RelayOffered = true;
  std::map<cl_mem, std::unique_ptr<Memory>> Buffers;
  std::vector<std::uint64_t> Written, Read, Copied;
  unsigned TransfersUntilFailure = 0;
  cl_int Failure = CL_SUCCESS;
};

} // namespace libsplit::testing
