#include "OpenCLRunner.h"

#include <cstring>

namespace libsplit::test {

namespace {

std::string failed(const char *What, cl_int Status) {
  return std::string(What) + " failed with status " + std::to_string(Status);
}

} // namespace

OpenCLRunner::OpenCLRunner(std::string &Error) {
  cl_platform_id Platform = nullptr;
  cl_int Status = clGetPlatformIDs(1, &Platform, nullptr);
  if (Status != CL_SUCCESS) {
    Error = failed("clGetPlatformIDs", Status);
    return;
  }
  Status = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr);
  if (Status != CL_SUCCESS) {
    Error = failed("clGetDeviceIDs", Status);
    return;
  }
  Context = ContextHandle(clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Status));
  if (Status != CL_SUCCESS) {
    Error = failed("clCreateContext", Status);
    return;
  }
  Queue = QueueHandle(clCreateCommandQueue(Context.get(), Device, 0, &Status));
  if (Status != CL_SUCCESS)
    Error = failed("clCreateCommandQueue", Status);
}

ProgramHandle OpenCLRunner::build(const std::string &Source, const std::string &Options,
                                  std::string &Error) {
  const char *Text = Source.c_str();
  size_t Length = Source.size();
  cl_int Status = CL_SUCCESS;
  ProgramHandle Program(clCreateProgramWithSource(Context.get(), 1, &Text, &Length, &Status));
  if (Status != CL_SUCCESS) {
    Error = failed("clCreateProgramWithSource", Status);
    return ProgramHandle();
  }
  Status = clBuildProgram(Program.get(), 1, &Device, Options.c_str(), nullptr, nullptr);
  if (Status != CL_SUCCESS) {
    size_t LogSize = 0;
    clGetProgramBuildInfo(Program.get(), Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &LogSize);
    std::string Log(LogSize, '\0');
    clGetProgramBuildInfo(Program.get(), Device, CL_PROGRAM_BUILD_LOG, LogSize, Log.data(),
                          nullptr);
    Error = failed("clBuildProgram", Status) + ":\n" + Log;
    return ProgramHandle();
  }
  return Program;
}

std::vector<std::vector<unsigned char>>
OpenCLRunner::run(cl_program Program, const std::string &Kernel, unsigned WorkDim,
                  const std::vector<ArgSpec> &Args, const std::vector<Launch> &Launches,
                  const std::vector<AppendedArgs> &Appended, std::string &Error) {
  cl_int Status = CL_SUCCESS;
  KernelHandle Handle(clCreateKernel(Program, Kernel.c_str(), &Status));
  if (Status != CL_SUCCESS) {
    Error = failed("clCreateKernel", Status);
    return {};
  }
  std::vector<BufferHandle> Buffers;
  std::vector<std::pair<cl_mem, size_t>> Outputs;
  for (cl_uint Index = 0; Index < Args.size(); ++Index) {
    const ArgSpec &Arg = Args[Index];
    if (Arg.Kind == ArgKind::UInt) {
      Status = clSetKernelArg(Handle.get(), Index, sizeof(cl_uint), &Arg.Value);
    } else if (Arg.Kind == ArgKind::Local) {
      Status = clSetKernelArg(Handle.get(), Index, Arg.Bytes, nullptr);
    } else {
      // Outputs get as many bytes again of sentinel-filled slack: a write past
      // the end shows up as a difference instead of corrupting memory.
      size_t Bytes = Arg.Kind == ArgKind::Output ? 2 * Arg.Bytes : Arg.Bytes;
      std::vector<unsigned char> Initial(Bytes, Sentinel);
      if (Arg.Kind == ArgKind::Input)
        for (size_t I = 0; I < Arg.Bytes / sizeof(float); ++I) {
          float Value = static_cast<float>(I % 97) * 0.5f;
          std::memcpy(Initial.data() + I * sizeof(float), &Value, sizeof(float));
        }
      Buffers.emplace_back(clCreateBuffer(Context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          Bytes, Initial.data(), &Status));
      if (Status != CL_SUCCESS) {
        Error = failed("clCreateBuffer", Status);
        return {};
      }
      cl_mem Memory = Buffers.back().get();
      if (Arg.Kind == ArgKind::Output)
        Outputs.emplace_back(Memory, Bytes);
      Status = clSetKernelArg(Handle.get(), Index, sizeof(cl_mem), &Memory);
    }
    if (Status != CL_SUCCESS) {
      Error = failed("clSetKernelArg", Status) + " for argument " + std::to_string(Index);
      return {};
    }
  }

  for (size_t L = 0; L < Launches.size(); ++L) {
    if (!Appended.empty()) {
      const AppendedArgs &Extra = Appended[L];
      cl_int S1 = clSetKernelArg(Handle.get(), Extra.Indices[0], sizeof(cl_uint), &Extra.SplitDim);
      cl_int S2 =
          clSetKernelArg(Handle.get(), Extra.Indices[1], sizeof(cl_ulong), &Extra.NumGroups);
      cl_int S3 =
          clSetKernelArg(Handle.get(), Extra.Indices[2], sizeof(cl_ulong), &Extra.SplitOrigin);
      if (S1 != CL_SUCCESS || S2 != CL_SUCCESS || S3 != CL_SUCCESS) {
        Error = "clSetKernelArg failed for an appended argument (" + std::to_string(S1) + ", " +
                std::to_string(S2) + ", " + std::to_string(S3) + ")";
        return {};
      }
    }
    const Launch &Range = Launches[L];
    Status = clEnqueueNDRangeKernel(Queue.get(), Handle.get(), WorkDim, Range.Offset.data(),
                                    Range.Global.data(), Range.Local.data(), 0, nullptr, nullptr);
    if (Status != CL_SUCCESS) {
      Error = failed("clEnqueueNDRangeKernel", Status);
      return {};
    }
    // Arguments are captured at enqueue time; finishing keeps the test simple.
    clFinish(Queue.get());
  }

  std::vector<std::vector<unsigned char>> Contents;
  for (auto [Memory, Bytes] : Outputs) {
    std::vector<unsigned char> Data(Bytes);
    Status = clEnqueueReadBuffer(Queue.get(), Memory, CL_TRUE, 0, Bytes, Data.data(), 0, nullptr,
                                 nullptr);
    if (Status != CL_SUCCESS) {
      Error = failed("clEnqueueReadBuffer", Status);
      return {};
    }
    Contents.push_back(std::move(Data));
  }
  return Contents;
}

} // namespace libsplit::test
