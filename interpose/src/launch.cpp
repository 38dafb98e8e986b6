#include "launch.hpp"

#include "runtime.hpp"

#include "libsplit/analysis/evaluator.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace libsplit {

namespace {

struct Slice {
  ExecDevice *Device = nullptr;
  std::size_t FirstGroup = 0;
  std::size_t EndGroup = 0;
};

// What one buffer (a root buffer: arguments that alias share one entry) needs per device.
struct BufferPlan {
  Buffer *Root = nullptr;
  bool MayBeWritten = false;
  bool Merge = false;                    // written regions unknown or overlapping: merge by diff
  std::map<std::size_t, RangeSet> Need;  // by device index: bytes that must be valid before
  std::map<std::size_t, RangeSet> Write; // by device index: bytes it may write
  std::map<std::size_t, RangeSet> Missing;
};

RangeSet wholeOf(Buffer &B) {
  const size_t Base = B.rootOffset();
  return RangeSet(Base, Base + B.size());
}

cl_int setArgs(cl_kernel Real, ExecDevice &Device, const std::vector<KernelArg> &Args) {
  const RealApi &Api = runtime().real();
  for (cl_uint I = 0; I < Args.size(); ++I) {
    const KernelArg &A = Args[I];
    cl_int Error = CL_SUCCESS;
    switch (A.What) {
    case KernelArg::Kind::Buffer: {
      cl_mem Mem = A.Mem->realOn(Device, Error);
      if (!Mem)
        return Error;
      Error = Api.clSetKernelArg(Real, I, sizeof(cl_mem), &Mem);
      break;
    }
    case KernelArg::Kind::NullBuffer:
      Error = Api.clSetKernelArg(Real, I, sizeof(cl_mem), nullptr);
      break;
    case KernelArg::Kind::Local:
      Error = Api.clSetKernelArg(Real, I, A.LocalSize, nullptr);
      break;
    case KernelArg::Kind::Bytes:
      Error = Api.clSetKernelArg(Real, I, A.Value.size(), A.Value.data());
      break;
    case KernelArg::Kind::Unset:
      return CL_INVALID_KERNEL_ARGS;
    }
    if (Error != CL_SUCCESS)
      return Error;
  }
  return CL_SUCCESS;
}

bool readOnlyForKernels(const Buffer &B) {
  const Buffer *Top = &B;
  // A sub-buffer inherits its parent's access unless it says otherwise.
  while (Top && !(Top->flags() & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE)))
    Top = Top->parent();
  return Top && (Top->flags() & CL_MEM_READ_ONLY);
}

// The whole launch on one device, with the app's own NDRange (NULL local size included).
cl_int runWhole(Queue &Q, Kernel &K, const LaunchRequest &R, ExecDevice &Device) {
  std::vector<std::pair<Buffer *, RangeSet>> Missing;
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Buffer)
      Missing.emplace_back(A.Mem.get(), A.Mem->missingOn(Device.Index, wholeOf(*A.Mem)));
  for (auto &[B, Ranges] : Missing)
    if (cl_int Error = B->fetchToHost(Ranges); Error != CL_SUCCESS)
      return Error;
  const cl_int Result =
      runOnDevices({{&Device, [&]() -> cl_int {
                       for (auto &[B, Ranges] : Missing)
                         if (cl_int Error = B->pushOnWorker(Device, Ranges); Error != CL_SUCCESS)
                           return Error;
                       cl_int Error = CL_SUCCESS;
                       cl_kernel Real = K.realFor(Device, false, Error);
                       if (!Real)
                         return Error;
                       if ((Error = setArgs(Real, Device, R.Args)) != CL_SUCCESS)
                         return Error;
                       const RealApi &Api = runtime().real();
                       Error = Api.clEnqueueNDRangeKernel(
                           Device.RealQueue, Real, R.WorkDim, R.Offset.data(), R.Global.data(),
                           R.LocalGiven ? R.Local.data() : nullptr, 0, nullptr, nullptr);
                       if (Error != CL_SUCCESS)
                         return Error;
                       return Api.clFinish(Device.RealQueue);
                     }}});
  (void)Q;
  for (auto &[B, Ranges] : Missing)
    B->markValidOn(Device.Index, Ranges);
  if (Result != CL_SUCCESS)
    return Result;
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Buffer && !readOnlyForKernels(*A.Mem))
      A.Mem->wroteOn(Device.Index, wholeOf(*A.Mem));
  return CL_SUCCESS;
}

// A local size that divides the global size in every dimension and that every device accepts;
// used when the app left the choice to the implementation.
std::array<size_t, 3> chooseLocalSize(const LaunchRequest &R,
                                      const std::vector<ExecDevice *> &Devices) {
  std::array<size_t, 3> Local = {1, 1, 1};
  size_t Limit = 64;
  for (ExecDevice *D : Devices)
    Limit = std::min(Limit, D->MaxWorkGroupSize);
  for (ExecDevice *D : Devices)
    Limit = std::min(Limit, D->MaxWorkItemSizes[0]);
  for (size_t L = std::max<size_t>(Limit, 1); L >= 1; --L)
    if (R.Global[0] % L == 0) {
      Local[0] = L;
      break;
    }
  return Local;
}

} // namespace

cl_int executeLaunch(Queue &Q, Kernel &K, const LaunchRequest &Request, Event &Done) {
  (void)Done;
  Context &C = Q.context();
  Runtime &RT = runtime();
  std::lock_guard<std::mutex> DataLock(C.dataLock());

  std::string Why;
  const CompiledKernel *Facts = K.splitFacts(Why);
  std::vector<ExecDevice *> Devices = C.splitDevices();
  auto whole = [&](const std::string &Reason) {
    if (Devices.size() >= 2)
      RT.log().once("unsplit:" + K.name() + ":" + Reason, config::LogLevel::Info, "kernel ",
                    K.name(), " runs unsplit: ", Reason);
    return runWhole(Q, K, Request, Q.exec());
  };
  if (Devices.size() < 2)
    return whole("fewer than two devices");
  if (!Facts)
    return whole(Why);

  LaunchRequest R = Request;
  if (!R.LocalGiven) {
    R.Local = chooseLocalSize(R, Devices);
    R.LocalGiven = true;
  }
  // The dimension with the most work-groups (the region analysis will prefer one whose writes
  // are disjoint, once it provides regions).
  cl_uint Dim = 0;
  for (cl_uint D = 1; D < R.WorkDim; ++D)
    if (R.Global[D] / R.Local[D] > R.Global[Dim] / R.Local[Dim])
      Dim = D;
  const size_t Groups = R.Global[Dim] / R.Local[Dim];
  const size_t MinGroups = std::max<unsigned>(RT.config().MinGroupsPerDevice, 1);
  const size_t Used = std::min(Devices.size(), Groups / MinGroups);
  if (Used < 2)
    return whole("too few work-groups (" + std::to_string(Groups) + ") to split");

  // Uniform shares until the balancer is wired in.
  std::vector<Slice> Slices;
  for (size_t I = 0, First = 0; I < Used; ++I) {
    const size_t Count = Groups / Used + (I < Groups % Used ? 1 : 0);
    Slices.push_back({Devices[I], First, First + Count});
    First += Count;
  }

  if (RT.log().enabled(config::DebugCategory::Split)) {
    std::string Shares;
    for (const Slice &S : Slices)
      Shares += " " + S.Device->Name + "=[" + std::to_string(S.FirstGroup) + "," +
                std::to_string(S.EndGroup) + ")";
    RT.log().debug(config::DebugCategory::Split, "kernel ", K.name(), ": ", Groups,
                   " work-groups of dimension ", Dim, " split:", Shares);
  }

  // Regions per buffer. Until the region analysis lands every access is unknown: each device
  // needs whole buffers and written buffers are merged by diff against a snapshot.
  std::map<Buffer *, BufferPlan> Plans;
  for (const KernelArg &A : R.Args) {
    if (A.What != KernelArg::Kind::Buffer)
      continue;
    Buffer &Root = A.Mem->root();
    BufferPlan &P = Plans[&Root];
    P.Root = &Root;
    const bool Writes = !readOnlyForKernels(*A.Mem);
    P.MayBeWritten |= Writes;
    P.Merge |= Writes;
    for (const Slice &S : Slices) {
      P.Need[S.Device->Index].add(wholeOf(*A.Mem));
      if (Writes)
        P.Write[S.Device->Index].add(wholeOf(*A.Mem));
    }
  }

  // 1. Bring to the host whatever some device lacks and only another device holds.
  for (auto &[Root, P] : Plans) {
    RangeSet ToHost;
    for (const Slice &S : Slices) {
      RangeSet Missing = Root->missingOn(S.Device->Index, P.Need[S.Device->Index]);
      P.Missing[S.Device->Index] = Missing;
      ToHost.add(Missing);
    }
    if (P.Merge)
      ToHost.add(wholeOf(*Root));
    if (cl_int Error = Root->fetchToHost(ToHost); Error != CL_SUCCESS)
      return Error;
  }
  // Snapshots of merged buffers, taken before any device writes.
  std::map<Buffer *, std::vector<std::uint8_t>> Snapshots;
  for (auto &[Root, P] : Plans)
    if (P.Merge) {
      const std::uint8_t *Host = Root->hostData();
      Snapshots[Root].assign(Host, Host + Root->size());
    }

  // 2. Each device: its missing data in, its slice, in parallel.
  std::vector<DeviceJob> Jobs;
  for (const Slice &S : Slices) {
    ExecDevice &Device = *S.Device;
    Jobs.push_back(
        {&Device, [&, S]() -> cl_int {
           for (auto &[Root, P] : Plans)
             if (cl_int E = Root->pushOnWorker(Device, P.Missing[Device.Index]); E != CL_SUCCESS)
               return E;
           cl_int Error = CL_SUCCESS;
           cl_kernel Real = K.realFor(Device, true, Error);
           if (!Real)
             return Error;
           if ((Error = setArgs(Real, Device, R.Args)) != CL_SUCCESS)
             return Error;
           const RealApi &Api = runtime().real();
           const cl_uint SplitDim = Dim;
           const cl_ulong NumGroups = Groups;
           const cl_ulong Origin = R.Offset[Dim];
           const cl_uint First = Facts->AppArgCount;
           if ((Error = Api.clSetKernelArg(Real, First, sizeof(SplitDim), &SplitDim)) ||
               (Error = Api.clSetKernelArg(Real, First + 1, sizeof(NumGroups), &NumGroups)) ||
               (Error = Api.clSetKernelArg(Real, First + 2, sizeof(Origin), &Origin)))
             return Error;
           std::array<size_t, 3> Offset = R.Offset, Global = R.Global;
           Offset[Dim] += S.FirstGroup * R.Local[Dim];
           Global[Dim] = (S.EndGroup - S.FirstGroup) * R.Local[Dim];
           Error = Api.clEnqueueNDRangeKernel(Device.RealQueue, Real, R.WorkDim, Offset.data(),
                                              Global.data(), R.Local.data(), 0, nullptr, nullptr);
           if (Error != CL_SUCCESS)
             return Error;
           return Api.clFinish(Device.RealQueue);
         }});
  }
  const cl_int Result = runOnDevices(std::move(Jobs));
  for (auto &[Root, P] : Plans)
    for (const Slice &S : Slices)
      Root->markValidOn(S.Device->Index, P.Missing[S.Device->Index]);
  if (Result != CL_SUCCESS)
    return Result;

  // 3. Record who holds what: disjoint writes stay on their device; merged buffers come back
  //    to the host, where each byte a device changed replaces the snapshot's.
  for (auto &[Root, P] : Plans) {
    if (!P.MayBeWritten)
      continue;
    if (!P.Merge) {
      for (const Slice &S : Slices)
        Root->wroteOn(S.Device->Index, P.Write[S.Device->Index]);
      continue;
    }
    const std::vector<std::uint8_t> &Before = Snapshots[Root];
    std::uint8_t *Host = Root->hostData();
    const size_t Size = Root->size();
    std::vector<std::vector<std::uint8_t>> After(Slices.size());
    std::vector<DeviceJob> Reads;
    for (size_t I = 0; I < Slices.size(); ++I) {
      ExecDevice &Device = *Slices[I].Device;
      After[I].resize(Size);
      cl_int Error = CL_SUCCESS;
      cl_mem Source = Root->realOn(Device, Error);
      if (!Source)
        return Error;
      std::uint8_t *Into = After[I].data();
      Reads.push_back({&Device, [&Device, Source, Into, Size] {
                         const RealApi &Api = runtime().real();
                         return Api.clEnqueueReadBuffer(Device.RealQueue, Source, CL_TRUE, 0, Size,
                                                        Into, 0, nullptr, nullptr);
                       }});
    }
    if (cl_int Error = runOnDevices(std::move(Reads)); Error != CL_SUCCESS)
      return Error;
    for (const auto &Copy : After)
      for (size_t B = 0; B < Size; ++B)
        if (Copy[B] != Before[B])
          Host[B] = Copy[B];
    Root->wroteOnHost(RangeSet(0, Size));
  }
  return CL_SUCCESS;
}

} // namespace libsplit
