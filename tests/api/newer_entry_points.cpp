// Entry points of OpenCL 2.x and 3.0 that a 1.2 program never calls but the conformance suite and
// newer apps do: their answers where libsplit offers nothing of its own (pipes, program release
// callbacks) and their argument checks (sub-devices, buffer properties).
#define CL_TARGET_OPENCL_VERSION 300
// clSetProgramReleaseCallback is deprecated in 3.0, and still called.
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "api_test.hpp"

using namespace api;

namespace {

void subDevices(const Setup &S) {
  const cl_device_partition_property Equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id Out[4] = {};
  cl_uint Made = 0;
  // Room for no device given: an error, not a count query.
  show("clCreateSubDevices(0 entries, array)",
       clCreateSubDevices(S.Device, Equally, 0, Out, nullptr));
  say("array untouched: %s", yesNo(!Out[0]));
  show("clCreateSubDevices(NULL device)", clCreateSubDevices(nullptr, Equally, 0, nullptr, &Made));
}

void bufferProperties(const Setup &S) {
  cl_int Error = CL_SUCCESS;
  const cl_mem_properties None[] = {0};
  cl_mem Given =
      clCreateBufferWithProperties(S.Context, None, CL_MEM_READ_WRITE, 64, nullptr, &Error);
  show("clCreateBufferWithProperties({0})", Error);
  size_t Size = 1;
  show("CL_MEM_PROPERTIES size", clGetMemObjectInfo(Given, CL_MEM_PROPERTIES, 0, nullptr, &Size));
  say("properties given: %zu entries", Size / sizeof(cl_mem_properties));
  cl_mem Plain =
      clCreateBufferWithProperties(S.Context, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &Error);
  show("clCreateBufferWithProperties(NULL)", Error);
  Size = 1;
  show("CL_MEM_PROPERTIES size", clGetMemObjectInfo(Plain, CL_MEM_PROPERTIES, 0, nullptr, &Size));
  say("properties without a list: %zu entries", Size / sizeof(cl_mem_properties));
  const cl_mem_properties Unknown[] = {0x7fff, 1, 0};
  cl_mem Bad =
      clCreateBufferWithProperties(S.Context, Unknown, CL_MEM_READ_WRITE, 64, nullptr, &Error);
  show("clCreateBufferWithProperties(unknown property)", Error);
  say("no buffer made: %s", yesNo(!Bad));
  // A buffer is not a pipe.
  cl_uint Packet = 0;
  show("clGetPipeInfo(a buffer)",
       clGetPipeInfo(Given, CL_PIPE_PACKET_SIZE, sizeof(Packet), &Packet, nullptr));
  clReleaseMemObject(Given);
  clReleaseMemObject(Plain);
}

void programReleaseCallback(const Setup &S) {
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  show("clSetProgramReleaseCallback", clSetProgramReleaseCallback(
                                          Program, [](cl_program, void *) {}, nullptr));
  show("clSetProgramReleaseCallback(NULL program)",
       clSetProgramReleaseCallback(
           nullptr, [](cl_program, void *) {}, nullptr));
  clReleaseProgram(Program);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  say("== sub-devices");
  subDevices(S);
  say("== buffer properties and pipes");
  bufferProperties(S);
  say("== program release callbacks");
  programReleaseCallback(S);
  tearDown(S);
  say("done");
  return 0;
}
