#include "real_backend.hpp"

namespace libsplit {

cl_mem RealBackend::createBuffer(cl_context Context, cl_mem_flags Flags, std::size_t Bytes,
                                 void *HostPtr, cl_int &Error) {
  return Api.clCreateBuffer(Context, Flags, Bytes, HostPtr, &Error);
}

cl_mem RealBackend::createSubBuffer(cl_mem Parent, cl_mem_flags Flags, std::size_t Origin,
                                    std::size_t Bytes, cl_int &Error) {
  cl_buffer_region Region{Origin, Bytes};
  return Api.clCreateSubBuffer(Parent, Flags, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
}

void RealBackend::release(cl_mem Memory) { Api.clReleaseMemObject(Memory); }

cl_int RealBackend::write(cl_command_queue Queue, cl_mem Target, bool Blocking, std::size_t Offset,
                          std::size_t Bytes, const void *From) {
  return Api.clEnqueueWriteBuffer(Queue, Target, Blocking ? CL_TRUE : CL_FALSE, Offset, Bytes, From,
                                  0, nullptr, nullptr);
}

cl_int RealBackend::read(cl_command_queue Queue, cl_mem Source, bool Blocking, std::size_t Offset,
                         std::size_t Bytes, void *Into) {
  return Api.clEnqueueReadBuffer(Queue, Source, Blocking ? CL_TRUE : CL_FALSE, Offset, Bytes, Into,
                                 0, nullptr, nullptr);
}

namespace {
// Count rows of Bytes, Pitch apart, from Offset, the same in the buffer and in host memory, as
// one rectangle (Rectangle: clEnqueueWriteBufferRect or ReadBufferRect); an implementation that
// refuses it (an origin past the row pitch) gets rows, by Rows.
template <typename RectCall, typename HostPointer, typename RowsCall>
cl_int stridedOrRows(RectCall Rectangle, cl_command_queue Queue, cl_mem Memory, bool Blocking,
                     std::size_t Offset, std::size_t Bytes, std::size_t Pitch, std::size_t Count,
                     HostPointer Host, RowsCall Rows) {
  const std::size_t Origin[3] = {Offset, 0, 0}, Region[3] = {Bytes, Count, 1};
  const cl_int Error = Rectangle(Queue, Memory, Blocking ? CL_TRUE : CL_FALSE, Origin, Origin,
                                 Region, Pitch, 0, Pitch, 0, Host, 0, nullptr, nullptr);
  return Error == CL_INVALID_VALUE ? Rows() : Error;
}
} // namespace

cl_int RealBackend::writeStrided(cl_command_queue Queue, cl_mem Target, bool Blocking,
                                 std::size_t Offset, std::size_t Bytes, std::size_t Pitch,
                                 std::size_t Count, const void *Host) {
  return stridedOrRows(Api.clEnqueueWriteBufferRect, Queue, Target, Blocking, Offset, Bytes, Pitch,
                       Count, Host, [&] {
                         return DeviceBackend::writeStrided(Queue, Target, Blocking, Offset, Bytes,
                                                            Pitch, Count, Host);
                       });
}

cl_int RealBackend::readStrided(cl_command_queue Queue, cl_mem Source, bool Blocking,
                                std::size_t Offset, std::size_t Bytes, std::size_t Pitch,
                                std::size_t Count, void *Host) {
  return stridedOrRows(Api.clEnqueueReadBufferRect, Queue, Source, Blocking, Offset, Bytes, Pitch,
                       Count, Host, [&] {
                         return DeviceBackend::readStrided(Queue, Source, Blocking, Offset, Bytes,
                                                           Pitch, Count, Host);
                       });
}

cl_int RealBackend::copy(cl_command_queue Queue, cl_mem Source, std::size_t SourceOffset,
                         cl_mem Target, std::size_t TargetOffset, std::size_t Bytes,
                         const std::vector<cl_event> &After) {
  return Api.clEnqueueCopyBuffer(Queue, Source, Target, SourceOffset, TargetOffset, Bytes,
                                 static_cast<cl_uint>(After.size()),
                                 After.empty() ? nullptr : After.data(), nullptr);
}

cl_int RealBackend::fill(cl_command_queue Queue, cl_mem Target, const void *Pattern,
                         std::size_t PatternBytes, std::size_t Offset, std::size_t Bytes) {
  return Api.clEnqueueFillBuffer(Queue, Target, Pattern, PatternBytes, Offset, Bytes, 0, nullptr,
                                 nullptr);
}

cl_int RealBackend::marker(cl_command_queue Queue, cl_event &Done) {
  const cl_int Error = Api.clEnqueueMarkerWithWaitList(Queue, 0, nullptr, &Done);
  // A marker is not flushed by itself: another queue's command waiting on it might wait for ever.
  if (Error == CL_SUCCESS)
    Api.clFlush(Queue);
  return Error;
}

std::uint8_t *RealBackend::readStaging(cl_context Context, cl_command_queue Queue,
                                       std::size_t Bytes) {
  return staging(Context, Queue, Bytes, Use::Read);
}

std::uint8_t *RealBackend::relayStaging(cl_context Context, cl_command_queue Queue,
                                        std::size_t Bytes) {
  return staging(Context, Queue, Bytes, Use::Relay);
}

std::uint8_t *RealBackend::staging(cl_context Context, cl_command_queue Queue, std::size_t Bytes,
                                   Use For) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Pinned &P = Staging[{Queue, For}];
  if (P.Bytes >= Bytes)
    return P.Mapped;
  unmap(Queue, P);
  // Grown by doubling from 1 MiB: a stencil's halos take a few rows.
  std::size_t Size = std::size_t{1} << 20;
  while (Size < Bytes)
    Size *= 2;
  cl_int Error = CL_SUCCESS;
  P.Buffer =
      Api.clCreateBuffer(Context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, Size, nullptr, &Error);
  if (!P.Buffer)
    return nullptr;
  void *Host = Api.clEnqueueMapBuffer(Queue, P.Buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, Size,
                                      0, nullptr, nullptr, &Error);
  if (!Host) {
    Api.clReleaseMemObject(P.Buffer);
    P = Pinned{};
    return nullptr;
  }
  P.Mapped = static_cast<std::uint8_t *>(Host);
  P.Bytes = Size;
  return P.Mapped;
}

void RealBackend::unmap(cl_command_queue Queue, Pinned &P) {
  if (!P.Buffer)
    return;
  Api.clEnqueueUnmapMemObject(Queue, P.Buffer, P.Mapped, 0, nullptr, nullptr);
  Api.clFinish(Queue);
  Api.clReleaseMemObject(P.Buffer);
  P = Pinned{};
}

void RealBackend::releaseStaging(cl_command_queue Queue) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (Use For : {Use::Read, Use::Relay})
    if (auto It = Staging.find({Queue, For}); It != Staging.end()) {
      unmap(Queue, It->second);
      Staging.erase(It);
    }
}

cl_int RealBackend::wait(cl_event Done) {
  // Waited for inside a launch, as clFinish waits for a fetch's reads: not polled (waitQuietly
  // sleeps 25 us and more between its looks, which a halo's round trip pays every launch).
  Api.clWaitForEvents(1, &Done);
  cl_int Status = CL_COMPLETE;
  if (const cl_int Error = Api.clGetEventInfo(Done, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                              sizeof(Status), &Status, nullptr);
      Error != CL_SUCCESS)
    return Error;
  return Status < 0 ? Status : CL_SUCCESS;
}

void RealBackend::releaseEvent(cl_event Event) { Api.clReleaseEvent(Event); }

cl_int RealBackend::finish(cl_command_queue Queue) { return Api.clFinish(Queue); }

} // namespace libsplit
