// Programs: build failures (return code, build status, a non-empty log — never its text, which
// names files and columns), program queries before and after building, invalid build options,
// separate compilation and linking, the argument checks of program and kernel creation, and a
// program made again from the binary of a program built with options (an app that caches its
// builds): its kernel computes what the options made.
#include "api_test.hpp"

using namespace api;

namespace {

const char *GoodSource = R"CLC(
__kernel void first(__global uint *out) { out[get_global_id(0)] = 1u; }
__kernel void second(__global uint *out, uint v) { out[get_global_id(0)] = v; }
)CLC";
// SCALE comes from the build options; the binary carries it.
const char *ScaledSource = R"CLC(
#ifndef SCALE
#define SCALE 1u
#endif
__kernel void scaled(__global uint *out) { out[get_global_id(0)] = SCALE * (uint)get_global_id(0); }
)CLC";
const char *SyntaxError = R"CLC(
__kernel void broken(__global uint *out) { out[get_global_id(0)] = ; }
)CLC";
const char *SemanticError = R"CLC(
__kernel void broken(__global uint *out) { out[get_global_id(0)] = undeclared_name; }
)CLC";

const char *buildStatusName(cl_build_status Status) {
  switch (Status) {
  case CL_BUILD_SUCCESS:
    return "CL_BUILD_SUCCESS";
  case CL_BUILD_NONE:
    return "CL_BUILD_NONE";
  case CL_BUILD_ERROR:
    return "CL_BUILD_ERROR";
  case CL_BUILD_IN_PROGRESS:
    return "CL_BUILD_IN_PROGRESS";
  default:
    return "unknown";
  }
}

void showBuildInfo(const char *Name, cl_program Program, cl_device_id Device) {
  cl_build_status Status = 99;
  show("CL_PROGRAM_BUILD_STATUS", clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_STATUS,
                                                        sizeof(Status), &Status, nullptr));
  size_t LogSize = 0;
  show("CL_PROGRAM_BUILD_LOG size",
       clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &LogSize));
  std::string Log(LogSize, '\0');
  clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, LogSize, Log.data(), nullptr);
  bool NonEmpty = Log.find_first_not_of(std::string(" \t\r\n\0", 5)) != std::string::npos;
  say("%s: status %s, log non-empty: %s", Name, buildStatusName(Status), yesNo(NonEmpty));
}

cl_program fromSource(cl_context Context, const char *Source) {
  cl_int Error = CL_SUCCESS;
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Error);
  need(Error, "clCreateProgramWithSource");
  return Program;
}

void failures(const Setup &S) {
  for (const auto &[Name, Source] : {std::make_pair("syntax error", SyntaxError),
                                     std::make_pair("semantic error", SemanticError)}) {
    cl_program Program = fromSource(S.Context, Source);
    showBuildInfo("before build", Program, S.Device);
    say("%s: clBuildProgram: %s", Name,
        errorName(clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr)));
    showBuildInfo(Name, Program, S.Device);
    cl_int Error = CL_SUCCESS;
    clCreateKernel(Program, "broken", &Error);
    show("clCreateKernel on a failed build", Error);
    cl_uint NumKernels = 0;
    show("clCreateKernelsInProgram on a failed build",
         clCreateKernelsInProgram(Program, 0, nullptr, &NumKernels));
    size_t Count = 0;
    show("CL_PROGRAM_NUM_KERNELS on a failed build",
         clGetProgramInfo(Program, CL_PROGRAM_NUM_KERNELS, sizeof(Count), &Count, nullptr));
    // A failed program can be built again from the same source: it fails the same way.
    say("%s: second clBuildProgram: %s", Name,
        errorName(clBuildProgram(Program, 0, nullptr, nullptr, nullptr, nullptr)));
    clReleaseProgram(Program);
  }
  cl_program Program = fromSource(S.Context, GoodSource);
  show("clBuildProgram(unknown option)",
       clBuildProgram(Program, 1, &S.Device, "-fno-such-option-anywhere", nullptr, nullptr));
  showBuildInfo("after unknown option", Program, S.Device);
  show("clBuildProgram(after a failed build, good options)",
       clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr));
  showBuildInfo("rebuilt", Program, S.Device);
  clReleaseProgram(Program);
}

void queries(const Setup &S) {
  cl_program Program = fromSource(S.Context, GoodSource);
  cl_int Error = CL_SUCCESS;
  clCreateKernel(Program, "first", &Error);
  show("clCreateKernel before build", Error);
  size_t Count = 0;
  show("CL_PROGRAM_NUM_KERNELS before build",
       clGetProgramInfo(Program, CL_PROGRAM_NUM_KERNELS, sizeof(Count), &Count, nullptr));
  show("clBuildProgram(-DVALUE=3)",
       clBuildProgram(Program, 1, &S.Device, "-DVALUE=3", nullptr, nullptr));
  showBuildInfo("good", Program, S.Device);

  size_t Size = 0;
  clGetProgramBuildInfo(Program, S.Device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &Size);
  std::string Options(Size, '\0');
  show("CL_PROGRAM_BUILD_OPTIONS",
       clGetProgramBuildInfo(Program, S.Device, CL_PROGRAM_BUILD_OPTIONS, Size, Options.data(),
                             nullptr));
  say("build options: '%s'", Options.c_str());
  cl_program_binary_type BinaryType = 0;
  show("CL_PROGRAM_BINARY_TYPE", clGetProgramBuildInfo(Program, S.Device, CL_PROGRAM_BINARY_TYPE,
                                                       sizeof(BinaryType), &BinaryType, nullptr));
  say("binary type: %s", BinaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE ? "executable" : "other");

  cl_uint NumDevices = 0;
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  clGetProgramInfo(Program, CL_PROGRAM_NUM_DEVICES, sizeof(NumDevices), &NumDevices, nullptr);
  clGetProgramInfo(Program, CL_PROGRAM_DEVICES, sizeof(Device), &Device, nullptr);
  clGetProgramInfo(Program, CL_PROGRAM_CONTEXT, sizeof(Context), &Context, nullptr);
  say("program: %u device(s), the app's: %s, context the app's: %s", NumDevices,
      yesNo(Device == S.Device), yesNo(Context == S.Context));
  show("CL_PROGRAM_NUM_KERNELS",
       clGetProgramInfo(Program, CL_PROGRAM_NUM_KERNELS, sizeof(Count), &Count, nullptr));
  say("kernels: %zu", Count);
  clGetProgramInfo(Program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &Size);
  std::string Names(Size, '\0');
  show("CL_PROGRAM_KERNEL_NAMES",
       clGetProgramInfo(Program, CL_PROGRAM_KERNEL_NAMES, Size, Names.data(), nullptr));
  say("kernel names: '%s'", Names.c_str());
  clGetProgramInfo(Program, CL_PROGRAM_SOURCE, 0, nullptr, &Size);
  std::string Source(Size, '\0');
  show("CL_PROGRAM_SOURCE",
       clGetProgramInfo(Program, CL_PROGRAM_SOURCE, Size, Source.data(), nullptr));
  say("source returned as given: %s", yesNo(std::string(Source.c_str()) == GoodSource));
  show("CL_PROGRAM_BINARY_SIZES",
       clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr));
  say("binary size non-zero: %s", yesNo(Size > 0));
  show("clGetProgramInfo(bad param)",
       clGetProgramInfo(Program, 0x7fff, sizeof(Size), &Size, nullptr));
  show("clGetProgramInfo(value too small)",
       clGetProgramInfo(Program, CL_PROGRAM_NUM_DEVICES, 1, &NumDevices, nullptr));
  show("clGetProgramInfo(NULL)",
       clGetProgramInfo(nullptr, CL_PROGRAM_NUM_DEVICES, sizeof(NumDevices), &NumDevices, nullptr));
  show("clGetProgramBuildInfo(bad param)",
       clGetProgramBuildInfo(Program, S.Device, 0x7fff, sizeof(Size), &Size, nullptr));
  show("clGetProgramBuildInfo(NULL device)",
       clGetProgramBuildInfo(Program, nullptr, CL_PROGRAM_BUILD_STATUS, sizeof(Size), &Size,
                             nullptr));
  show("clGetProgramBuildInfo(NULL program)",
       clGetProgramBuildInfo(nullptr, S.Device, CL_PROGRAM_BUILD_STATUS, sizeof(Size), &Size,
                             nullptr));

  // Kernel creation checks.
  clCreateKernel(Program, "no_such_kernel", &Error);
  show("clCreateKernel(unknown name)", Error);
  clCreateKernel(Program, nullptr, &Error);
  show("clCreateKernel(NULL name)", Error);
  clCreateKernel(nullptr, "first", &Error);
  show("clCreateKernel(NULL program)", Error);
  cl_kernel Kernel = clCreateKernel(Program, "second", &Error);
  show("clCreateKernel(second)", Error);
  // A program with kernels attached cannot be rebuilt.
  show("clBuildProgram(kernels attached)",
       clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr));
  clReleaseKernel(Kernel);
  show("clBuildProgram(kernels released)",
       clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr));
  clReleaseProgram(Program);
}

void creationChecks(const Setup &S) {
  cl_int Error = CL_SUCCESS;
  clCreateProgramWithSource(S.Context, 0, &GoodSource, nullptr, &Error);
  show("clCreateProgramWithSource(count 0)", Error);
  // Not checked: a NULL strings array or a NULL string in it (PoCL 3.1 crashes on both).
  clCreateProgramWithSource(nullptr, 1, &GoodSource, nullptr, &Error);
  show("clCreateProgramWithSource(NULL context)", Error);
  // Two strings with explicit lengths (one of them 0: NUL-terminated).
  const char *Parts[] = {"__kernel void joined(__global uint *o) { o[0] = 5u; }XXXX", "\n"};
  const size_t Lengths[] = {std::strlen(Parts[0]) - 4, 0};
  cl_program Joined = clCreateProgramWithSource(S.Context, 2, Parts, Lengths, &Error);
  show("clCreateProgramWithSource(lengths)", Error);
  show("clBuildProgram(lengths)", clBuildProgram(Joined, 1, &S.Device, nullptr, nullptr, nullptr));
  clReleaseProgram(Joined);

  cl_program Program = fromSource(S.Context, GoodSource);
  show("clBuildProgram(NULL program)",
       clBuildProgram(nullptr, 1, &S.Device, nullptr, nullptr, nullptr));
  show("clBuildProgram(1 device, NULL list)",
       clBuildProgram(Program, 1, nullptr, nullptr, nullptr, nullptr));
  show("clBuildProgram(0 devices, list)",
       clBuildProgram(Program, 0, &S.Device, nullptr, nullptr, nullptr));
  // Not checked: a NULL device in the list (PoCL 3.1 crashes).
  // A device of the platform that is not in the context.
  cl_uint All = 0;
  clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &All);
  std::vector<cl_device_id> Devices(All);
  clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, All, Devices.data(), nullptr);
  for (cl_device_id Other : Devices)
    if (Other != S.Device) {
      // PoCL 3.1 says CL_BUILD_PROGRAM_FAILURE, the specification CL_INVALID_DEVICE.
      departure("clBuildProgram(device not in context)");
      cl_build_status Status = 99;
      show("clGetProgramBuildInfo(device not in context)",
           clGetProgramBuildInfo(Program, Other, CL_PROGRAM_BUILD_STATUS, sizeof(Status), &Status,
                                 nullptr));
      break;
    }
  clReleaseProgram(Program);
}

void compileAndLink(const Setup &S) {
  const char *Header = "#define TWICE(x) ((x) * 2u)\n";
  const char *User = R"CLC(
#include "twice.h"
uint helper(uint x);
__kernel void linked(__global uint *out) {
  size_t i = get_global_id(0);
  out[i] = helper(TWICE((uint)i));
}
)CLC";
  const char *Library = "uint helper(uint x) { return x + 7u; }\n";
  cl_program HeaderProgram = fromSource(S.Context, Header);
  cl_program Main = fromSource(S.Context, User);
  cl_program Lib = fromSource(S.Context, Library);
  const char *HeaderName = "twice.h";
  show("clCompileProgram(main, with header)",
       clCompileProgram(Main, 1, &S.Device, nullptr, 1, &HeaderProgram, &HeaderName, nullptr,
                        nullptr));
  showBuildInfo("compiled main", Main, S.Device);
  show("clCompileProgram(library)",
       clCompileProgram(Lib, 1, &S.Device, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  cl_program_binary_type BinaryType = 0;
  clGetProgramBuildInfo(Lib, S.Device, CL_PROGRAM_BINARY_TYPE, sizeof(BinaryType), &BinaryType,
                        nullptr);
  say("compiled library binary type: %s",
      BinaryType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ? "compiled object" : "other");
  const cl_program Inputs[] = {Main, Lib};
  cl_int Error = CL_SUCCESS;
  cl_program Linked =
      clLinkProgram(S.Context, 1, &S.Device, nullptr, 2, Inputs, nullptr, nullptr, &Error);
  show("clLinkProgram", Error);
  if (Linked) {
    showBuildInfo("linked", Linked, S.Device);
    cl_kernel Kernel = createKernel(Linked, "linked");
    const size_t Items = 64;
    cl_mem Out = createBuffer(S.Context, CL_MEM_WRITE_ONLY, Items * sizeof(cl_uint));
    setArg(Kernel, 0, Out);
    show("launch of the linked kernel",
         clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &Items, nullptr, 0, nullptr, nullptr));
    std::vector<cl_uint> Result = readAll<cl_uint>(S.Queue, Out, Items);
    bool Correct = true;
    for (size_t I = 0; I < Items; ++I)
      Correct = Correct && Result[I] == 2 * I + 7;
    say("linked kernel results: %s", yesNo(Correct));
    clReleaseMemObject(Out);
    clReleaseKernel(Kernel);
    clReleaseProgram(Linked);
  }
  // Compilation failure, and linking a program with an unresolved function.
  cl_program Broken = fromSource(S.Context, SyntaxError);
  show("clCompileProgram(syntax error)",
       clCompileProgram(Broken, 1, &S.Device, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  showBuildInfo("failed compile", Broken, S.Device);
  Linked = clLinkProgram(S.Context, 1, &S.Device, nullptr, 1, &Main, nullptr, nullptr, &Error);
  show("clLinkProgram(unresolved helper)", Error);
  if (Linked)
    clReleaseProgram(Linked);
  clLinkProgram(S.Context, 1, &S.Device, nullptr, 0, nullptr, nullptr, nullptr, &Error);
  show("clLinkProgram(no inputs)", Error);
  for (cl_program P : {HeaderProgram, Main, Lib, Broken})
    clReleaseProgram(P);
}

void fromSavedBinary(const Setup &S) {
  cl_program Built = fromSource(S.Context, ScaledSource);
  show("clBuildProgram(-DSCALE=7u)",
       clBuildProgram(Built, 1, &S.Device, "-DSCALE=7u", nullptr, nullptr));
  size_t Size = 0;
  show("CL_PROGRAM_BINARY_SIZES",
       clGetProgramInfo(Built, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr));
  std::vector<unsigned char> Binary(Size);
  unsigned char *Target = Binary.data();
  show("CL_PROGRAM_BINARIES",
       clGetProgramInfo(Built, CL_PROGRAM_BINARIES, sizeof(Target), &Target, nullptr));
  clReleaseProgram(Built);

  const unsigned char *Bytes = Binary.data();
  cl_int Status = 99, Error = CL_SUCCESS;
  cl_program Program =
      clCreateProgramWithBinary(S.Context, 1, &S.Device, &Size, &Bytes, &Status, &Error);
  show("clCreateProgramWithBinary", Error);
  show("binary status", Status);
  // Options given again, or none, do not change what the binary computes.
  show("clBuildProgram(binary, no options)",
       clBuildProgram(Program, 1, &S.Device, nullptr, nullptr, nullptr));
  cl_kernel Kernel = clCreateKernel(Program, "scaled", &Error);
  show("clCreateKernel(scaled)", Error);
  const size_t Items = 4096, Local = 64;
  std::vector<cl_uint> Out(Items, 0);
  cl_mem Buffer = clCreateBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 Items * sizeof(cl_uint), Out.data(), &Error);
  need(Error, "clCreateBuffer");
  API_NEED(clSetKernelArg(Kernel, 0, sizeof(Buffer), &Buffer));
  show("clEnqueueNDRangeKernel(scaled)",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &Items, &Local, 0, nullptr, nullptr));
  show("clEnqueueReadBuffer",
       clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, Items * sizeof(cl_uint), Out.data(), 0,
                           nullptr, nullptr));
  bool AsBuilt = true;
  for (size_t I = 0; I < Items; ++I)
    AsBuilt = AsBuilt && Out[I] == 7u * static_cast<cl_uint>(I);
  say("kernel from the binary computes SCALE 7 everywhere: %s", yesNo(AsBuilt));
  clReleaseMemObject(Buffer);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  say("== build failures");
  failures(S);
  say("== program queries");
  queries(S);
  say("== creation checks");
  creationChecks(S);
  say("== separate compilation and linking");
  compileAndLink(S);
  say("== a program from a saved binary");
  fromSavedBinary(S);
  tearDown(S);
  say("done");
  return 0;
}
