#include "ClDevice.h"

namespace libsplit::test {

namespace {

std::string failed(const char *What, cl_int Status) {
  return std::string(What) + " failed with status " + std::to_string(Status);
}

} // namespace

ClDevice::ClDevice(std::string &Error) {
  cl_platform_id Platform = nullptr;
  cl_int Status = clGetPlatformIDs(1, &Platform, nullptr);
  if (Status == CL_SUCCESS)
    Status = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr);
  if (Status != CL_SUCCESS) {
    Error = failed("finding an OpenCL device", Status);
    return;
  }
  Context = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Status);
  if (Status == CL_SUCCESS)
    Queue = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Status);
  if (Status != CL_SUCCESS)
    Error = failed("creating a context and queue", Status);
}

ClDevice::~ClDevice() {
  if (Program)
    clReleaseProgram(Program);
  if (Queue)
    clReleaseCommandQueue(Queue);
  if (Context)
    clReleaseContext(Context);
}

bool ClDevice::build(const std::string &Source, const std::string &Options, std::string &Error) {
  const char *Text = Source.c_str();
  const std::size_t Length = Source.size();
  cl_int Status = CL_SUCCESS;
  Program = clCreateProgramWithSource(Context, 1, &Text, &Length, &Status);
  if (Status != CL_SUCCESS) {
    Error = failed("clCreateProgramWithSource", Status);
    return false;
  }
  Status = clBuildProgram(Program, 1, &Device, Options.c_str(), nullptr, nullptr);
  if (Status != CL_SUCCESS) {
    std::size_t Size = 0;
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
    Error = failed("clBuildProgram", Status) + ":\n" + Log;
    return false;
  }
  return true;
}

bool ClDevice::run(const std::string &Kernel, const LaunchSpec &Spec, const Appended &Extra,
                   const SliceLaunch &Launch, std::vector<std::vector<std::uint8_t>> &Contents,
                   std::string &Error) {
  cl_int Status = CL_SUCCESS;
  cl_kernel Handle = clCreateKernel(Program, Kernel.c_str(), &Status);
  if (Status != CL_SUCCESS) {
    Error = failed("clCreateKernel", Status);
    return false;
  }
  std::vector<cl_mem> Buffers(Spec.Args.size(), nullptr);
  bool Ok = true;
  for (cl_uint I = 0; I < Spec.Args.size() && Ok; ++I) {
    const ArgSpec &Arg = Spec.Args[I];
    if (Arg.What == ArgSpec::Kind::Buffer) {
      Buffers[I] = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  Contents[I].size(), Contents[I].data(), &Status);
      if (Status == CL_SUCCESS)
        Status = clSetKernelArg(Handle, I, sizeof(cl_mem), &Buffers[I]);
    } else if (Arg.What == ArgSpec::Kind::Local) {
      Status = clSetKernelArg(Handle, I, Arg.Bytes, nullptr);
    } else {
      Status = clSetKernelArg(Handle, I, Arg.Value.size(), Arg.Value.data());
    }
    if (Status != CL_SUCCESS) {
      Error = failed("clSetKernelArg", Status) + " (argument " + std::to_string(I) + ")";
      Ok = false;
    }
  }
  if (Ok) {
    Status = clSetKernelArg(Handle, Extra.FirstIndex, sizeof(cl_uint), &Extra.SplitDim);
    if (Status == CL_SUCCESS)
      Status = clSetKernelArg(Handle, Extra.FirstIndex + 1, sizeof(cl_ulong), &Extra.NumGroups);
    if (Status == CL_SUCCESS)
      Status = clSetKernelArg(Handle, Extra.FirstIndex + 2, sizeof(cl_ulong), &Extra.SplitOrigin);
    if (Status == CL_SUCCESS)
      Status =
          clEnqueueNDRangeKernel(Queue, Handle, Spec.WorkDim, Launch.Offset.data(),
                                 Launch.Global.data(), Launch.Local.data(), 0, nullptr, nullptr);
    if (Status != CL_SUCCESS) {
      Error = failed("launching the kernel", Status);
      Ok = false;
    }
  }
  for (std::size_t I = 0; I < Buffers.size() && Ok; ++I)
    if (Buffers[I]) {
      Status = clEnqueueReadBuffer(Queue, Buffers[I], CL_TRUE, 0, Contents[I].size(),
                                   Contents[I].data(), 0, nullptr, nullptr);
      if (Status != CL_SUCCESS) {
        Error = failed("clEnqueueReadBuffer", Status);
        Ok = false;
      }
    }
  for (cl_mem Buffer : Buffers)
    if (Buffer)
      clReleaseMemObject(Buffer);
  clReleaseKernel(Handle);
  return Ok;
}

} // namespace libsplit::test
