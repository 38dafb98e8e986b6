// A DeviceBackend on host memory, for the buffers' unit tests: each device's buffer is bytes of
// its own, and each device's queue runs in order what was enqueued on it, a non-blocking
// command only at a later blocking one or at finish() (as a real queue may: a buffer that read
// a host pointer too early, or relied on data before finishing, gets wrong bytes here). It
// checks what a real implementation would refuse (a queue of one device used with another's
// buffer, a region out of bounds), counts the bytes each device sent and received, and fails a
// chosen command with a chosen error. Device workers call it at once: one lock keeps it whole.
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
  explicit FakeBackend(std::size_t Devices);

  // The handles a device's ExecDevice carries.
  cl_context contextOf(std::size_t Device);
  cl_command_queue queueOf(std::size_t Device);

  // A device's copy of a buffer, as a kernel there reads and changes it (its queue finished).
  std::uint8_t *bytesOf(cl_mem Memory);
  std::size_t deviceOf(cl_mem Memory) const;

  std::uint64_t bytesWrittenTo(std::size_t Device) const;
  std::uint64_t bytesReadFrom(std::size_t Device) const;
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
  cl_int finish(cl_command_queue Queue) override;

private:
  struct Memory {
    std::size_t Device;
    std::shared_ptr<std::vector<std::uint8_t>> Storage; // shared by a buffer and its sub-buffers
    std::size_t Origin, Size;
  };
  struct DeviceState {
    char Context = 0, Queue = 0; // their addresses are the device's handles
    std::deque<std::function<void()>> Pending;
  };
  Memory *find(cl_mem Handle);
  std::size_t deviceOfQueue(cl_command_queue Queue) const;
  // Checks a transfer, then runs it at once (Blocking: after the queue's pending commands) or
  // queues it.
  cl_int transfer(cl_command_queue Queue, cl_mem Handle, bool Blocking, std::size_t Offset,
                  std::size_t Bytes, std::function<void(std::uint8_t *)> Run);
  void runPending(std::size_t Device);

  mutable std::mutex Mutex; // every member below; held by each public function
  std::vector<std::unique_ptr<DeviceState>> Devices;
  std::map<cl_mem, std::unique_ptr<Memory>> Buffers;
  std::vector<std::uint64_t> Written, Read;
  unsigned TransfersUntilFailure = 0;
  cl_int Failure = CL_SUCCESS;
};

} // namespace libsplit::testing
