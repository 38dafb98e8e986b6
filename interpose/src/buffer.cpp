#include "buffer.hpp"

#include "runtime.hpp"

#include <cstring>

namespace libsplit {

namespace {
constexpr cl_mem_flags KernelAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
}

Buffer::Buffer(std::shared_ptr<Context> Owner, cl_mem_flags Flags, size_t Size, void *HostPtr)
    : Owner(std::move(Owner)), Flags(Flags), Size(Size),
      HostPtr((Flags & CL_MEM_USE_HOST_PTR) ? HostPtr : nullptr) {
  initHandle(*this, HandleMagic::Mem);
  const std::size_t Devices = this->Owner->devices().size();
  Real.assign(Devices, nullptr);
  DeviceValid.resize(Devices);
  // Only the host copy is valid at first (zeros, or the app's data). Treating never-written
  // bytes as valid everywhere would save a transfer, but devices would then hold different
  // garbage, and a merge by diff would take a device's garbage for a write.
  HostValid.add(0, Size);
  EverWritten = HostPtr != nullptr; // the app's own memory holds its data
  runtime().addLiveMem(static_cast<_cl_mem *>(this));
}

Buffer::Buffer(std::shared_ptr<Buffer> Parent, cl_mem_flags Flags, size_t Origin, size_t Size)
    : Owner(Parent->Owner), Parent(std::move(Parent)), Flags(Flags), Size(Size), Origin(Origin) {
  initHandle(*this, HandleMagic::Mem);
  Real.assign(Owner->devices().size(), nullptr);
  if (this->Parent->HostPtr)
    HostPtr = static_cast<std::uint8_t *>(this->Parent->HostPtr) + Origin;
  runtime().addLiveMem(static_cast<_cl_mem *>(this));
}

Buffer::~Buffer() {
  runtime().removeLiveMem(static_cast<_cl_mem *>(this));
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend(); ++It)
    It->first(this, It->second);
  for (cl_mem M : Real)
    if (M)
      runtime().real().clReleaseMemObject(M);
}

cl_int Buffer::initialize() {
  cl_int Error = CL_SUCCESS;
  if (!realOn(Owner->primary(), Error))
    return Error;
  if (!Parent && (Flags & CL_MEM_COPY_HOST_PTR))
    return CL_SUCCESS; // the caller copies the data in with write()
  return CL_SUCCESS;
}

cl_mem Buffer::realOn(ExecDevice &Device, cl_int &Error) {
  std::lock_guard<std::mutex> Lock(Mutex);
  cl_mem &Slot = Real[Device.Index];
  Error = CL_SUCCESS;
  if (Slot)
    return Slot;
  const RealApi &Api = runtime().real();
  if (Parent) {
    cl_mem ParentReal = Parent->realOn(Device, Error);
    if (!ParentReal)
      return nullptr;
    cl_buffer_region Region{Origin, Size};
    Slot = Api.clCreateSubBuffer(ParentReal, Flags & KernelAccessFlags,
                                 CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
    return Slot;
  }
  Slot = Api.clCreateBuffer(Device.RealContext, Flags & KernelAccessFlags, Size, nullptr, &Error);
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
  RangeSet Missing = Wanted;
  Missing.subtract(DeviceValid[DeviceIndex]);
  return Missing;
}

bool Buffer::validOnHost(const RangeSet &Ranges) {
  if (Parent)
    return root().validOnHost(Ranges);
  for (const Span &S : Ranges.spans())
    if (!HostValid.contains(S.Begin, S.End))
      return false;
  return true;
}

cl_int Buffer::fetchToHost(const RangeSet &Wanted) {
  if (Parent)
    return root().fetchToHost(Wanted);
  RangeSet Missing = Wanted;
  Missing.subtract(HostValid);
  if (Missing.empty())
    return CL_SUCCESS;
  std::uint8_t *Host = hostData();
  std::vector<DeviceJob> Jobs;
  auto &Devices = Owner->devices();
  for (std::size_t D = 0; D < Devices.size() && !Missing.empty(); ++D) {
    RangeSet Here = DeviceValid[D].intersection(Missing);
    if (Here.empty())
      continue;
    Missing.subtract(Here);
    cl_int Error = CL_SUCCESS;
    cl_mem Source = realOn(*Devices[D], Error);
    if (!Source)
      return Error;
    ExecDevice *Device = Devices[D].get();
    Jobs.push_back({Device, [Device, Source, Here, Host] {
                      const RealApi &Api = runtime().real();
                      for (const Span &S : Here.spans()) {
                        cl_int E =
                            Api.clEnqueueReadBuffer(Device->RealQueue, Source, CL_FALSE, S.Begin,
                                                    S.size(), Host + S.Begin, 0, nullptr, nullptr);
                        if (E != CL_SUCCESS)
                          return E;
                      }
                      return Api.clFinish(Device->RealQueue);
                    }});
  }
  cl_int Result = runOnDevices(std::move(Jobs));
  if (Result == CL_SUCCESS)
    HostValid.add(Wanted);
  return Result;
}

cl_int Buffer::pushOnWorker(ExecDevice &Device, const RangeSet &Ranges) {
  if (Ranges.empty())
    return CL_SUCCESS;
  Buffer &Root = root();
  cl_int Error = CL_SUCCESS;
  cl_mem Target = Root.realOn(Device, Error);
  if (!Target)
    return Error;
  const std::uint8_t *Host = Root.hostData();
  const RealApi &Api = runtime().real();
  for (const Span &S : Ranges.spans()) {
    Error = Api.clEnqueueWriteBuffer(Device.RealQueue, Target, CL_FALSE, S.Begin, S.size(),
                                     Host + S.Begin, 0, nullptr, nullptr);
    if (Error != CL_SUCCESS)
      return Error;
  }
  return Api.clFinish(Device.RealQueue);
}

void Buffer::markValidOn(std::size_t DeviceIndex, const RangeSet &Ranges) {
  if (Parent)
    return root().markValidOn(DeviceIndex, Ranges);
  DeviceValid[DeviceIndex].add(Ranges);
}

void Buffer::wroteOn(std::size_t DeviceIndex, const RangeSet &Ranges) {
  if (Parent)
    return root().wroteOn(DeviceIndex, Ranges);
  EverWritten = true;
  HostValid.subtract(Ranges);
  for (std::size_t D = 0; D < DeviceValid.size(); ++D)
    if (D == DeviceIndex)
      DeviceValid[D].add(Ranges);
    else
      DeviceValid[D].subtract(Ranges);
}

void Buffer::wroteOnHost(const RangeSet &Ranges) {
  if (Parent)
    return root().wroteOnHost(Ranges);
  EverWritten = true;
  HostValid.add(Ranges);
  for (RangeSet &Valid : DeviceValid)
    Valid.subtract(Ranges);
}

cl_int Buffer::read(size_t Offset, size_t Bytes, void *Destination) {
  Buffer &Root = root();
  const size_t Base = rootOffset() + Offset;
  RangeSet Wanted(Base, Base + Bytes);
  auto *Out = static_cast<std::uint8_t *>(Destination);
  // Bytes valid on the host are copied directly; the rest comes from the devices, each
  // range from one device holding it, all devices at once.
  RangeSet FromHost = Root.HostValid.intersection(Wanted);
  RangeSet Rest = Wanted;
  Rest.subtract(FromHost);
  std::vector<DeviceJob> Jobs;
  auto &Devices = Owner->devices();
  for (std::size_t D = 0; D < Devices.size() && !Rest.empty(); ++D) {
    RangeSet Here = Root.DeviceValid[D].intersection(Rest);
    if (Here.empty())
      continue;
    Rest.subtract(Here);
    cl_int Error = CL_SUCCESS;
    cl_mem Source = Root.realOn(*Devices[D], Error);
    if (!Source)
      return Error;
    ExecDevice *Device = Devices[D].get();
    Jobs.push_back({Device, [Device, Source, Here, Out, Base] {
                      const RealApi &Api = runtime().real();
                      for (const Span &S : Here.spans()) {
                        cl_int E = Api.clEnqueueReadBuffer(
                            Device->RealQueue, Source, CL_FALSE, S.Begin, S.size(),
                            Out + (S.Begin - Base), 0, nullptr, nullptr);
                        if (E != CL_SUCCESS)
                          return E;
                      }
                      return Api.clFinish(Device->RealQueue);
                    }});
  }
  FromHost.add(Rest); // valid nowhere cannot happen; the host copy is the safe answer
  if (!FromHost.empty()) {
    const std::uint8_t *Host = Root.hostData();
    for (const Span &S : FromHost.spans())
      std::memcpy(Out + (S.Begin - Base), Host + S.Begin, S.size());
  }
  return runOnDevices(std::move(Jobs));
}

void Buffer::write(size_t Offset, size_t Bytes, const void *Source) {
  Buffer &Root = root();
  const size_t Base = rootOffset() + Offset;
  std::uint8_t *Host = Root.hostData();
  if (Host + Base != Source)
    std::memmove(Host + Base, Source, Bytes);
  Root.wroteOnHost(RangeSet(Base, Base + Bytes));
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
