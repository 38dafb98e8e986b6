#include "kernel.hpp"

#include "diff_merge.hpp"

#include <algorithm>
#include <cstring>

namespace libsplit {

Kernel::Kernel(std::shared_ptr<Program> Owner, std::string Name, cl_kernel Validation)
    : Owner(std::move(Owner)), Name(std::move(Name)), Validation(Validation) {
  initHandle(*this, HandleMagic::Kernel);
  cl_uint Count = 0;
  this->Owner->context().real().clGetKernelInfo(Validation, CL_KERNEL_NUM_ARGS, sizeof(Count),
                                                &Count, nullptr);
  Args.resize(Count);
  ++this->Owner->KernelCount;
}

Kernel::~Kernel() {
  const RealApi &Real = Owner->context().real();
  for (auto &[Key, K] : this->Real)
    Real.clReleaseKernel(K.Handle);
  Real.clReleaseKernel(Validation);
  --Owner->KernelCount;
}

const CompiledKernel *Kernel::splitFacts(std::string &Why) const {
  const std::uint64_t Generation = Owner->factsGeneration();
  if (CachedGeneration.load(std::memory_order_acquire) == Generation)
    return CachedFacts.load(std::memory_order_relaxed);
  const CompiledKernel *Facts = Owner->splitKernel(Name, Why);
  // Only answers with facts are kept: Why, asked for otherwise, is not.
  if (Facts) {
    CachedFacts.store(Facts, std::memory_order_relaxed);
    CachedGeneration.store(Generation, std::memory_order_release);
  }
  return Facts;
}

std::size_t Kernel::argElementBytes(cl_uint Index, cl_kernel Other) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (ElementBytes.size() != Args.size())
    ElementBytes.assign(Args.size(), 0);
  if (Index >= ElementBytes.size())
    return 0;
  if (ElementBytes[Index] != 0)
    return ElementBytes[Index];
  const RealApi &Real = Owner->context().real();
  for (cl_kernel K : {Validation, Other}) {
    size_t Size = 0;
    if (!K || !Real.clGetKernelArgInfo ||
        Real.clGetKernelArgInfo(K, Index, CL_KERNEL_ARG_TYPE_NAME, 0, nullptr, &Size) !=
            CL_SUCCESS ||
        Size == 0)
      continue;
    std::string Type(Size, '\0');
    if (Real.clGetKernelArgInfo(K, Index, CL_KERNEL_ARG_TYPE_NAME, Size, Type.data(), nullptr) !=
        CL_SUCCESS)
      continue;
    Type.resize(std::strlen(Type.c_str()));
    if ((ElementBytes[Index] = pointeeScalarBytes(Type)) != 0)
      break;
  }
  return ElementBytes[Index];
}

namespace {

bool sameBytes(const ArgBytes &A, const ArgBytes &B) {
  return A.size() == B.size() && std::equal(A.data(), A.data() + A.size(), B.data());
}

// Whether Now, as clSetKernelArg made it, is the argument Was already is: the same buffer object
// (a kernel's weak reference keeps its control block: a buffer made since at the same address
// is another), the same bytes or __local size. Bytes that may name an image or a sampler count
// as changed: one released and another made with the same handle would read the same.
bool sameArgument(const KernelArg &Was, const KernelArg &Now) {
  if (Was.What != Now.What)
    return false;
  switch (Now.What) {
  case KernelArg::Kind::Buffer:
    return !Was.SetMem.owner_before(Now.SetMem) && !Now.SetMem.owner_before(Was.SetMem) &&
           !Was.SetMem.expired();
  case KernelArg::Kind::NullBuffer:
    return true;
  case KernelArg::Kind::Local:
    return Was.LocalSize == Now.LocalSize;
  case KernelArg::Kind::Bytes:
    return !Was.AppDeviceObject && !Now.AppDeviceObject && sameBytes(Was.Value, Now.Value);
  default:
    return false;
  }
}

} // namespace

bool Kernel::setAgain(cl_uint Index, size_t Size, const void *Value) const {
  if (!Value)
    return false;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Index >= Args.size())
    return false;
  const KernelArg &Was = Args[Index];
  if (Was.What == KernelArg::Kind::Buffer && Size == sizeof(cl_mem)) {
    cl_mem Handle;
    std::memcpy(&Handle, Value, sizeof(Handle));
    const std::shared_ptr<Buffer> Set = Was.SetMem.lock();
    return Set && static_cast<cl_mem>(Set.get()) == Handle;
  }
  // Eight bytes may name a buffer created since at that address: the full check.
  return Was.What == KernelArg::Kind::Bytes && !Was.AppDeviceObject && Size != sizeof(cl_mem) &&
         Was.Value.size() == Size && std::memcmp(Was.Value.data(), Value, Size) == 0;
}

cl_int Kernel::setArg(cl_uint Index, size_t Size, const void *Value) {
  // The argument set again as it is (a launch helper that sets every argument before each
  // launch): the real kernel accepted it then, and nothing changes.
  if (setAgain(Index, Size, Value))
    return CL_SUCCESS;
  const RealApi &Real = Owner->context().real();
  KernelArg Arg;
  cl_int Result = CL_SUCCESS;
  // Buffers are checked with the primary device's real buffer in place of ours; everything
  // else goes to the real implementation as it is, so that it reports the native errors.
  Buffer *Mem = nullptr;
  if (Value && Size == sizeof(cl_mem)) {
    cl_mem Candidate;
    std::memcpy(&Candidate, Value, sizeof(Candidate));
    if (Owner->context().contextServices().Memory.Live.contains(Candidate))
      Mem = asBuffer(Candidate);
  }
  if (Mem) {
    cl_mem RealMem = Mem->realOn(Owner->context().primary(), Result);
    if (!RealMem)
      return Result;
    Result = Real.clSetKernelArg(Validation, Index, Size, &RealMem);
    Arg.What = KernelArg::Kind::Buffer;
    Arg.SetMem = Mem->shared_from_this();
  } else {
    Result = Real.clSetKernelArg(Validation, Index, Size, Value);
    // Refused: Size may not describe Value (a __local argument given a value), so nothing of it
    // is read (ASan caught 64 bytes read from a 4-byte variable in api.kernels).
    if (Result != CL_SUCCESS)
      return Result;
    if (!Value) {
      // NULL: a __local size, or a NULL buffer. Without argument info (not every build keeps
      // it) a __local is far likelier.
      cl_kernel_arg_address_qualifier Qualifier = CL_KERNEL_ARG_ADDRESS_LOCAL;
      Real.clGetKernelArgInfo(Validation, Index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(Qualifier),
                              &Qualifier, nullptr);
      Arg.What = Qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL ? KernelArg::Kind::Local
                                                          : KernelArg::Kind::NullBuffer;
      Arg.LocalSize = Size;
    } else {
      Arg.What = KernelArg::Kind::Bytes;
      const auto *Bytes = static_cast<const std::uint8_t *>(Value);
      Arg.Value.assign(Bytes, Bytes + Size);
      if (Size == sizeof(void *)) {
        const void *Candidate = nullptr;
        std::memcpy(&Candidate, Value, sizeof(Candidate));
        Arg.AppDeviceObject =
            Owner->context().contextServices().AppDeviceObjects.contextOf(Candidate) != nullptr;
      }
    }
  }
  if (Result != CL_SUCCESS)
    return Result;
  std::lock_guard<std::mutex> Lock(Mutex);
  // The argument set again as it is (a launch helper that sets every argument before each
  // launch): nothing changed, and the next launch may still repeat the last one (RepeatMemo).
  if (Index < Args.size() && !sameArgument(Args[Index], Arg)) {
    ++ArgsChanges;
    if (Arg.What != KernelArg::Kind::Bytes || Args[Index].What != KernelArg::Kind::Bytes)
      ++BufferArgsChanges;
    Args[Index] = std::move(Arg);
  }
  return CL_SUCCESS;
}

cl_int Kernel::setSvmArg(cl_uint Index, const void *Pointer) {
  const cl_int Result =
      Owner->context().real().clSetKernelArgSVMPointer(Validation, Index, Pointer);
  if (Result != CL_SUCCESS)
    return Result;
  KernelArg Arg;
  Arg.What = KernelArg::Kind::SvmPointer;
  const auto *Bytes = reinterpret_cast<const std::uint8_t *>(&Pointer);
  Arg.Value.assign(Bytes, Bytes + sizeof(Pointer));
  Arg.AppDeviceObject = true;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Index < Args.size()) {
    ++ArgsChanges;
    ++BufferArgsChanges;
    Args[Index] = std::move(Arg);
  }
  return CL_SUCCESS;
}

cl_int Kernel::setExecInfo(cl_kernel_exec_info Param, size_t Size, const void *Value) {
  const cl_int Result = Owner->context().real().clSetKernelExecInfo(Validation, Param, Size, Value);
  if (Result != CL_SUCCESS)
    return Result;
  const auto *Bytes = static_cast<const std::uint8_t *>(Value);
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Same = std::find_if(ExecInfo.begin(), ExecInfo.end(),
                           [Param](const auto &Given) { return Given.first == Param; });
  if (Same == ExecInfo.end())
    Same = ExecInfo.insert(ExecInfo.end(), {Param, {}});
  Same->second.assign(Bytes, Bytes + Size);
  ++ExecInfoChanges;
  ++ArgsChanges;
  ++BufferArgsChanges;
  return CL_SUCCESS;
}

std::vector<std::pair<cl_kernel_exec_info, std::vector<std::uint8_t>>> Kernel::execInfo() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return ExecInfo;
}

bool Kernel::hasExecInfo() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !ExecInfo.empty();
}

bool Kernel::snapshotArgs(std::vector<KernelArg> &Out) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return snapshotLocked(Out);
}

bool Kernel::snapshotLocked(std::vector<KernelArg> &Out) const {
  // The snapshot holds each buffer, not the kernel's weak reference to it (copying that costs
  // every launch an atomic count up and down per buffer).
  Out.resize(Args.size());
  bool Alive = true;
  for (std::size_t I = 0; I < Args.size(); ++I) {
    const KernelArg &Set = Args[I];
    KernelArg &A = Out[I];
    A.What = Set.What;
    A.Value = Set.Value;
    A.LocalSize = Set.LocalSize;
    A.AppDeviceObject = Set.AppDeviceObject;
    if (Set.What == KernelArg::Kind::Buffer && !(A.Mem = Set.SetMem.lock()))
      Alive = false;
  }
  return Alive;
}

Kernel::LaunchView Kernel::viewForLaunch(cl_device_id Device, std::vector<KernelArg> &Out,
                                         std::uint64_t RepeatOn) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  LaunchView View;
  View.AllSet = std::none_of(Args.begin(), Args.end(),
                             [](const KernelArg &A) { return A.What == KernelArg::Kind::Unset; });
  View.Required = requiredGroupSizeLocked(Device);
  View.ArgsGeneration = {BufferArgsChanges, ArgsChanges};
  if (!View.AllSet)
    return View;
  if (RepeatOn && Repeat && Repeat->OnQueue == RepeatOn &&
      Repeat->BufferArgs == BufferArgsChanges) {
    View.Repeat = Repeat;
    View.ScalarsChanged = Repeat->AllArgs != ArgsChanges;
    View.ArgsAlive = true;
    return View;
  }
  if (RepeatOn && Previous && Previous->OnQueue == RepeatOn && argumentsAreLocked(*Previous)) {
    View.Repeat = Previous;
    View.SetBack = true;
    View.ScalarsChanged = true;
    View.ArgsAlive = true;
    return View;
  }
  View.ArgsAlive = snapshotLocked(Out);
  return View;
}

bool Kernel::argumentsAreLocked(const RepeatMemo &Memo) const {
  if (!Memo.OnlyBufferArgs ||
      Memo.ExecInfoChanges != ExecInfoChanges.load(std::memory_order_acquire))
    return false;
  std::size_t Found = 0;
  for (cl_uint I = 0; I < Args.size(); ++I) {
    const KernelArg &A = Args[I];
    if (A.What == KernelArg::Kind::Bytes)
      continue;
    if (A.What != KernelArg::Kind::Buffer || Found == Memo.ArgBufferCount ||
        Memo.ArgBuffers[Found].Index != I)
      return false;
    // The memo's buffer at this address was alive since (the queue's entry that holds it is
    // checked to be still the newest before the launch repeats it): the same object.
    const std::shared_ptr<Buffer> Now = A.SetMem.lock();
    if (Now.get() != Memo.ArgBuffers[Found++].Object)
      return false;
  }
  return Found == Memo.ArgBufferCount;
}

void Kernel::rememberRepeat(const RepeatMemo &Memo) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Memo.BufferArgs != BufferArgsChanges || Memo.AllArgs != ArgsChanges)
    return;
  if (Repeat && !Repeat->sameBuffers(Memo))
    Previous = std::move(Repeat);
  Repeat = Memo;
}

void Kernel::describeRepeat(ExecDevice &Device, RepeatMemo &Memo) {
  cl_int Error = CL_SUCCESS;
  RealKernel *K = realKernel(Device, false, Error);
  if (!K)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  Memo.ArgBufferCount = 0;
  Memo.ExecInfoChanges = K->ExecInfoSet;
  Memo.OnlyBufferArgs = K->Last.size() >= Args.size();
  for (cl_uint I = 0; I < Args.size() && Memo.OnlyBufferArgs; ++I) {
    const SetArg &Was = K->Last[I];
    if (Was.What == KernelArg::Kind::Bytes)
      continue;
    Memo.OnlyBufferArgs =
        Was.What == KernelArg::Kind::Buffer && Memo.ArgBufferCount < RepeatMemo::MaxBuffers;
    if (Memo.OnlyBufferArgs)
      Memo.ArgBuffers[Memo.ArgBufferCount++] = {I, Was.Mem.lock().get(), Was.RealMem};
  }
  if (!Memo.OnlyBufferArgs)
    Memo.ArgBufferCount = 0;
}

void Kernel::repeatedSetBack(ExecDevice &Device, const RepeatMemo &Memo,
                             std::pair<std::uint64_t, std::uint64_t> Seen) {
  cl_int Error = CL_SUCCESS;
  RealKernel *K = realKernel(Device, false, Error);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!K || !Previous || !Previous->sameBuffers(Memo) || Previous->OnQueue != Memo.OnQueue)
    return;
  std::swap(Repeat, Previous);
  // The counts seen with the buffers, not the counts now: an argument set meanwhile (on another
  // thread, against OpenCL's rule) must not pass for one of the memo's.
  std::tie(Repeat->BufferArgs, Repeat->AllArgs) = Seen;
  Repeat->NonScalarSets = K->NonScalarSets;
  Repeat->Sets = K->Sets;
}

bool Kernel::holdBufferArgs(std::uint64_t BufferArgs, std::vector<KernelArg> &Out) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (BufferArgs != BufferArgsChanges)
    return false;
  Out.reserve(Args.size());
  for (const KernelArg &Set : Args) {
    if (Set.What != KernelArg::Kind::Buffer)
      continue;
    KernelArg &Held = Out.emplace_back();
    Held.What = KernelArg::Kind::Buffer;
    if (!(Held.Mem = Set.SetMem.lock()))
      return false;
  }
  return true;
}

void Kernel::repeatHeldBy(const RepeatMemo &Memo, std::uint64_t Entry) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Repeat && Repeat->OnQueue == Memo.OnQueue && Repeat->Entry == Memo.Entry &&
      Repeat->sameBuffers(Memo))
    Repeat->Entry = Entry;
}

bool Kernel::setScalarsLocked(RealKernel &K, cl_int &Error) {
  const RealApi &Api = Owner->context().real();
  for (cl_uint I = 0; I < Args.size(); ++I) {
    const KernelArg &A = Args[I];
    SetArg &Was = K.Last[I];
    if (A.What != KernelArg::Kind::Bytes || (Was.What == A.What && sameBytes(Was.Value, A.Value)))
      continue;
    Error = Api.clSetKernelArg(K.Handle, I, A.Value.size(), A.Value.data());
    Was.What = Error == CL_SUCCESS ? A.What : KernelArg::Kind::Unset;
    ++K.Sets;
    if (Error != CL_SUCCESS)
      return false;
    Was.Value = A.Value;
  }
  return true;
}

cl_kernel Kernel::realWithMemoArgs(ExecDevice &Device, const RepeatMemo &Memo, cl_int &Error,
                                   std::pair<std::uint64_t, std::uint64_t> &Seen) {
  RealKernel *K = realKernel(Device, false, Error);
  if (!K)
    return nullptr;
  const RealApi &Api = Owner->context().real();
  std::lock_guard<std::mutex> Lock(Mutex);
  if (K->Last.size() < Args.size() || !argumentsAreLocked(Memo))
    return nullptr;
  Seen = {BufferArgsChanges, ArgsChanges};
  for (std::size_t B = 0; B < Memo.ArgBufferCount; ++B) {
    const RepeatMemo::ArgBuffer &Wanted = Memo.ArgBuffers[B];
    SetArg &Was = K->Last[Wanted.Index];
    if (Was.What == KernelArg::Kind::Buffer && Was.RealMem == Wanted.Real)
      continue;
    Error = Api.clSetKernelArg(K->Handle, Wanted.Index, sizeof(cl_mem), &Wanted.Real);
    ++K->Sets;
    ++K->NonScalarSets;
    if (Error != CL_SUCCESS) {
      Was.What = KernelArg::Kind::Unset;
      return nullptr;
    }
    Was.What = KernelArg::Kind::Buffer;
    Was.Mem = Args[Wanted.Index].SetMem;
    Was.RealMem = Wanted.Real;
  }
  if (!setScalarsLocked(*K, Error))
    return nullptr;
  return K->Handle;
}

std::pair<std::uint64_t, std::uint64_t> Kernel::realArgSets(ExecDevice &Device) {
  cl_int Error = CL_SUCCESS;
  const RealKernel *K = realKernel(Device, false, Error);
  return K ? std::make_pair(K->NonScalarSets, K->Sets)
           : std::make_pair(std::uint64_t{0}, std::uint64_t{0});
}

std::array<size_t, 3> Kernel::requiredGroupSizeLocked(cl_device_id Device) const {
  for (const auto &[Known, Sizes] : RequiredSizes)
    if (Known == Device)
      return Sizes;
  std::array<size_t, 3> Sizes{0, 0, 0};
  Owner->context().real().clGetKernelWorkGroupInfo(
      Validation, Device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(Sizes), Sizes.data(), nullptr);
  RequiredSizes.emplace_back(Device, Sizes);
  return Sizes;
}

Kernel::RealKernel *Kernel::realKernel(ExecDevice &Device, bool Split, cl_int &Error) {
  Error = CL_SUCCESS;
  const bool Quick = !Split && Device.Index < QuickDevices;
  if (Quick)
    if (RealKernel *Known = QuickReal[Device.Index].load(std::memory_order_acquire))
      return Known;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Key = std::make_pair(Device.Index, Split);
  auto Found = Real.find(Key);
  if (Found != Real.end()) {
    if (Quick)
      QuickReal[Device.Index].store(&Found->second, std::memory_order_release);
    return &Found->second;
  }
  cl_program Source = Split ? Owner->splitProgramFor(Device) : Owner->original();
  if (!Source) {
    Error = CL_INVALID_PROGRAM_EXECUTABLE;
    return nullptr;
  }
  cl_kernel K = Owner->context().real().clCreateKernel(Source, Name.c_str(), &Error);
  if (!K)
    return nullptr;
  RealKernel &Made = Real[Key];
  Made.Handle = K;
  if (Quick)
    QuickReal[Device.Index].store(&Made, std::memory_order_release);
  return &Made;
}

cl_kernel Kernel::realFor(ExecDevice &Device, bool Split, cl_int &Error) {
  RealKernel *K = realKernel(Device, Split, Error);
  return K ? K->Handle : nullptr;
}

size_t Kernel::splitGroupLimit(ExecDevice &Device) {
  cl_int Error = CL_SUCCESS;
  RealKernel *K = realKernel(Device, true, Error);
  if (!K)
    return 0;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!K->GroupLimit) {
    size_t Limit = 0;
    if (Owner->context().real().clGetKernelWorkGroupInfo(K->Handle, Device.Real,
                                                         CL_KERNEL_WORK_GROUP_SIZE, sizeof(Limit),
                                                         &Limit, nullptr) != CL_SUCCESS)
      Limit = 0;
    K->GroupLimit = Limit;
  }
  return *K->GroupLimit;
}

cl_ulong Kernel::splitLocalBytes(ExecDevice &Device) {
  cl_int Error = CL_SUCCESS;
  RealKernel *K = realKernel(Device, true, Error);
  cl_ulong Bytes = 0;
  if (!K || Owner->context().real().clGetKernelWorkGroupInfo(
                K->Handle, Device.Real, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(Bytes), &Bytes, nullptr) !=
                CL_SUCCESS)
    return 0;
  return Bytes;
}

cl_int Kernel::setSliceArgs(const ExecDevice &Device, cl_kernel Real, cl_uint First, cl_uint Dim,
                            cl_ulong Groups, cl_ulong Origin) {
  const RealApi &Api = Device.Owner->real();
  cl_int Error = CL_SUCCESS;
  if ((Error = Api.clSetKernelArg(Real, First, sizeof(Dim), &Dim)) ||
      (Error = Api.clSetKernelArg(Real, First + 1, sizeof(Groups), &Groups)) ||
      (Error = Api.clSetKernelArg(Real, First + 2, sizeof(Origin), &Origin)))
    return Error;
  return CL_SUCCESS;
}

cl_kernel Kernel::realWithCurrentScalars(ExecDevice &Device, std::uint64_t BufferArgs,
                                         cl_int &Error) {
  RealKernel *K = realKernel(Device, false, Error);
  if (!K)
    return nullptr;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (BufferArgsChanges != BufferArgs || K->Last.size() < Args.size())
    return nullptr;
  if (!setScalarsLocked(*K, Error))
    return nullptr;
  // The real kernel has every argument as set now: the next repeat needs no look at them unless
  // the app sets one again (a scalar changed once, then launches in a loop).
  if (Repeat && Repeat->Device == Device.Index && Repeat->BufferArgs == BufferArgs) {
    Repeat->AllArgs = ArgsChanges;
    Repeat->Sets = K->Sets;
  }
  return K->Handle;
}

cl_kernel Kernel::realWithArgs(ExecDevice &Device, bool Split, const std::vector<KernelArg> &Args,
                               cl_int &Error) {
  RealKernel *K = realKernel(Device, Split, Error);
  if (!K)
    return nullptr;
  const RealApi &Api = Owner->context().real();
  K->Last.resize(std::max(K->Last.size(), Args.size()));
  for (cl_uint I = 0; I < Args.size(); ++I) {
    const KernelArg &A = Args[I];
    SetArg &Was = K->Last[I];
    switch (A.What) {
    case KernelArg::Kind::Buffer: {
      // The same buffer object as last time (its control block: A.Mem holds it alive) has the
      // same real memory object on this device: it never changes once made.
      if (Was.What == A.What && !Was.Mem.owner_before(A.Mem) && !A.Mem.owner_before(Was.Mem))
        continue;
      cl_mem Mem = A.Mem->realOn(Device, Error);
      if (!Mem)
        return nullptr;
      Error = Api.clSetKernelArg(K->Handle, I, sizeof(cl_mem), &Mem);
      Was.Mem = A.Mem;
      Was.RealMem = Mem;
      break;
    }
    case KernelArg::Kind::NullBuffer:
      if (Was.What == A.What)
        continue;
      Error = Api.clSetKernelArg(K->Handle, I, sizeof(cl_mem), nullptr);
      break;
    case KernelArg::Kind::Local:
      if (Was.What == A.What && Was.LocalSize == A.LocalSize)
        continue;
      Error = Api.clSetKernelArg(K->Handle, I, A.LocalSize, nullptr);
      Was.LocalSize = A.LocalSize;
      break;
    case KernelArg::Kind::Bytes:
      if (Was.What == A.What && sameBytes(Was.Value, A.Value))
        continue;
      Error = Api.clSetKernelArg(K->Handle, I, A.Value.size(), A.Value.data());
      Was.Value = A.Value;
      break;
    case KernelArg::Kind::SvmPointer: {
      if (Was.What == A.What && sameBytes(Was.Value, A.Value))
        continue;
      const void *Pointer = nullptr;
      std::memcpy(&Pointer, A.Value.data(), sizeof(Pointer));
      Error = Api.clSetKernelArgSVMPointer(K->Handle, I, Pointer);
      Was.Value = A.Value;
      break;
    }
    case KernelArg::Kind::Unset:
      Error = CL_INVALID_KERNEL_ARGS;
      break;
    }
    // A failed call leaves the argument unknown: set again next time.
    Was.What = Error == CL_SUCCESS ? A.What : KernelArg::Kind::Unset;
    ++K->Sets;
    K->NonScalarSets += A.What != KernelArg::Kind::Bytes;
    if (Error != CL_SUCCESS)
      return nullptr;
  }
  // Execution information (SVM pointers reached indirectly), as the app last gave it.
  if (K->ExecInfoSet == ExecInfoChanges.load(std::memory_order_acquire))
    return K->Handle;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (K->ExecInfoSet != ExecInfoChanges) {
    for (const auto &[Param, Bytes] : ExecInfo)
      if ((Error = Api.clSetKernelExecInfo(K->Handle, Param, Bytes.size(), Bytes.data())) !=
          CL_SUCCESS)
        return nullptr;
    K->ExecInfoSet = ExecInfoChanges;
    ++K->Sets;
    ++K->NonScalarSets;
  }
  return K->Handle;
}

Kernel *asKernel(cl_kernel Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Kernel))
    return nullptr;
  return static_cast<Kernel *>(Handle);
}

std::shared_ptr<GuardSlot> Kernel::splitGuard(std::size_t AppDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::shared_ptr<GuardSlot> &Slot = Guards[AppDevice];
  if (!Slot)
    Slot = Owner->context().launchServices().Planner.guardFor(Name + "@" + Owner->sourceKey(),
                                                              AppDevice);
  return Slot;
}

} // namespace libsplit
