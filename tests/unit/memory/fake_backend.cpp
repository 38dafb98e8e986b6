#include "fake_backend.hpp"

#include <cstring>
#include <stdexcept>

namespace libsplit::testing {

FakeBackend::FakeBackend(std::size_t Count, bool SharedContext)
    : Written(Count, 0), Read(Count, 0), Copied(Count, 0) {
  for (std::size_t I = 0; I < Count; ++I) {
    if (!SharedContext || Contexts.empty())
      Contexts.push_back(std::make_unique<char>(0));
    auto Device = std::make_unique<DeviceState>();
    Device->Context = Contexts.size() - 1;
    Devices.push_back(std::move(Device));
  }
}

cl_context FakeBackend::contextOf(std::size_t Device) {
  return reinterpret_cast<cl_context>(Contexts.at(Devices.at(Device)->Context).get());
}

cl_command_queue FakeBackend::queueOf(std::size_t Device) {
  return reinterpret_cast<cl_command_queue>(&Devices.at(Device)->Queue);
}

std::size_t FakeBackend::deviceOfQueue(cl_command_queue Queue) const {
  for (std::size_t I = 0; I < Devices.size(); ++I)
    if (reinterpret_cast<cl_command_queue>(&Devices[I]->Queue) == Queue)
      return I;
  throw std::logic_error("not a queue of the fake backend");
}

FakeBackend::Memory *FakeBackend::find(cl_mem Handle) {
  auto It = Buffers.find(Handle);
  return It == Buffers.end() ? nullptr : It->second.get();
}

std::uint8_t *FakeBackend::bytesOf(cl_mem Handle) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Memory *M = find(Handle);
  if (!M)
    throw std::logic_error("not a buffer of the fake backend");
  return M->Storage->data() + M->Origin;
}

std::uint64_t FakeBackend::bytesWrittenTo(std::size_t Device) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Written.at(Device);
}

std::uint64_t FakeBackend::bytesReadFrom(std::size_t Device) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Read.at(Device);
}

std::uint64_t FakeBackend::bytesCopiedTo(std::size_t Device) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Copied.at(Device);
}

std::size_t FakeBackend::liveBuffers() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Buffers.size();
}

std::size_t FakeBackend::liveEvents() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Events.size();
}

void FakeBackend::failTransfer(unsigned Nth, cl_int Error) {
  std::lock_guard<std::mutex> Lock(Mutex);
  TransfersUntilFailure = Nth + 1;
  Failure = Error;
}

cl_mem FakeBackend::createBuffer(cl_context Context, cl_mem_flags Flags, std::size_t Bytes,
                                 void *HostPtr, cl_int &Error) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::size_t Index = Contexts.size();
  for (std::size_t I = 0; I < Contexts.size(); ++I)
    if (reinterpret_cast<cl_context>(Contexts[I].get()) == Context)
      Index = I;
  if (Index == Contexts.size() || Bytes == 0) {
    Error = Index == Contexts.size() ? CL_INVALID_CONTEXT : CL_INVALID_BUFFER_SIZE;
    return nullptr;
  }
  auto Storage = std::make_shared<std::vector<std::uint8_t>>(Bytes, 0xEE); // not zeros: garbage
  if (HostPtr && (Flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)))
    std::memcpy(Storage->data(), HostPtr, Bytes);
  auto Made = std::make_unique<Memory>(Memory{Index, std::move(Storage), 0, Bytes});
  // Any unique address does as a handle: the buffers never dereference one.
  cl_mem Handle = reinterpret_cast<cl_mem>(Made.get());
  Buffers.emplace(Handle, std::move(Made));
  Error = CL_SUCCESS;
  return Handle;
}

cl_mem FakeBackend::createSubBuffer(cl_mem Parent, cl_mem_flags, std::size_t Origin,
                                    std::size_t Bytes, cl_int &Error) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Memory *Of = find(Parent);
  if (!Of || Origin + Bytes > Of->Size || Bytes == 0) {
    Error = Of ? CL_INVALID_VALUE : CL_INVALID_MEM_OBJECT;
    return nullptr;
  }
  auto Made =
      std::make_unique<Memory>(Memory{Of->Context, Of->Storage, Of->Origin + Origin, Bytes});
  cl_mem Handle = reinterpret_cast<cl_mem>(Made.get());
  Buffers.emplace(Handle, std::move(Made));
  Error = CL_SUCCESS;
  return Handle;
}

void FakeBackend::release(cl_mem Handle) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Buffers.erase(Handle) == 0)
    throw std::logic_error("released a buffer the fake backend does not hold");
}

cl_int FakeBackend::check(cl_command_queue Queue, cl_mem Handle, std::size_t Offset,
                          std::size_t Bytes) {
  Memory *M = find(Handle);
  if (!M)
    return CL_INVALID_MEM_OBJECT;
  if (M->Context != Devices[deviceOfQueue(Queue)]->Context)
    return CL_INVALID_CONTEXT;
  if (Offset + Bytes > M->Size || Bytes == 0)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int FakeBackend::transfer(cl_command_queue Queue, cl_mem Handle, bool Blocking,
                             std::size_t Offset, std::size_t Bytes,
                             std::function<void(std::uint8_t *)> Run) {
  if (cl_int Error = check(Queue, Handle, Offset, Bytes); Error != CL_SUCCESS)
    return Error;
  if (TransfersUntilFailure > 0 && --TransfersUntilFailure == 0)
    return Failure;
  Memory *M = find(Handle);
  // The storage stays alive with the command, as a real buffer does while a command uses it.
  std::function<void()> Command = [Storage = M->Storage, At = M->Origin + Offset,
                                   Run = std::move(Run)] { Run(Storage->data() + At); };
  const std::size_t Device = deviceOfQueue(Queue);
  Devices[Device]->Pending.push_back(std::move(Command));
  if (Blocking)
    runPending(Device);
  return CL_SUCCESS;
}

void FakeBackend::runPending(std::size_t Device) {
  DeviceState &State = *Devices[Device];
  while (!State.Pending.empty()) {
    State.Pending.front()();
    State.Pending.pop_front();
  }
}

cl_int FakeBackend::write(cl_command_queue Queue, cl_mem Target, bool Blocking, std::size_t Offset,
                          std::size_t Bytes, const void *From) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const cl_int Error = transfer(Queue, Target, Blocking, Offset, Bytes,
                                [From, Bytes](auto *At) { std::memcpy(At, From, Bytes); });
  if (Error == CL_SUCCESS)
    Written[deviceOfQueue(Queue)] += Bytes;
  return Error;
}

cl_int FakeBackend::read(cl_command_queue Queue, cl_mem Source, bool Blocking, std::size_t Offset,
                         std::size_t Bytes, void *Into) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const cl_int Error = transfer(Queue, Source, Blocking, Offset, Bytes,
                                [Into, Bytes](auto *At) { std::memcpy(Into, At, Bytes); });
  if (Error == CL_SUCCESS)
    Read[deviceOfQueue(Queue)] += Bytes;
  return Error;
}

cl_int FakeBackend::copy(cl_command_queue Queue, cl_mem Source, std::size_t SourceOffset,
                         cl_mem Target, std::size_t TargetOffset, std::size_t Bytes,
                         const std::vector<cl_event> &After) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (cl_event E : After)
    if (!Events.count(E))
      return CL_INVALID_EVENT_WAIT_LIST;
  if (cl_int Error = check(Queue, Source, SourceOffset, Bytes); Error != CL_SUCCESS)
    return Error;
  Memory *From = find(Source);
  // The source's bytes as the copy runs: a marker of After ran its device's earlier commands.
  const cl_int Error =
      transfer(Queue, Target, false, TargetOffset, Bytes,
               [Storage = From->Storage, At = From->Origin + SourceOffset, Bytes](auto *Into) {
                 std::memcpy(Into, Storage->data() + At, Bytes);
               });
  if (Error == CL_SUCCESS)
    Copied[deviceOfQueue(Queue)] += Bytes;
  return Error;
}

cl_int FakeBackend::fill(cl_command_queue Queue, cl_mem Target, const void *Pattern,
                         std::size_t PatternBytes, std::size_t Offset, std::size_t Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (PatternBytes == 0 || Offset % PatternBytes || Bytes % PatternBytes)
    return CL_INVALID_VALUE;
  // The pattern as the call passed it: the caller's copy may be gone when the fill runs.
  const auto *From = static_cast<const std::uint8_t *>(Pattern);
  return transfer(Queue, Target, false, Offset, Bytes,
                  [Copy = std::vector<std::uint8_t>(From, From + PatternBytes), Bytes](auto *Into) {
                    for (std::size_t At = 0; At < Bytes; At += Copy.size())
                      std::memcpy(Into + At, Copy.data(), Copy.size());
                  });
}

cl_int FakeBackend::marker(cl_command_queue Queue, cl_event &Done) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const std::size_t Device = deviceOfQueue(Queue);
  runPending(Device); // what came before it has ended once it has
  auto Token = std::make_unique<char>(0);
  Done = reinterpret_cast<cl_event>(Token.release());
  Events.emplace(Done, Device);
  return CL_SUCCESS;
}

std::uint8_t *FakeBackend::readStaging(cl_context, cl_command_queue Queue, std::size_t Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  deviceOfQueue(Queue); // checks it is one of its queues
  std::vector<std::uint8_t> &Mine = Staging[Queue];
  if (Mine.size() < Bytes)
    Mine.assign(Bytes, 0xee); // what a real staging holds before a read: not the bytes
  return Mine.data();
}

std::uint8_t *FakeBackend::relayStaging(cl_context, cl_command_queue Queue, std::size_t Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  deviceOfQueue(Queue);
  if (!RelayOffered)
    return nullptr;
  std::vector<std::uint8_t> &Mine = RelayRings[Queue];
  if (Mine.size() < Bytes)
    Mine.assign(Bytes, 0xee);
  return Mine.data();
}

cl_int FakeBackend::wait(cl_event Done) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Events.count(Done))
    throw std::logic_error("waited for an event the fake backend does not hold");
  return CL_SUCCESS; // a marker ran its queue's earlier commands when it was made
}

void FakeBackend::releaseEvent(cl_event Event) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Events.erase(Event) == 0)
    throw std::logic_error("released an event the fake backend does not hold");
  std::unique_ptr<char> Owned(reinterpret_cast<char *>(Event));
}

cl_int FakeBackend::finish(cl_command_queue Queue) {
  std::lock_guard<std::mutex> Lock(Mutex);
  runPending(deviceOfQueue(Queue));
  return CL_SUCCESS;
}

} // namespace libsplit::testing
