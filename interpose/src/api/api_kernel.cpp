// Entry points: kernels and their arguments.
#include "api_common.hpp"

#include <cstring>

#include <algorithm>

using namespace libsplit;

LIBSPLIT_API cl_kernel CL_API_CALL clCreateKernel(cl_program ProgramHandle, const char *Name,
                                                  cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateKernel, ProgramHandle, Name, ErrorRet);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK_RET(!P, CL_INVALID_PROGRAM, ErrorRet);
  cl_int Error = CL_SUCCESS;
  cl_kernel Validation = RT.real().clCreateKernel(P->original(), Name, &Error);
  LIBSPLIT_CHECK_RET(!Validation, Error, ErrorRet);
  auto K = Kernel::create(P->shared_from_this(), std::string(Name), Validation);
  // The real kernel the app's device runs whole launches with, made now as the app's own is:
  // made at the first launch, it cost the app's timed loop its creation.
  cl_int Unused = CL_SUCCESS;
  K->realFor(P->context().primary(), false, Unused);
  setError(ErrorRet, CL_SUCCESS);
  return K.get();
} catch (...) {
  return libsplit::escapedFrom<cl_kernel>("clCreateKernel", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clCreateKernelsInProgram(cl_program ProgramHandle,
                                                         cl_uint NumKernels, cl_kernel *Kernels,
                                                         cl_uint *NumKernelsRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateKernelsInProgram, ProgramHandle, NumKernels, Kernels,
                                   NumKernelsRet);
  Program *P = asProgram(ProgramHandle);
  LIBSPLIT_CHECK(!P, CL_INVALID_PROGRAM);
  cl_uint Count = 0;
  cl_int Error = RT.real().clCreateKernelsInProgram(P->original(), 0, nullptr, &Count);
  if (Error != CL_SUCCESS)
    return Error;
  LIBSPLIT_CHECK(Kernels && NumKernels < Count, CL_INVALID_VALUE);
  if (NumKernelsRet)
    *NumKernelsRet = Count;
  if (!Kernels)
    return CL_SUCCESS;
  std::vector<cl_kernel> Real(Count);
  Error = RT.real().clCreateKernelsInProgram(P->original(), Count, Real.data(), nullptr);
  if (Error != CL_SUCCESS)
    return Error;
  for (cl_uint I = 0; I < Count; ++I) {
    size_t Size = 0;
    RT.real().clGetKernelInfo(Real[I], CL_KERNEL_FUNCTION_NAME, 0, nullptr, &Size);
    std::string Name(Size, '\0');
    RT.real().clGetKernelInfo(Real[I], CL_KERNEL_FUNCTION_NAME, Size, Name.data(), nullptr);
    Name.resize(Name.find('\0') == std::string::npos ? Name.size() : Name.find('\0'));
    auto K = Kernel::create(P->shared_from_this(), Name, Real[I]);
    cl_int Unused = CL_SUCCESS;
    K->realFor(P->context().primary(), false, Unused); // as in clCreateKernel
    Kernels[I] = K.get();
  }
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clCreateKernelsInProgram", nullptr);
}

LIBSPLIT_API cl_kernel CL_API_CALL clCloneKernel(cl_kernel Source, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCloneKernel, Source, ErrorRet);
  Kernel *K = asKernel(Source);
  LIBSPLIT_CHECK_RET(!K, CL_INVALID_KERNEL, ErrorRet);
  cl_kernel Clone = clCreateKernel(&K->program(), K->name().c_str(), ErrorRet);
  if (!Clone)
    return nullptr;
  Kernel *Copy = asKernel(Clone);
  std::vector<KernelArg> Args;
  K->snapshotArgs(Args);
  for (cl_uint I = 0; I < Args.size(); ++I) {
    const KernelArg &A = Args[I];
    switch (A.What) {
    case KernelArg::Kind::Buffer:
      if (A.Mem) {
        cl_mem Mem = A.Mem.get();
        Copy->setArg(I, sizeof(cl_mem), &Mem);
      }
      break;
    case KernelArg::Kind::NullBuffer:
    case KernelArg::Kind::Local:
      Copy->setArg(I, A.LocalSize, nullptr);
      break;
    case KernelArg::Kind::Bytes:
      Copy->setArg(I, A.Value.size(), A.Value.data());
      break;
    case KernelArg::Kind::SvmPointer: {
      const void *Pointer = nullptr;
      std::memcpy(&Pointer, A.Value.data(), sizeof(Pointer));
      Copy->setSvmArg(I, Pointer);
      break;
    }
    case KernelArg::Kind::Unset:
      break;
    }
  }
  for (const auto &[Param, Bytes] : K->execInfo())
    Copy->setExecInfo(Param, Bytes.size(), Bytes.data());
  return Clone;
} catch (...) {
  return libsplit::escapedFrom<cl_kernel>("clCloneKernel", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clRetainKernel(cl_kernel KernelHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainKernel, KernelHandle);
  return retainObject(asKernel(KernelHandle), CL_INVALID_KERNEL);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainKernel", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseKernel(cl_kernel KernelHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseKernel, KernelHandle);
  return releaseObject(asKernel(KernelHandle), CL_INVALID_KERNEL);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseKernel", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetKernelArg(cl_kernel KernelHandle, cl_uint Index, size_t Size,
                                               const void *Value) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetKernelArg, KernelHandle, Index, Size, Value);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  return K->setArg(Index, Size, Value);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetKernelArg", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel KernelHandle, cl_uint Index,
                                                         const void *Value) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetKernelArgSVMPointer, KernelHandle, Index, Value);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  return K->setSvmArg(Index, Value);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetKernelArgSVMPointer", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel KernelHandle,
                                                    cl_kernel_exec_info Param, size_t Size,
                                                    const void *Value) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetKernelExecInfo, KernelHandle, Param, Size, Value);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  return K->setExecInfo(Param, Size, Value);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetKernelExecInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetKernelInfo(cl_kernel KernelHandle, cl_kernel_info Param,
                                                size_t ValueSize, void *Value,
                                                size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetKernelInfo, KernelHandle, Param, ValueSize, Value, SizeRet);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  switch (Param) {
  case CL_KERNEL_REFERENCE_COUNT:
    return returnValue<cl_uint>(K->appReferences(), ValueSize, Value, SizeRet);
  case CL_KERNEL_CONTEXT:
    return returnValue<cl_context>(&K->program().context(), ValueSize, Value, SizeRet);
  case CL_KERNEL_PROGRAM:
    return returnValue<cl_program>(&K->program(), ValueSize, Value, SizeRet);
  default:
    return RT.real().clGetKernelInfo(K->validation(), Param, ValueSize, Value, SizeRet);
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetKernelInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel KernelHandle, cl_uint Index,
                                                   cl_kernel_arg_info Param, size_t ValueSize,
                                                   void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetKernelArgInfo, KernelHandle, Index, Param, ValueSize, Value,
                                   SizeRet);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  return RT.real().clGetKernelArgInfo(K->validation(), Index, Param, ValueSize, Value, SizeRet);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetKernelArgInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel KernelHandle,
                                                         cl_device_id DeviceHandle,
                                                         cl_kernel_work_group_info Param,
                                                         size_t ValueSize, void *Value,
                                                         size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetKernelWorkGroupInfo, KernelHandle, DeviceHandle, Param,
                                   ValueSize, Value, SizeRet);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  Context &C = K->program().context();
  Device *D = DeviceHandle ? asDevice(DeviceHandle) : C.appDevices().front();
  LIBSPLIT_CHECK(!D || !C.execFor(D), CL_INVALID_DEVICE);
  const cl_int Result = RT.real().clGetKernelWorkGroupInfo(K->validation(), D->real(), Param,
                                                           ValueSize, Value, SizeRet);
  // The largest work-group the app may use must fit every device the kernel may run on.
  if (Result == CL_SUCCESS && Param == CL_KERNEL_WORK_GROUP_SIZE && Value) {
    size_t Size = *static_cast<size_t *>(Value);
    for (ExecDevice *E : C.plannedSplitDevices())
      Size = std::min(Size, E->MaxWorkGroupSize);
    *static_cast<size_t *>(Value) = Size;
  }
  return Result;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetKernelWorkGroupInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetKernelSubGroupInfo(
    cl_kernel KernelHandle, cl_device_id DeviceHandle, cl_kernel_sub_group_info Param,
    size_t InputSize, const void *Input, size_t ValueSize, void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetKernelSubGroupInfo, KernelHandle, DeviceHandle, Param,
                                   InputSize, Input, ValueSize, Value, SizeRet);
  Kernel *K = asKernel(KernelHandle);
  LIBSPLIT_CHECK(!K, CL_INVALID_KERNEL);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK(!D, CL_INVALID_DEVICE);
  LIBSPLIT_CHECK(!RT.real().clGetKernelSubGroupInfo, CL_INVALID_OPERATION);
  return RT.real().clGetKernelSubGroupInfo(K->validation(), D->real(), Param, InputSize, Input,
                                           ValueSize, Value, SizeRet);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetKernelSubGroupInfo", nullptr);
}
