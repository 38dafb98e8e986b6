// The DeviceBackend of the process: the real OpenCL implementation's entry points.
#pragma once

#include "device_backend.hpp"
#include "real_api.hpp"

#include <map>
#include <mutex>

namespace libsplit {

class RealBackend final : public DeviceBackend {
public:
  explicit RealBackend(const RealApi &Api) : Api(Api) {}

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
                      const void *Host) override;
  cl_int readStrided(cl_command_queue Queue, cl_mem Source, bool Blocking, std::size_t Offset,
                     std::size_t Bytes, std::size_t Pitch, std::size_t Count, void *Host) override;
  cl_int copy(cl_command_queue Queue, cl_mem Source, std::size_t SourceOffset, cl_mem Target,
              std::size_t TargetOffset, std::size_t Bytes,
              const std::vector<cl_event> &After) override;
  cl_int fill(cl_command_queue Queue, cl_mem Target, const void *Pattern, std::size_t PatternBytes,
              std::size_t Offset, std::size_t Bytes) override;
  cl_int marker(cl_command_queue Queue, cl_event &Done) override;
  cl_int wait(cl_event Done) override;
  void releaseEvent(cl_event Event) override;
  cl_int finish(cl_command_queue Queue) override;
  std::uint8_t *readStaging(cl_context Context, cl_command_queue Queue, std::size_t Bytes) override;
  std::uint8_t *relayStaging(cl_context Context, cl_command_queue Queue,
                             std::size_t Bytes) override;
  void releaseStaging(cl_command_queue Queue) override;

private:
  // A buffer the implementation allocates in host memory (CL_MEM_ALLOC_HOST_PTR), mapped for
  // good: the pinned memory OpenCL offers.
  struct Pinned {
    cl_mem Buffer = nullptr;
    std::uint8_t *Mapped = nullptr;
    std::size_t Bytes = 0;
  };
  void unmap(cl_command_queue Queue, Pinned &P);
  enum class Use { Read, Relay };
  std::uint8_t *staging(cl_context Context, cl_command_queue Queue, std::size_t Bytes, Use For);

  const RealApi &Api;
  std::mutex Mutex;
  std::map<std::pair<cl_command_queue, Use>, Pinned> Staging;
};

} // namespace libsplit
