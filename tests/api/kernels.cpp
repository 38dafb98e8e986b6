// Kernel objects: queries (arguments, name, work-group info, argument info), clSetKernelArg and
// clEnqueueNDRangeKernel argument checks, arguments changed between launches,
// clCreateKernelsInProgram and clCloneKernel.
//
// CL_KERNEL_WORK_GROUP_SIZE may legitimately be smaller under libsplit (the minimum over the
// devices a kernel may run on), so only its range is compared.
#include "api_test.hpp"

#include <algorithm>

// OpenCL 2.1; the 1.2 headers do not declare it. Called only on a 2.1+ device and platform.
extern "C" CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel SourceKernel,
                                                            cl_int *ErrorRet);

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void three_args(__global uint *out, __local uint *scratch, uint value) {
  size_t l = get_local_id(0);
  scratch[l] = value + (uint)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l];
}
__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void fixed_group(__global uint *out) {
  out[get_global_id(0)] = (uint)get_local_id(0);
}
__kernel void with_const(__constant uint *table, __global uint *out) {
  out[get_global_id(0)] = table[get_global_id(0) % 4];
}
)CLC";

std::string kernelString(cl_kernel Kernel, cl_kernel_info Param) {
  size_t Size = 0;
  clGetKernelInfo(Kernel, Param, 0, nullptr, &Size);
  std::string Text(Size, '\0');
  clGetKernelInfo(Kernel, Param, Size, Text.data(), nullptr);
  while (!Text.empty() && Text.back() == '\0')
    Text.pop_back();
  return Text;
}

void queries(const Setup &S, cl_program Program) {
  cl_kernel Kernel = createKernel(Program, "three_args");
  cl_uint NumArgs = 0;
  show("CL_KERNEL_NUM_ARGS",
       clGetKernelInfo(Kernel, CL_KERNEL_NUM_ARGS, sizeof(NumArgs), &NumArgs, nullptr));
  say("num args: %u, function name: %s", NumArgs,
      kernelString(Kernel, CL_KERNEL_FUNCTION_NAME).c_str());
  cl_program FromKernel = nullptr;
  cl_context Context = nullptr;
  clGetKernelInfo(Kernel, CL_KERNEL_PROGRAM, sizeof(FromKernel), &FromKernel, nullptr);
  clGetKernelInfo(Kernel, CL_KERNEL_CONTEXT, sizeof(Context), &Context, nullptr);
  say("kernel's program and context are the app's: %s %s", yesNo(FromKernel == Program),
      yesNo(Context == S.Context));
  cl_kernel Fixed = createKernel(Program, "fixed_group");
  say("attributes of fixed_group: '%s'", kernelString(Fixed, CL_KERNEL_ATTRIBUTES).c_str());
  show("clGetKernelInfo(bad param)",
       clGetKernelInfo(Kernel, 0x7fff, sizeof(NumArgs), &NumArgs, nullptr));
  show("clGetKernelInfo(value too small)",
       clGetKernelInfo(Kernel, CL_KERNEL_NUM_ARGS, 1, &NumArgs, nullptr));
  show("clGetKernelInfo(NULL)",
       clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof(NumArgs), &NumArgs, nullptr));

  size_t DeviceMax = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(DeviceMax), &DeviceMax, nullptr);
  size_t GroupSize = 0;
  show("CL_KERNEL_WORK_GROUP_SIZE",
       clGetKernelWorkGroupInfo(Kernel, S.Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(GroupSize),
                                &GroupSize, nullptr));
  say("work group size within [1, device max]: %s",
      yesNo(GroupSize >= 1 && GroupSize <= DeviceMax));
  // With one device in the context, the device argument may be NULL.
  show("CL_KERNEL_WORK_GROUP_SIZE(NULL device)",
       clGetKernelWorkGroupInfo(Kernel, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof(GroupSize),
                                &GroupSize, nullptr));
  size_t Compile[3] = {9, 9, 9};
  show("CL_KERNEL_COMPILE_WORK_GROUP_SIZE",
       clGetKernelWorkGroupInfo(Fixed, S.Device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(Compile),
                                Compile, nullptr));
  say("reqd_work_group_size: %zu %zu %zu", Compile[0], Compile[1], Compile[2]);
  show("CL_KERNEL_COMPILE_WORK_GROUP_SIZE(none given)",
       clGetKernelWorkGroupInfo(Kernel, S.Device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                sizeof(Compile), Compile, nullptr));
  say("without the attribute: %zu %zu %zu", Compile[0], Compile[1], Compile[2]);
  size_t Multiple = 0;
  show("CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
       clGetKernelWorkGroupInfo(Kernel, S.Device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                sizeof(Multiple), &Multiple, nullptr));
  say("preferred multiple >= 1: %s", yesNo(Multiple >= 1));
  cl_ulong Local = 0;
  show("CL_KERNEL_LOCAL_MEM_SIZE",
       clGetKernelWorkGroupInfo(Kernel, S.Device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(Local), &Local,
                                nullptr));
  show("clGetKernelWorkGroupInfo(bad param)",
       clGetKernelWorkGroupInfo(Kernel, S.Device, 0x7fff, sizeof(GroupSize), &GroupSize, nullptr));
  show("clGetKernelWorkGroupInfo(value too small)",
       clGetKernelWorkGroupInfo(Kernel, S.Device, CL_KERNEL_WORK_GROUP_SIZE, 1, &GroupSize,
                                nullptr));
  show("clGetKernelWorkGroupInfo(NULL kernel)",
       clGetKernelWorkGroupInfo(nullptr, S.Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(GroupSize),
                                &GroupSize, nullptr));
  // A device of the platform that is not in the context.
  cl_uint All = 0;
  clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &All);
  std::vector<cl_device_id> Devices(All);
  clGetDeviceIDs(S.Platform, CL_DEVICE_TYPE_ALL, All, Devices.data(), nullptr);
  for (cl_device_id Other : Devices)
    if (Other != S.Device) {
      show("clGetKernelWorkGroupInfo(device not in context)",
           clGetKernelWorkGroupInfo(Kernel, Other, CL_KERNEL_WORK_GROUP_SIZE, sizeof(GroupSize),
                                    &GroupSize, nullptr));
      break;
    }

  // Argument info is kept only with -cl-kernel-arg-info.
  cl_kernel_arg_address_qualifier Qualifier = 0;
  show("clGetKernelArgInfo(program built without -cl-kernel-arg-info)",
       clGetKernelArgInfo(Kernel, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(Qualifier), &Qualifier,
                          nullptr));
  clReleaseKernel(Fixed);
  clReleaseKernel(Kernel);
}

void argumentInfo(const Setup &S) {
  cl_program Program = buildProgram(S.Context, S.Device, Source, "-cl-kernel-arg-info");
  cl_kernel Kernel = createKernel(Program, "three_args");
  for (cl_uint I = 0; I < 3; ++I) {
    cl_kernel_arg_address_qualifier Address = 0;
    cl_kernel_arg_access_qualifier Access = 0;
    cl_kernel_arg_type_qualifier TypeQualifier = 0;
    char Type[64] = {0}, Name[64] = {0};
    clGetKernelArgInfo(Kernel, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(Address), &Address,
                       nullptr);
    clGetKernelArgInfo(Kernel, I, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(Access), &Access, nullptr);
    clGetKernelArgInfo(Kernel, I, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(TypeQualifier),
                       &TypeQualifier, nullptr);
    clGetKernelArgInfo(Kernel, I, CL_KERNEL_ARG_TYPE_NAME, sizeof(Type), Type, nullptr);
    clGetKernelArgInfo(Kernel, I, CL_KERNEL_ARG_NAME, sizeof(Name), Name, nullptr);
    say("arg %u: address 0x%x access 0x%x type qualifier 0x%llx type '%s' name '%s'", I, Address,
        Access, static_cast<unsigned long long>(TypeQualifier), Type, Name);
  }
  cl_kernel_arg_address_qualifier Address = 0;
  show("clGetKernelArgInfo(index out of range)",
       clGetKernelArgInfo(Kernel, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(Address), &Address,
                          nullptr));
  show("clGetKernelArgInfo(bad param)",
       clGetKernelArgInfo(Kernel, 0, 0x7fff, sizeof(Address), &Address, nullptr));
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
}

void setArgChecks(const Setup &S, cl_program Program) {
  cl_kernel Kernel = createKernel(Program, "three_args");
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, 1024);
  cl_uint Value = 1;
  show("set buffer", clSetKernelArg(Kernel, 0, sizeof(cl_mem), &Buffer));
  show("set local", clSetKernelArg(Kernel, 1, 64, nullptr));
  show("set scalar", clSetKernelArg(Kernel, 2, sizeof(Value), &Value));
  show("index out of range", clSetKernelArg(Kernel, 3, sizeof(Value), &Value));
  show("buffer with wrong size", clSetKernelArg(Kernel, 0, 4, &Buffer));
  // Not checked: an arbitrary pointer passed as a cl_mem (undefined behaviour natively).
  cl_mem NullBuffer = nullptr;
  show("NULL buffer value (allowed: a NULL pointer argument)",
       clSetKernelArg(Kernel, 0, sizeof(cl_mem), &NullBuffer));
  show("local with size 0", clSetKernelArg(Kernel, 1, 0, nullptr));
  show("local with a value", clSetKernelArg(Kernel, 1, 64, &Value));
  show("scalar with wrong size", clSetKernelArg(Kernel, 2, 2, &Value));
  show("scalar with NULL value", clSetKernelArg(Kernel, 2, sizeof(Value), nullptr));
  show("NULL kernel", clSetKernelArg(nullptr, 2, sizeof(Value), &Value));
  cl_kernel Constant = createKernel(Program, "with_const");
  show("constant buffer", clSetKernelArg(Constant, 0, sizeof(cl_mem), &Buffer));
  clReleaseKernel(Constant);
  clReleaseMemObject(Buffer);
  clReleaseKernel(Kernel);
}

void launchChecks(const Setup &S, cl_program Program) {
  cl_kernel Kernel = createKernel(Program, "three_args");
  cl_kernel Fixed = createKernel(Program, "fixed_group");
  const size_t N = 64;
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
  const size_t Global[3] = {N, 1, 1}, Local[3] = {8, 1, 1};
  show("launch with unset arguments",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, Global, Local, 0, nullptr, nullptr));
  setArg(Kernel, 0, Buffer);
  API_NEED(clSetKernelArg(Kernel, 1, 8 * sizeof(cl_uint), nullptr));
  setArg(Kernel, 2, cl_uint{10});
  setArg(Fixed, 0, Buffer);
  show("work_dim 0",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 0, nullptr, Global, Local, 0, nullptr, nullptr));
  show("work_dim 4",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 4, nullptr, Global, Local, 0, nullptr, nullptr));
  show("NULL global size",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, nullptr, Local, 0, nullptr, nullptr));
  const size_t Zero[3] = {0, 1, 1};
  show("global size 0",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, Zero, nullptr, 0, nullptr, nullptr));
  const size_t Uneven[3] = {N, 1, 1}, Seven[3] = {7, 1, 1};
  show("local does not divide global",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, Uneven, Seven, 0, nullptr, nullptr));
  // PoCL 3.1 runs it; the specification says CL_INVALID_WORK_GROUP_SIZE.
  (void)Zero;
  departure("local size 0");
  size_t MaxItems[3] = {0, 0, 0};
  clGetDeviceInfo(S.Device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(MaxItems), MaxItems, nullptr);
  const size_t TooLarge[3] = {MaxItems[0] * 2, 1, 1};
  show(
      "local larger than max work item size",
      clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, TooLarge, TooLarge, 0, nullptr, nullptr));
  show("reqd_work_group_size mismatch",
       clEnqueueNDRangeKernel(S.Queue, Fixed, 1, nullptr, Global, Seven, 0, nullptr, nullptr));
  const size_t Sixteen[3] = {16, 1, 1};
  show("reqd_work_group_size mismatch (divides)",
       clEnqueueNDRangeKernel(S.Queue, Fixed, 1, nullptr, Global, Sixteen, 0, nullptr, nullptr));
  // Not checked: a NULL kernel (PoCL 3.1 crashes).
  show("NULL queue",
       clEnqueueNDRangeKernel(nullptr, Kernel, 1, nullptr, Global, Local, 0, nullptr, nullptr));
  // A kernel of another context.
  cl_int Error = CL_SUCCESS;
  cl_context Other = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  cl_command_queue OtherQueue = clCreateCommandQueue(Other, S.Device, 0, &Error);
  need(Error, "clCreateCommandQueue");
  show("kernel of another context",
       clEnqueueNDRangeKernel(OtherQueue, Kernel, 1, nullptr, Global, Local, 0, nullptr, nullptr));
  clFinish(OtherQueue);
  clReleaseCommandQueue(OtherQueue);
  clReleaseContext(Other);

  // The valid launches still work after all the rejected ones.
  show("valid launch",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, Global, Local, 0, nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Buffer, N);
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == 10 + I;
  say("valid launch results: %s", yesNo(Correct));
  show("fixed_group with its size",
       clEnqueueNDRangeKernel(S.Queue, Fixed, 1, nullptr, Global, Local, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Buffer, N);
  Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == I % 8;
  say("fixed_group results: %s", yesNo(Correct));
  clReleaseMemObject(Buffer);
  clReleaseKernel(Fixed);
  clReleaseKernel(Kernel);
}

// Arguments changed, kept, or pointing to a buffer made after the last one was released (it
// may get the released one's handle): every launch must see the arguments of its own call.
void argumentChanges(const Setup &S, cl_program Program) {
  cl_kernel Kernel = createKernel(Program, "three_args");
  const size_t N = 64, Local = 8;
  cl_mem Kept = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
  const cl_uint Values[] = {7, 7, 9, 9, 7, 11};
  for (int Round = 0; Round < 6; ++Round) {
    cl_mem Fresh = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
    cl_mem Target = Round % 3 == 2 ? Kept : Fresh;
    setArg(Kernel, 0, Target);
    API_NEED(clSetKernelArg(Kernel, 1, (Round % 2 ? 8 : 16) * sizeof(cl_uint), nullptr));
    setArg(Kernel, 2, Values[Round]);
    API_NEED(clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &N, &Local, 0, nullptr, nullptr));
    std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Target, N);
    bool Correct = true;
    for (size_t I = 0; I < N; ++I)
      Correct = Correct && Out[I] == Values[Round] + I;
    say("round %d (%s buffer, value %u): %s", Round, Target == Kept ? "kept" : "fresh",
        Values[Round], yesNo(Correct));
    clReleaseMemObject(Fresh); // its handle may come back in the next round
  }
  clReleaseMemObject(Kept);
  clReleaseKernel(Kernel);
}

void kernelsInProgram(const Setup &S, cl_program Program) {
  cl_uint Count = 0;
  show("clCreateKernelsInProgram(count)", clCreateKernelsInProgram(Program, 0, nullptr, &Count));
  say("kernels in program: %u", Count);
  std::vector<cl_kernel> Kernels(Count, nullptr);
  show("clCreateKernelsInProgram(too few slots)",
       clCreateKernelsInProgram(Program, Count - 1, Kernels.data(), nullptr));
  cl_uint Again = 0;
  show("clCreateKernelsInProgram",
       clCreateKernelsInProgram(Program, Count, Kernels.data(), &Again));
  std::vector<std::string> Names;
  for (cl_kernel K : Kernels)
    if (K)
      Names.push_back(kernelString(K, CL_KERNEL_FUNCTION_NAME));
  std::sort(Names.begin(), Names.end());
  std::string Joined;
  for (const std::string &Name : Names)
    Joined += " " + Name;
  say("created %u:%s", Again, Joined.c_str());
  for (cl_kernel K : Kernels)
    if (K)
      say("reference count of each: %u", refCount(K));
  show("clCreateKernelsInProgram(NULL program)",
       clCreateKernelsInProgram(nullptr, 0, nullptr, &Count));
  // The kernels are usable: launch the one named three_args.
  for (cl_kernel K : Kernels) {
    if (!K || kernelString(K, CL_KERNEL_FUNCTION_NAME) != "three_args")
      continue;
    const size_t N = 32, Local = 8;
    cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
    setArg(K, 0, Buffer);
    API_NEED(clSetKernelArg(K, 1, Local * sizeof(cl_uint), nullptr));
    setArg(K, 2, cl_uint{3});
    show("launch", clEnqueueNDRangeKernel(S.Queue, K, 1, nullptr, &N, &Local, 0, nullptr, nullptr));
    std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Buffer, N);
    say("result checksum: %08x", checksum(Out));
    clReleaseMemObject(Buffer);
  }
  for (cl_kernel K : Kernels)
    if (K)
      clReleaseKernel(K);
}

void cloning(const Setup &S, cl_program Program) {
  const int Version = std::min(versionOf(deviceString(S.Device, CL_DEVICE_VERSION)),
                               versionOf(platformString(S.Platform, CL_PLATFORM_VERSION)));
  if (Version < 21) {
    say("device older than OpenCL 2.1: clCloneKernel skipped");
    return;
  }
  const size_t N = 32, Local = 8;
  cl_kernel Kernel = createKernel(Program, "three_args");
  cl_mem First = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
  cl_mem Second = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
  setArg(Kernel, 0, First);
  API_NEED(clSetKernelArg(Kernel, 1, Local * sizeof(cl_uint), nullptr));
  setArg(Kernel, 2, cl_uint{100});
  cl_int Error = CL_SUCCESS;
  cl_kernel Clone = clCloneKernel(Kernel, &Error);
  show("clCloneKernel", Error);
  if (!Clone)
    return;
  say("clone: name %s, reference count %u", kernelString(Clone, CL_KERNEL_FUNCTION_NAME).c_str(),
      refCount(Clone));
  // The clone has the original's arguments; changing the clone's leaves the original alone.
  show("launch clone (original's arguments)",
       clEnqueueNDRangeKernel(S.Queue, Clone, 1, nullptr, &N, &Local, 0, nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, First, N);
  say("clone wrote the original's buffer with its value: %s", yesNo(Out[5] == 105));
  setArg(Clone, 0, Second);
  setArg(Clone, 2, cl_uint{200});
  show("launch original",
       clEnqueueNDRangeKernel(S.Queue, Kernel, 1, nullptr, &N, &Local, 0, nullptr, nullptr));
  show("launch clone (new arguments)",
       clEnqueueNDRangeKernel(S.Queue, Clone, 1, nullptr, &N, &Local, 0, nullptr, nullptr));
  std::vector<cl_uint> A = readAll<cl_uint>(S.Queue, First, N);
  std::vector<cl_uint> B = readAll<cl_uint>(S.Queue, Second, N);
  say("original unaffected: %s, clone's own arguments: %s", yesNo(A[5] == 105), yesNo(B[5] == 205));
  clCloneKernel(nullptr, &Error);
  show("clCloneKernel(NULL)", Error);
  clReleaseKernel(Clone);
  clReleaseKernel(Kernel);
  clReleaseMemObject(First);
  clReleaseMemObject(Second);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  say("== queries");
  queries(S, Program);
  say("== argument info");
  argumentInfo(S);
  say("== clSetKernelArg checks");
  setArgChecks(S, Program);
  say("== launch checks");
  launchChecks(S, Program);
  say("== argument changes between launches");
  argumentChanges(S, Program);
  say("== clCreateKernelsInProgram");
  kernelsInProgram(S, Program);
  say("== clCloneKernel");
  cloning(S, Program);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
