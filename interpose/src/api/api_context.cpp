// Entry points: contexts.
#include "api_common.hpp"

using namespace libsplit;

namespace {

std::vector<cl_context_properties> copyProperties(const cl_context_properties *Properties) {
  std::vector<cl_context_properties> Copy;
  for (const cl_context_properties *P = Properties; P && *P; P += 2) {
    Copy.push_back(P[0]);
    Copy.push_back(P[1]);
  }
  if (Properties)
    Copy.push_back(0);
  return Copy;
}

cl_context makeContext(const cl_context_properties *Properties, std::vector<Device *> Devices,
                       Context::Notify Notify, void *UserData, cl_int *ErrorRet) {
  auto C = Context::create(runtime().contextServices(), Devices, copyProperties(Properties));
  const cl_int Error = C->initialize(Properties, Notify, UserData);
  if (Error != CL_SUCCESS) {
    C->release();
    setError(ErrorRet, Error);
    return nullptr;
  }
  setError(ErrorRet, CL_SUCCESS);
  return C.get();
}

} // namespace

LIBSPLIT_API cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *Properties, cl_uint NumDevices, const cl_device_id *Devices,
    void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *), void *UserData,
    cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateContext, Properties, NumDevices, Devices, Notify,
                                   UserData, ErrorRet);
  LIBSPLIT_CHECK_RET(!Devices || NumDevices == 0, CL_INVALID_VALUE, ErrorRet);
  LIBSPLIT_CHECK_RET(!Notify && UserData, CL_INVALID_VALUE, ErrorRet);
  std::vector<Device *> Ours;
  for (cl_uint I = 0; I < NumDevices; ++I) {
    Device *D = asDevice(Devices[I]);
    LIBSPLIT_CHECK_RET(!D, CL_INVALID_DEVICE, ErrorRet);
    Ours.push_back(D);
  }
  return makeContext(Properties, Ours, Notify, UserData, ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_context>("clCreateContext", ErrorRet);
}

LIBSPLIT_API cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *Properties, cl_device_type Type,
                        void(CL_CALLBACK *Notify)(const char *, const void *, size_t, void *),
                        void *UserData, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateContextFromType, Properties, Type, Notify, UserData,
                                   ErrorRet);
  LIBSPLIT_CHECK_RET(!Notify && UserData, CL_INVALID_VALUE, ErrorRet);
  // The platform named in the properties, else the first one (what loaders do).
  Platform *P = RT.platforms().empty() ? nullptr : RT.platforms().front().get();
  for (const cl_context_properties *Prop = Properties; Prop && *Prop; Prop += 2)
    if (Prop[0] == CL_CONTEXT_PLATFORM)
      P = asPlatform(reinterpret_cast<cl_platform_id>(Prop[1]));
  LIBSPLIT_CHECK_RET(!P, CL_INVALID_PLATFORM, ErrorRet);
  RT.devices().devicesOf(*P); // as clGetDeviceIDs
  cl_uint Count = 0;
  cl_int Error = RT.real().clGetDeviceIDs(P->real(), Type, 0, nullptr, &Count);
  LIBSPLIT_CHECK_RET(Error != CL_SUCCESS, Error, ErrorRet);
  std::vector<cl_device_id> Real(Count);
  RT.real().clGetDeviceIDs(P->real(), Type, Count, Real.data(), nullptr);
  std::vector<Device *> Ours;
  for (cl_device_id D : Real)
    if (Device *Found = RT.devices().findRootDevice(*P, D))
      Ours.push_back(Found);
  LIBSPLIT_CHECK_RET(Ours.empty(), CL_DEVICE_NOT_FOUND, ErrorRet);
  return makeContext(Properties, Ours, Notify, UserData, ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_context>("clCreateContextFromType", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clRetainContext(cl_context ContextHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainContext, ContextHandle);
  return retainObject(asContext(ContextHandle), CL_INVALID_CONTEXT);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainContext", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseContext(cl_context ContextHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseContext, ContextHandle);
  return releaseObject(asContext(ContextHandle), CL_INVALID_CONTEXT);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseContext", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetContextInfo(cl_context ContextHandle, cl_context_info Param,
                                                 size_t ValueSize, void *Value,
                                                 size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetContextInfo, ContextHandle, Param, ValueSize, Value,
                                   SizeRet);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK(!C, CL_INVALID_CONTEXT);
  switch (Param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return returnValue<cl_uint>(C->appReferences(), ValueSize, Value, SizeRet);
  case CL_CONTEXT_NUM_DEVICES:
    return returnValue<cl_uint>(static_cast<cl_uint>(C->appDevices().size()), ValueSize, Value,
                                SizeRet);
  case CL_CONTEXT_DEVICES: {
    std::vector<cl_device_id> Devices(C->appDevices().begin(), C->appDevices().end());
    return returnVector(Devices, ValueSize, Value, SizeRet);
  }
  case CL_CONTEXT_PROPERTIES:
    return returnVector(C->properties(), ValueSize, Value, SizeRet);
  default:
    return RT.real().clGetContextInfo(C->primary().RealContext, Param, ValueSize, Value, SizeRet);
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetContextInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context ContextHandle, void(CL_CALLBACK *Notify)(cl_context, void *), void *UserData) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetContextDestructorCallback, ContextHandle, Notify, UserData);
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK(!C, CL_INVALID_CONTEXT);
  LIBSPLIT_CHECK(!Notify, CL_INVALID_VALUE);
  C->addDestructorCallback(Notify, UserData);
  return CL_SUCCESS;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetContextDestructorCallback", nullptr);
}
