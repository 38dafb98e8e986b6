// Entry points: command queues, flush and finish.
#include "api_common.hpp"

using namespace libsplit;

namespace {

cl_command_queue makeQueue(cl_context ContextHandle, cl_device_id DeviceHandle,
                           cl_command_queue_properties Flags,
                           std::vector<cl_queue_properties> AppProperties, cl_int *ErrorRet) {
  Runtime &RT = runtime();
  Context *C = asContext(ContextHandle);
  LIBSPLIT_CHECK_RET(!C, CL_INVALID_CONTEXT, ErrorRet);
  Device *D = asDevice(DeviceHandle);
  LIBSPLIT_CHECK_RET(!D, CL_INVALID_DEVICE, ErrorRet);
  ExecDevice *Exec = C->execFor(D);
  LIBSPLIT_CHECK_RET(!Exec, CL_INVALID_DEVICE, ErrorRet);
  // The real implementation judges the properties: a throw-away real queue gives the native
  // error for a property the device does not support.
  cl_int Error = CL_SUCCESS;
  cl_command_queue Probe =
      RT.real().clCreateCommandQueue(Exec->RealContext, Exec->Real, Flags, &Error);
  LIBSPLIT_CHECK_RET(!Probe, Error, ErrorRet);
  RT.real().clReleaseCommandQueue(Probe);
  C->appQueueMade(*Exec, (Flags & CL_QUEUE_PROFILING_ENABLE) != 0);
  auto Q = Queue::create(C->shared_from_this(), *D, *Exec, Flags, std::move(AppProperties));
  setError(ErrorRet, CL_SUCCESS);
  return Q.get();
}

} // namespace

LIBSPLIT_API cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context ContextHandle,
                                                               cl_device_id DeviceHandle,
                                                               cl_command_queue_properties Flags,
                                                               cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateCommandQueue, ContextHandle, DeviceHandle, Flags,
                                   ErrorRet);
  return makeQueue(ContextHandle, DeviceHandle, Flags, {}, ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_command_queue>("clCreateCommandQueue", ErrorRet);
}

LIBSPLIT_API cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context ContextHandle, cl_device_id DeviceHandle,
                                   const cl_queue_properties *Properties, cl_int *ErrorRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clCreateCommandQueueWithProperties, ContextHandle, DeviceHandle,
                                   Properties, ErrorRet);
  cl_command_queue_properties Flags = 0;
  std::vector<cl_queue_properties> Copy;
  for (const cl_queue_properties *P = Properties; P && *P; P += 2) {
    if (P[0] == CL_QUEUE_PROPERTIES)
      Flags = static_cast<cl_command_queue_properties>(P[1]);
    else if (P[0] != CL_QUEUE_SIZE)
      LIBSPLIT_CHECK_RET(true, CL_INVALID_VALUE, ErrorRet);
    Copy.push_back(P[0]);
    Copy.push_back(P[1]);
  }
  if (Properties)
    Copy.push_back(0);
  // On-device queues need device-side enqueue, which libsplit reports as unsupported.
  LIBSPLIT_CHECK_RET(Flags & CL_QUEUE_ON_DEVICE, CL_INVALID_QUEUE_PROPERTIES, ErrorRet);
  return makeQueue(ContextHandle, DeviceHandle, Flags, std::move(Copy), ErrorRet);
} catch (...) {
  return libsplit::escapedFrom<cl_command_queue>("clCreateCommandQueueWithProperties", ErrorRet);
}

LIBSPLIT_API cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue QueueHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clRetainCommandQueue, QueueHandle);
  return retainObject(asQueue(QueueHandle), CL_INVALID_COMMAND_QUEUE);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clRetainCommandQueue", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue QueueHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clReleaseCommandQueue, QueueHandle);
  return releaseObject(asQueue(QueueHandle), CL_INVALID_COMMAND_QUEUE);
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clReleaseCommandQueue", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue QueueHandle,
                                                      cl_command_queue_info Param, size_t ValueSize,
                                                      void *Value, size_t *SizeRet) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clGetCommandQueueInfo, QueueHandle, Param, ValueSize, Value,
                                   SizeRet);
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  switch (Param) {
  case CL_QUEUE_CONTEXT:
    return returnValue<cl_context>(&Q->context(), ValueSize, Value, SizeRet);
  case CL_QUEUE_DEVICE:
    return returnValue<cl_device_id>(&Q->device(), ValueSize, Value, SizeRet);
  case CL_QUEUE_REFERENCE_COUNT:
    return returnValue<cl_uint>(Q->appReferences(), ValueSize, Value, SizeRet);
  case CL_QUEUE_PROPERTIES:
    return returnValue<cl_command_queue_properties>(Q->properties(), ValueSize, Value, SizeRet);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return returnVector(Q->appProperties(), ValueSize, Value, SizeRet);
  case CL_QUEUE_SIZE:
    return CL_INVALID_COMMAND_QUEUE; // only on-device queues have a size
  case CL_QUEUE_DEVICE_DEFAULT:
    return returnValue<cl_command_queue>(nullptr, ValueSize, Value, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clGetCommandQueueInfo", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue QueueHandle,
                                                          cl_command_queue_properties, cl_bool,
                                                          cl_command_queue_properties *) try {
  Runtime &RT = runtime();
  if (!RT.splitting())
    return CL_INVALID_OPERATION;
  LIBSPLIT_CHECK(!asQueue(QueueHandle), CL_INVALID_COMMAND_QUEUE);
  return CL_INVALID_OPERATION;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetCommandQueueProperty", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context ContextHandle,
                                                               cl_device_id DeviceHandle,
                                                               cl_command_queue QueueHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clSetDefaultDeviceCommandQueue, ContextHandle, DeviceHandle,
                                   QueueHandle);
  return CL_INVALID_OPERATION;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clSetDefaultDeviceCommandQueue", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clFlush(cl_command_queue QueueHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clFlush, QueueHandle);
  LIBSPLIT_CHECK(!asQueue(QueueHandle), CL_INVALID_COMMAND_QUEUE);
  return CL_SUCCESS; // the executor starts every command as soon as it is enqueued
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clFlush", nullptr);
}

LIBSPLIT_API cl_int CL_API_CALL clFinish(cl_command_queue QueueHandle) try {
  LIBSPLIT_FORWARD_IF_PASS_THROUGH(clFinish, QueueHandle);
  LIBSPLIT_SHOW_CALL("clFinish");
  Queue *Q = asQueue(QueueHandle);
  LIBSPLIT_CHECK(!Q, CL_INVALID_COMMAND_QUEUE);
  cl_int Result = CL_SUCCESS;
  {
    AppWait Waiting(Q->context());
    Result = Q->finish();
  }
  if (Result == CL_SUCCESS)
    Q->context().caughtUp(*Q);
  return Result;
} catch (...) {
  return libsplit::escapedFrom<cl_int>("clFinish", nullptr);
}
