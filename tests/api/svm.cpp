// Shared virtual memory as an app uses it (coarse-grained buffers): allocation, map and unmap,
// kernels that take SVM pointers (directly and through pointers stored in SVM, announced with
// clSetKernelExecInfo), copies and fills, a free through the app's own function, in order with
// buffers and kernels that do not use SVM on one queue.
#define CL_TARGET_OPENCL_VERSION 200
#include "api_test.hpp"

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void twice(__global float *Data) {
  size_t I = get_global_id(0);
  Data[I] = Data[I] * 2.0f + 1.0f;
}
__kernel void gather(__global float *__global *Table, __global float *Out) {
  size_t I = get_global_id(0);
  Out[I] = Table[0][I] + Table[1][I];
}
)CLC";

constexpr size_t Count = 4096, Bytes = Count * sizeof(float);

float *svmAlloc(const Setup &S, size_t Size) {
  auto *Pointer = static_cast<float *>(clSVMAlloc(S.Context, CL_MEM_READ_WRITE, Size, 0));
  if (!Pointer)
    fatal("clSVMAlloc", CL_OUT_OF_RESOURCES);
  return Pointer;
}

std::uint32_t svmChecksum(const Setup &S, float *Pointer, size_t Size) {
  API_NEED(clEnqueueSVMMap(S.Queue, CL_TRUE, CL_MAP_READ, Pointer, Size, 0, nullptr, nullptr));
  const std::uint32_t Sum = checksum(Pointer, Size);
  API_NEED(clEnqueueSVMUnmap(S.Queue, Pointer, 0, nullptr, nullptr));
  API_NEED(clFinish(S.Queue));
  return Sum;
}

void CL_CALLBACK freeOurselves(cl_command_queue, cl_uint Count, void *Pointers[], void *Freed) {
  *static_cast<cl_uint *>(Freed) = Count;
  (void)Pointers;
}

void svm(const Setup &S) {
  cl_program Program = buildProgram(S.Context, S.Device, Source, "-cl-std=CL2.0");
  cl_kernel Twice = createKernel(Program, "twice");
  cl_kernel Gather = createKernel(Program, "gather");

  float *A = svmAlloc(S, Bytes);
  float *B = svmAlloc(S, Bytes);
  show("map A for writing",
       clEnqueueSVMMap(S.Queue, CL_TRUE, CL_MAP_WRITE, A, Bytes, 0, nullptr, nullptr));
  for (size_t I = 0; I < Count; ++I)
    A[I] = static_cast<float>(I % 97) * 0.5f;
  show("unmap A", clEnqueueSVMUnmap(S.Queue, A, 0, nullptr, nullptr));
  const float Three = 3.0f;
  show("fill B",
       clEnqueueSVMMemFill(S.Queue, B, &Three, sizeof(Three), Bytes, 0, nullptr, nullptr));

  // A kernel on an SVM pointer, between kernels on a buffer.
  cl_mem Plain = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<float> Ones(Count, 1.0f);
  API_NEED(
      clEnqueueWriteBuffer(S.Queue, Plain, CL_TRUE, 0, Bytes, Ones.data(), 0, nullptr, nullptr));
  setArg(Twice, 0, Plain);
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, Twice, 1, nullptr, &Count, nullptr, 0, nullptr, nullptr));
  show("clSetKernelArgSVMPointer", clSetKernelArgSVMPointer(Twice, 0, A));
  show("launch on SVM",
       clEnqueueNDRangeKernel(S.Queue, Twice, 1, nullptr, &Count, nullptr, 0, nullptr, nullptr));
  setArg(Twice, 0, Plain);
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, Twice, 1, nullptr, &Count, nullptr, 0, nullptr, nullptr));
  say("A after the kernel: %08x", svmChecksum(S, A, Bytes));
  say("buffer after two kernels: %08x", checksum(readAll<float>(S.Queue, Plain, Count)));

  // Pointers stored in SVM, announced as the kernel's indirect SVM uses.
  auto **Table =
      static_cast<float **>(clSVMAlloc(S.Context, CL_MEM_READ_WRITE, 2 * sizeof(float *), 0));
  API_NEED(clEnqueueSVMMap(S.Queue, CL_TRUE, CL_MAP_WRITE, Table, 2 * sizeof(float *), 0, nullptr,
                           nullptr));
  Table[0] = A;
  Table[1] = B;
  API_NEED(clEnqueueSVMUnmap(S.Queue, Table, 0, nullptr, nullptr));
  void *Reached[2] = {A, B};
  show("clSetKernelExecInfo(SVM pointers)",
       clSetKernelExecInfo(Gather, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(Reached), Reached));
  float *Sum = svmAlloc(S, Bytes);
  API_NEED(clSetKernelArgSVMPointer(Gather, 0, Table));
  API_NEED(clSetKernelArgSVMPointer(Gather, 1, Sum));
  show("launch through stored pointers",
       clEnqueueNDRangeKernel(S.Queue, Gather, 1, nullptr, &Count, nullptr, 0, nullptr, nullptr));
  say("sums: %08x", svmChecksum(S, Sum, Bytes));

  // A copy between allocations, then one from SVM to the host.
  cl_event Copy = nullptr;
  show("copy A to B", clEnqueueSVMMemcpy(S.Queue, CL_FALSE, B, A, Bytes / 2, 0, nullptr, &Copy));
  API_NEED(clWaitForEvents(1, &Copy));
  say("copy event complete: %s", yesNo(eventStatus(Copy) == CL_COMPLETE));
  clReleaseEvent(Copy);
  std::vector<float> Host(Count);
  show("copy B to the host",
       clEnqueueSVMMemcpy(S.Queue, CL_TRUE, Host.data(), B, Bytes, 0, nullptr, nullptr));
  say("B on the host: %08x", checksum(Host));
  show("overlapping copy",
       clEnqueueSVMMemcpy(S.Queue, CL_TRUE, A + 1, A, Bytes / 2, 0, nullptr, nullptr));

  // A free through the app's own function: called with the pointers, which it then frees.
  cl_uint Freed = 0;
  void *Gone[1] = {Sum};
  show("clEnqueueSVMFree (app's function)",
       clEnqueueSVMFree(S.Queue, 1, Gone, freeOurselves, &Freed, 0, nullptr, nullptr));
  API_NEED(clFinish(S.Queue));
  say("app's function freed %u pointer(s)", Freed);
  clSVMFree(S.Context, Sum);
  void *Rest[2] = {A, B};
  show("clEnqueueSVMFree",
       clEnqueueSVMFree(S.Queue, 2, Rest, nullptr, nullptr, 0, nullptr, nullptr));
  API_NEED(clFinish(S.Queue));
  clSVMFree(S.Context, Table);
  clReleaseMemObject(Plain);
  clReleaseKernel(Twice);
  clReleaseKernel(Gather);
  clReleaseProgram(Program);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_device_svm_capabilities Svm = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_SVM_CAPABILITIES, sizeof(Svm), &Svm, nullptr);
  say("coarse-grained buffers: %s", yesNo(Svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER));
  if (Svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
    svm(S);
  tearDown(S);
  return 0;
}
