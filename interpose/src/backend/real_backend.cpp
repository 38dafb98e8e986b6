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

cl_int RealBackend::finish(cl_command_queue Queue) { return Api.clFinish(Queue); }

} // namespace libsplit
