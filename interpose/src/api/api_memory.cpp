// Entry points: memory objects (buffers, sub-buffers; images, samplers and SVM, real objects of
// the app's device; pipes are refused the way the specification allows for devices without
// them).
#include "api_common.hpp"
#include "memory_map.hpp"

using namespace libsplit;

namespace {

constexpr cl_mem_flags AccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags HostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags KnownFlags = AccessFlags | HostAccessFlags | CL_MEM_USE_HOST_PTR |
                                    CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

bool moreThanOne(cl_mem_flags Bits) { return (Bits & (Bits - 1)) != 0; }

cl_mem makeBuffer(cl_context ContextHandle, cl_mem_flags Flags, size_t Size, void *HostPtr,
                  cl_int *ErrorRet) {
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  // The flags are kept as the app gave them (CL_MEM_FLAGS reports them); no access flag means
  // CL_MEM_READ_WRITE.
  LIBSPLIT_CHECK_RET((Flags & ~KnownFlags) || moreThanOne(Flags & AccessFlags) ||
                         moreThanOne(Flags & HostAccessFlags) ||
                         ((Flags & CL_MEM_USE_HOST_PTR) &&
                          (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))),
                     CL_INVALID_VALUE, ErrorRet);
  LIBSPLIT_CHECK_RET(Size == 0, CL_INVALID_BUFFER_SIZE, ErrorRet);
  const bool WantsHostPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  LIBSPLIT_CHECK_RET(WantsHostPtr != (HostPtr != nullptr), CL_INVALID_HOST_PTR, ErrorRet);
  auto B = Buffer::create(C->shared_from_this(), Flags, Size, HostPtr);
  // A buffer on the app's memory (CL_MEM_USE_HOST_PTR) is made on that memory, as natively, where
  // nothing splits: merges and atomic combinations write into the host copy (here the app's
  // memory) assuming no kernel changed it, which a device working in place does (api.atomics
  // counted a CPU's increments twice). Where the app's device is a CPU and the split devices are
  // not opening yet, too: the buffer then stays there, its kernels unsplit even once they open
  // (usesAppDeviceObjects), rather than libsplit keeping a copy of the app's memory ready to
  // split and watching the app's writes to it (a copy at its creation, a comparison at the next
  // launch) for a run that may never open them. (A run that did open them has the warm start
  // open them at once next time: its buffers are then made ready to split.)
  // Asked of the devices planned, not those open yet: the buffer stays as made once they open.
  const bool MaySplit = C->plannedSplitDevices().size() >= 2;
  const bool InPlace =
      (Flags & CL_MEM_USE_HOST_PTR) &&
      (!MaySplit || ((C->primary().Type & CL_DEVICE_TYPE_CPU) && !C->openingStarted()));
  const HostUpload Upload = C->uploadAtWrite(C->primary());
  if ((Flags & CL_MEM_COPY_HOST_PTR) && Upload.AppDevice && !Upload.WhereUsed &&
      runtime().config().Defer != config::DeferMode::Off &&
      B->initializeCopied(*Upload.AppDevice, HostPtr)) {
    runtime().recorder().countHostWrite(RunRecorder::HostWrite::ToAppDevice, Size);
    runtime().recorder().countEagerBytes(Size);
    setError(ErrorRet, CL_SUCCESS);
    return B.get();
  }
  const cl_int Error = B->initialize(InPlace);
  if (InPlace && MaySplit)
    B->stayOnAppDevice();
  if (Error != CL_SUCCESS) {
    B->release();
    setError(ErrorRet, Error);
    return nullptr;
  }
  if (Flags & CL_MEM_USE_HOST_PTR) {
    runtime().recorder().countHostWrite(RunRecorder::HostWrite::OnAppMemory, Size);
    // The app's memory holds the data; the specification lets an implementation cache it on a
    // device from here on, and NVIDIA's copies it at this call. Left on the host, the move
    // would land in the app's first launch (a large SpMV on the H200 + CPU spent longer on it
    // than its whole native run). Placed as a host write is (LIBSPLIT_UPLOAD); with one device,
    // the real buffer already works on the app's memory.
    if (MaySplit && !InPlace)
      B->upload(C->uploadAtWrite(C->primary()), 0, Size);
    // A CPU works on that memory in place: apps read the kernels' results there after a
    // clFinish, without a map or a read. Where launches split, libsplit brings them there at
    // each such point (Context::refreshHostMemory).
    if (MaySplit && !InPlace && (C->primary().Type & CL_DEVICE_TYPE_CPU))
      C->watchHostMemory(B);
  }
  if (Flags & CL_MEM_COPY_HOST_PTR) {
    // No lock: nobody else knows the buffer yet.
    B->write(0, Size, HostPtr,
             onCallingThreadStack(HostPtr, Size) ? Buffer::HostSource::AppUnstable
                                                 : Buffer::HostSource::App,
             C->uploadAtWrite(C->primary()));
  }
  setError(ErrorRet, CL_SUCCESS);
  return B.get();
}

} // namespace

LIBSPLIT_API cl_mem CL_API_CALL clCreateBuffer(cl_context ContextHandle, cl_mem_flags Flags,
                                               size_t Size, void *HostPtr, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateBuffer, ContextHandle, Flags, Size, HostPtr, ErrorRet);
  return makeBuffer(ContextHandle, Flags, Size, HostPtr, ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateBuffer", ErrorRet);
}

LIBSPLIT_API cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context ContextHandle,
                                                             const cl_mem_properties *Properties,
                                                             cl_mem_flags Flags, size_t Size,
                                                             void *HostPtr, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateBufferWithProperties, ContextHandle, Properties, Flags,
                                   Size, HostPtr, ErrorRet);
  // OpenCL 3.0 defines no buffer property; any is invalid.
  LIBSPLIT_CHECK_RET(Properties && Properties[0] != 0, CL_INVALID_PROPERTY, ErrorRet);
  cl_mem Made = makeBuffer(ContextHandle, Flags, Size, HostPtr, ErrorRet);
  // An empty list given is reported back (CL_MEM_PROPERTIES), its terminator included.
  if (Made && Properties)
    asBuffer(Made)->setProperties({0});
  return Made;
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateBufferWithProperties", ErrorRet);
}

LIBSPLIT_API cl_mem CL_API_CALL clCreateSubBuffer(cl_mem BufferHandle, cl_mem_flags Flags,
                                                  cl_buffer_create_type Type, const void *Info,
                                                  cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateSubBuffer, BufferHandle, Flags, Type, Info, ErrorRet);
  Buffer *Parent = asBuffer(BufferHandle);
  LIBSPLIT_CHECK_RET(!Parent || Parent->parent(), CL_INVALID_MEM_OBJECT, ErrorRet);
  LIBSPLIT_CHECK_RET(Type != CL_BUFFER_CREATE_TYPE_REGION || !Info, CL_INVALID_VALUE, ErrorRet);
  const auto *Region = static_cast<const cl_buffer_region *>(Info);
  LIBSPLIT_CHECK_RET(Region->size == 0, CL_INVALID_BUFFER_SIZE, ErrorRet);
  LIBSPLIT_CHECK_RET(Region->origin + Region->size > Parent->size() ||
                         Region->origin + Region->size < Region->origin,
                     CL_INVALID_VALUE, ErrorRet);
  LIBSPLIT_CHECK_RET((Flags & ~(AccessFlags | HostAccessFlags)) ||
                         moreThanOne(Flags & AccessFlags) || moreThanOne(Flags & HostAccessFlags),
                     CL_INVALID_VALUE, ErrorRet);
  // A sub-buffer may not widen its parent's access, by kernels or by the host, and inherits
  // what it does not say (the host-pointer flags always).
  const cl_mem_flags ParentFlags = Parent->flags();
  LIBSPLIT_CHECK_RET(
      ((ParentFlags & CL_MEM_WRITE_ONLY) && (Flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
          ((ParentFlags & CL_MEM_READ_ONLY) && (Flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
          ((ParentFlags & CL_MEM_HOST_WRITE_ONLY) && (Flags & CL_MEM_HOST_READ_ONLY)) ||
          ((ParentFlags & CL_MEM_HOST_READ_ONLY) && (Flags & CL_MEM_HOST_WRITE_ONLY)) ||
          ((ParentFlags & CL_MEM_HOST_NO_ACCESS) &&
           (Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))),
      CL_INVALID_VALUE, ErrorRet);
  if (!(Flags & AccessFlags))
    Flags |= ParentFlags & AccessFlags;
  if (!(Flags & HostAccessFlags))
    Flags |= ParentFlags & HostAccessFlags;
  Flags |= ParentFlags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  auto Sub = Buffer::create(Parent->shared_from_this(), Flags, Region->origin, Region->size);
  // The primary device's real sub-buffer judges the origin (CL_MISALIGNED_SUB_BUFFER_OFFSET).
  cl_int Error = Sub->initialize();
  if (Error != CL_SUCCESS) {
    Sub->release();
    setError(ErrorRet, Error);
    return nullptr;
  }
  setError(ErrorRet, CL_SUCCESS);
  return Sub.get();
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateSubBuffer", ErrorRet);
}

namespace {
// An image: a real object of the app's device that the app holds itself.
bool isImage(cl_mem Mem) { return !asBuffer(Mem) && runtime().deviceObjectContext(Mem); }
} // namespace

LIBSPLIT_API cl_int CL_API_CALL clRetainMemObject(cl_mem Mem) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainMemObject, Mem);
  if (isImage(Mem))
    return RT.real().clRetainMemObject(Mem);
  return retainObject(asBuffer(Mem), CL_INVALID_MEM_OBJECT);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainMemObject", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseMemObject(cl_mem Mem) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseMemObject, Mem);
  if (isImage(Mem))
    return releaseDeviceObject(Mem, RT.real().clGetMemObjectInfo, CL_MEM_REFERENCE_COUNT,
                               RT.real().clReleaseMemObject);
  return releaseObject(asBuffer(Mem), CL_INVALID_MEM_OBJECT);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseMemObject", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetMemObjectInfo(cl_mem Mem, cl_mem_info Param, size_t ValueSize,
                                                   void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetMemObjectInfo, Mem, Param, ValueSize, Value, SizeRet);
  if (isImage(Mem)) {
    if (Param == CL_MEM_CONTEXT)
      return returnValue<cl_context>(RT.deviceObjectContext(Mem).get(), ValueSize, Value, SizeRet);
    return RT.real().clGetMemObjectInfo(Mem, Param, ValueSize, Value, SizeRet);
  }
  Buffer *B = asBuffer(Mem);
  LIBSPLIT_CHECK(!B, CL_INVALID_MEM_OBJECT);
  switch (Param) {
  case CL_MEM_TYPE:
    return returnValue<cl_mem_object_type>(CL_MEM_OBJECT_BUFFER, ValueSize, Value, SizeRet);
  case CL_MEM_FLAGS:
    return returnValue<cl_mem_flags>(B->flags(), ValueSize, Value, SizeRet);
  case CL_MEM_SIZE:
    return returnValue<size_t>(B->size(), ValueSize, Value, SizeRet);
  case CL_MEM_HOST_PTR:
    return returnValue<void *>(B->hostPtr(), ValueSize, Value, SizeRet);
  case CL_MEM_MAP_COUNT:
    return returnValue<cl_uint>(B->MapCount.load(), ValueSize, Value, SizeRet);
  case CL_MEM_REFERENCE_COUNT:
    return returnValue<cl_uint>(B->appReferences(), ValueSize, Value, SizeRet);
  case CL_MEM_CONTEXT:
    return returnValue<cl_context>(&B->context(), ValueSize, Value, SizeRet);
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return returnValue<cl_mem>(B->parent(), ValueSize, Value, SizeRet);
  case CL_MEM_OFFSET:
    return returnValue<size_t>(B->origin(), ValueSize, Value, SizeRet);
  case CL_MEM_USES_SVM_POINTER:
    return returnValue<cl_bool>(CL_FALSE, ValueSize, Value, SizeRet);
  case CL_MEM_PROPERTIES: {
    const std::vector<cl_mem_properties> &Given = B->properties();
    return returnInfo(Given.data(), Given.size() * sizeof(cl_mem_properties), ValueSize, Value,
                      SizeRet);
  }
  default:
    return CL_INVALID_VALUE;
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetMemObjectInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem Mem, void(CL_CALLBACK *Notify)(cl_mem, void *), void *UserData) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetMemObjectDestructorCallback, Mem, Notify, UserData);
  if (isImage(Mem))
    return RT.real().clSetMemObjectDestructorCallback(Mem, Notify, UserData);
  Buffer *B = asBuffer(Mem);
  LIBSPLIT_CHECK(!B, CL_INVALID_MEM_OBJECT);
  LIBSPLIT_CHECK(!Notify, CL_INVALID_VALUE);
  B->addDestructorCallback(Notify, UserData);
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetMemObjectDestructorCallback", nullptr);
}

// Images live on the app's device alone (a kernel that takes one runs there, whole): the app
// gets the real image of the app's real context, which libsplit registers as its context's.
namespace {
cl_mem madeOnAppDevice(Context &C, cl_mem Made) {
  if (Made)
    runtime().addDeviceObject(Made, C.shared_from_this());
  return Made;
}
} // namespace

LIBSPLIT_API cl_mem CL_API_CALL clCreateImage(cl_context ContextHandle, cl_mem_flags Flags,
                                              const cl_image_format *Format,
                                              const cl_image_desc *Desc, void *HostPtr,
                                              cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateImage, ContextHandle, Flags, Format, Desc, HostPtr,
                                   ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  // An image over a buffer would share libsplit's buffer, whose bytes live in several places.
  LIBSPLIT_CHECK_RET(Desc && Desc->mem_object, CL_INVALID_OPERATION, ErrorRet);
  return madeOnAppDevice(*C, RT.real().clCreateImage(C->primary().RealContext, Flags, Format, Desc,
                                                     HostPtr, ErrorRet));
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateImage", ErrorRet);
}

LIBSPLIT_API cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context ContextHandle, const cl_mem_properties *Properties, cl_mem_flags Flags,
    const cl_image_format *Format, const cl_image_desc *Desc, void *HostPtr, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateImageWithProperties, ContextHandle, Properties, Flags,
                                   Format, Desc, HostPtr, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  LIBSPLIT_CHECK_RET(Desc && Desc->mem_object, CL_INVALID_OPERATION, ErrorRet);
  return madeOnAppDevice(*C, RT.real().clCreateImageWithProperties(C->primary().RealContext,
                                                                   Properties, Flags, Format, Desc,
                                                                   HostPtr, ErrorRet));
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateImageWithProperties", ErrorRet);
}

LIBSPLIT_API cl_mem CL_API_CALL clCreateImage2D(cl_context ContextHandle, cl_mem_flags Flags,
                                                const cl_image_format *Format, size_t Width,
                                                size_t Height, size_t RowPitch, void *HostPtr,
                                                cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateImage2D, ContextHandle, Flags, Format, Width, Height,
                                   RowPitch, HostPtr, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  return madeOnAppDevice(*C, RT.real().clCreateImage2D(C->primary().RealContext, Flags, Format,
                                                       Width, Height, RowPitch, HostPtr, ErrorRet));
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateImage2D", ErrorRet);
}

LIBSPLIT_API cl_mem CL_API_CALL clCreateImage3D(cl_context ContextHandle, cl_mem_flags Flags,
                                                const cl_image_format *Format, size_t Width,
                                                size_t Height, size_t Depth, size_t RowPitch,
                                                size_t SlicePitch, void *HostPtr,
                                                cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateImage3D, ContextHandle, Flags, Format, Width, Height,
                                   Depth, RowPitch, SlicePitch, HostPtr, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  return madeOnAppDevice(*C, RT.real().clCreateImage3D(C->primary().RealContext, Flags, Format,
                                                       Width, Height, Depth, RowPitch, SlicePitch,
                                                       HostPtr, ErrorRet));
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreateImage3D", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context ContextHandle, cl_mem_flags Flags, cl_mem_object_type Type,
                           cl_uint NumEntries, cl_image_format *Formats, cl_uint *NumFormats) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetSupportedImageFormats, ContextHandle, Flags, Type,
                                   NumEntries, Formats, NumFormats);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK(!C, CL_INVALID_CONTEXT);
  return RT.real().clGetSupportedImageFormats(C->primary().RealContext, Flags, Type, NumEntries,
                                              Formats, NumFormats);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetSupportedImageFormats", nullptr);
}

// Samplers, likewise: real samplers of the app's real context.
LIBSPLIT_API cl_sampler CL_API_CALL clCreateSampler(cl_context ContextHandle,
                                                    cl_bool NormalizedCoords,
                                                    cl_addressing_mode Addressing,
                                                    cl_filter_mode Filter, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateSampler, ContextHandle, NormalizedCoords, Addressing,
                                   Filter, ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  cl_sampler Made = RT.real().clCreateSampler(C->primary().RealContext, NormalizedCoords,
                                              Addressing, Filter, ErrorRet);
  if (Made)
    RT.addDeviceObject(Made, C->shared_from_this());
  return Made;
} catch (...) {
  return libsplit::escapedFrom<cl_sampler>("clCreateSampler", ErrorRet);
}

LIBSPLIT_API cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context ContextHandle, const cl_sampler_properties *Properties, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateSamplerWithProperties, ContextHandle, Properties,
                                   ErrorRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  cl_sampler Made =
      RT.real().clCreateSamplerWithProperties(C->primary().RealContext, Properties, ErrorRet);
  if (Made)
    RT.addDeviceObject(Made, C->shared_from_this());
  return Made;
} catch (...) {
  return libsplit::escapedFrom<cl_sampler>("clCreateSamplerWithProperties", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseSampler(cl_sampler Sampler) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseSampler, Sampler);
  if (!RT.deviceObjectContext(Sampler))
    return CL_INVALID_SAMPLER;
  return releaseDeviceObject(Sampler, RT.real().clGetSamplerInfo, CL_SAMPLER_REFERENCE_COUNT,
                             RT.real().clReleaseSampler);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseSampler", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetSamplerInfo(cl_sampler Sampler, cl_sampler_info Param,
                                                 size_t ValueSize, void *Value,
                                                 size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetSamplerInfo, Sampler, Param, ValueSize, Value, SizeRet);
  std::shared_ptr<Context> Owner = RT.deviceObjectContext(Sampler);
  if (!Owner)
    return CL_INVALID_SAMPLER;
  if (Param == CL_SAMPLER_CONTEXT)
    return returnValue<cl_context>(Owner.get(), ValueSize, Value, SizeRet);
  return RT.real().clGetSamplerInfo(Sampler, Param, ValueSize, Value, SizeRet);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetSamplerInfo", nullptr);
}

LIBSPLIT_API cl_mem CL_API_CALL clCreatePipe(cl_context ContextHandle, cl_mem_flags Flags,
                                             cl_uint PacketSize, cl_uint MaxPackets,
                                             const cl_pipe_properties *Properties,
                                             cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreatePipe, ContextHandle, Flags, PacketSize, MaxPackets,
                                   Properties, ErrorRet);
  LIBSPLIT_CHECK_RET(!asContext(ContextHandle), CL_INVALID_CONTEXT, ErrorRet);
  setError(ErrorRet, CL_INVALID_OPERATION);
  return nullptr;
} catch (...) {
  return libsplit::escapedFrom<cl_mem>("clCreatePipe", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clGetPipeInfo(cl_mem Mem, cl_pipe_info, size_t, void *,
                                              size_t *) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetPipeInfo, Mem, 0, 0, nullptr, nullptr);
  // No pipe is ever made (clCreatePipe): whatever Mem is, it is not a pipe object.
  return CL_INVALID_MEM_OBJECT;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetPipeInfo", nullptr);
}

// Shared virtual memory lives on the app's device, as images do: allocations of its real
// context; a kernel that uses one runs there whole (Kernel::setSvmArg, setExecInfo).
LIBSPLIT_API void *CL_API_CALL clSVMAlloc(cl_context ContextHandle, cl_svm_mem_flags Flags,
                                          size_t Size, cl_uint Alignment) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSVMAlloc, ContextHandle, Flags, Size, Alignment);
  Context *C = asContext(ContextHandle);
  if (!C)
    return nullptr;
  return RT.real().clSVMAlloc(C->primary().RealContext, Flags, Size, Alignment);
} catch (...) {
  return libsplit::escapedFrom<void *>("clSVMAlloc", nullptr);
}

LIBSPLIT_API void CL_API_CALL clSVMFree(cl_context ContextHandle, void *Pointer) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSVMFree, ContextHandle, Pointer);
  if (Context *C = asContext(ContextHandle))
    RT.real().clSVMFree(C->primary().RealContext, Pointer);
} catch (...) {
  return libsplit::escapedFrom<void>("clSVMFree", nullptr);
}
