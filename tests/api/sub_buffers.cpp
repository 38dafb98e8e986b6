// Sub-buffers: creation and its checks (misaligned origin, ranges, flags against the parent's,
// sub-buffer of a sub-buffer), queries, data written through the parent read through the
// sub-buffer and the reverse, kernels on sub-buffers (the parent's other bytes untouched),
// overlapping sub-buffers, copies between sub-buffers of one parent, USE_HOST_PTR parents.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 16384;
constexpr size_t Bytes = N * sizeof(cl_uint);

size_t alignment(const Setup &S) {
  cl_uint Bits = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(Bits), &Bits, nullptr);
  return Bits / 8;
}

cl_mem sub(cl_mem Parent, cl_mem_flags Flags, size_t Origin, size_t Size, cl_int &Error) {
  cl_buffer_region Region{Origin, Size};
  return clCreateSubBuffer(Parent, Flags, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
}

void creation(const Setup &S) {
  const size_t Align = alignment(S);
  say("alignment is a power of two >= 4: %s", yesNo(Align >= 4 && (Align & (Align - 1)) == 0));
  cl_mem Parent = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem ReadOnly = createBuffer(S.Context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, Bytes);
  cl_int Error = CL_SUCCESS;
  struct Case {
    const char *Name;
    cl_mem Parent;
    cl_mem_flags Flags;
    size_t Origin, Size;
  };
  const Case Cases[] = {
      {"aligned", Parent, CL_MEM_READ_WRITE, Align, Align * 2},
      {"misaligned origin", Parent, CL_MEM_READ_WRITE, Align + 4, 64},
      {"origin 1", Parent, CL_MEM_READ_WRITE, 1, 64},
      {"unaligned size", Parent, CL_MEM_READ_WRITE, 0, 13},
      {"size 0", Parent, CL_MEM_READ_WRITE, 0, 0},
      {"past the end", Parent, CL_MEM_READ_WRITE, Bytes - Align, Align * 2},
      {"whole parent", Parent, 0, 0, Bytes},
      {"flags 0 (inherits)", ReadOnly, 0, 0, 256},
      {"write-only of a read-only parent", ReadOnly, CL_MEM_WRITE_ONLY, 0, 256},
      {"read-write of a read-only parent", ReadOnly, CL_MEM_READ_WRITE, 0, 256},
      {"host write-only of a host read-only parent", ReadOnly, CL_MEM_HOST_WRITE_ONLY, 0, 256},
      {"USE_HOST_PTR flag", Parent, CL_MEM_USE_HOST_PTR, 0, 256},
      {"COPY_HOST_PTR flag", Parent, CL_MEM_COPY_HOST_PTR, 0, 256},
      {"ALLOC_HOST_PTR flag", Parent, CL_MEM_ALLOC_HOST_PTR, 0, 256},
  };
  // PoCL 3.1 creates a sub-buffer with both READ_ONLY and WRITE_ONLY; the specification says
  // CL_INVALID_VALUE.
  departure("clCreateSubBuffer(READ_ONLY|WRITE_ONLY)");
  for (const Case &C : Cases) {
    cl_mem M = sub(C.Parent, C.Flags, C.Origin, C.Size, Error);
    if (!M) {
      say("clCreateSubBuffer(%s): %s", C.Name, errorName(Error));
      continue;
    }
    cl_mem_flags Flags = 0;
    size_t Size = 0, Offset = 0;
    cl_mem Associated = nullptr;
    clGetMemObjectInfo(M, CL_MEM_FLAGS, sizeof(Flags), &Flags, nullptr);
    clGetMemObjectInfo(M, CL_MEM_SIZE, sizeof(Size), &Size, nullptr);
    clGetMemObjectInfo(M, CL_MEM_OFFSET, sizeof(Offset), &Offset, nullptr);
    clGetMemObjectInfo(M, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(Associated), &Associated, nullptr);
    say("clCreateSubBuffer(%s): %s; flags 0x%llx, size %zu, offset is the origin %s, parent %s",
        C.Name, errorName(Error), static_cast<unsigned long long>(Flags), Size,
        yesNo(Offset == C.Origin), yesNo(Associated == C.Parent));
    // A sub-buffer of a sub-buffer is refused.
    cl_mem Nested = sub(M, 0, 0, 4, Error);
    say("  sub-buffer of it: %s", errorName(Error));
    if (Nested)
      clReleaseMemObject(Nested);
    clReleaseMemObject(M);
  }
  cl_buffer_region Region{0, 64};
  clCreateSubBuffer(Parent, 0, 0x7777, &Region, &Error);
  show("clCreateSubBuffer(unknown create type)", Error);
  clCreateSubBuffer(Parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &Error);
  show("clCreateSubBuffer(NULL info)", Error);
  clCreateSubBuffer(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
  show("clCreateSubBuffer(NULL parent)", Error);
  clReleaseMemObject(ReadOnly);
  clReleaseMemObject(Parent);
}

void data(const Setup &S, cl_kernel AddOne, cl_kernel Iota) {
  const size_t Align = alignment(S);
  const size_t AlignWords = Align / sizeof(cl_uint);
  std::vector<cl_uint> Initial(N);
  for (size_t I = 0; I < N; ++I)
    Initial[I] = static_cast<cl_uint>(I);
  cl_mem Parent =
      createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Initial.data());
  cl_int Error = CL_SUCCESS;
  // Two sub-buffers: [4 Align, +8 Align) and an overlapping one [8 Align, +8 Align).
  cl_mem First = sub(Parent, CL_MEM_READ_WRITE, 4 * Align, 8 * Align, Error);
  need(Error, "clCreateSubBuffer");
  cl_mem Second = sub(Parent, CL_MEM_READ_WRITE, 8 * Align, 8 * Align, Error);
  need(Error, "clCreateSubBuffer");
  const size_t SubWords = 8 * AlignWords;

  // Parent write, sub read.
  std::vector<cl_uint> Patch(AlignWords, 0xabcdef01u);
  API_NEED(clEnqueueWriteBuffer(S.Queue, Parent, CL_TRUE, 5 * Align, Align, Patch.data(), 0,
                                nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, First, SubWords);
  say("parent write seen through the sub-buffer: %s",
      yesNo(Out[AlignWords] == 0xabcdef01u && Out[0] == 4 * AlignWords));
  // Sub write, parent read.
  std::vector<cl_uint> Twos(AlignWords, 2u);
  API_NEED(
      clEnqueueWriteBuffer(S.Queue, Second, CL_TRUE, 0, Align, Twos.data(), 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Parent, N);
  say("sub-buffer write seen through the parent: %s, parent checksum %08x",
      yesNo(Out[8 * AlignWords] == 2u), checksum(Out));
  // ... and through the overlapping sub-buffer.
  Out = readAll<cl_uint>(S.Queue, First, SubWords);
  say("sub-buffer write seen through the overlapping sub-buffer: %s",
      yesNo(Out[4 * AlignWords] == 2u));

  // A kernel on a sub-buffer: only its range changes.
  setArg(AddOne, 0, First);
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &SubWords, nullptr, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Parent, N);
  bool Outside = true;
  for (size_t I = 0; I < N; ++I)
    if (I < 4 * AlignWords || I >= 12 * AlignWords)
      Outside = Outside && Out[I] == I;
  say("kernel on a sub-buffer: parent checksum %08x, bytes outside untouched: %s", checksum(Out),
      yesNo(Outside));
  // Kernels on both overlapping sub-buffers, in order.
  setArg(Iota, 0, Second);
  setArg(Iota, 1, cl_uint{500000});
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, Iota, 1, nullptr, &SubWords, nullptr, 0, nullptr, nullptr));
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &SubWords, nullptr, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Parent, N);
  say("kernels on overlapping sub-buffers: parent checksum %08x", checksum(Out));
  // A kernel on the parent, then a read through a sub-buffer.
  setArg(AddOne, 0, Parent);
  API_NEED(clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Second, SubWords);
  say("kernel on the parent read through a sub-buffer: checksum %08x", checksum(Out));

  // Copies between sub-buffers of one parent: disjoint ranges are fine, shared bytes are not.
  cl_mem Low = sub(Parent, 0, 0, 2 * Align, Error);
  cl_mem High = sub(Parent, 0, 14 * Align, 2 * Align, Error);
  show("copy between disjoint sub-buffers",
       clEnqueueCopyBuffer(S.Queue, Low, High, 0, 0, 2 * Align, 0, nullptr, nullptr));
  show("copy between overlapping sub-buffers",
       clEnqueueCopyBuffer(S.Queue, First, Second, 4 * Align, 0, Align, 0, nullptr, nullptr));
  show("copy between overlapping sub-buffers, disjoint bytes",
       clEnqueueCopyBuffer(S.Queue, First, Second, 0, 4 * Align, Align, 0, nullptr, nullptr));
  show("copy from a sub-buffer to its parent, same bytes",
       clEnqueueCopyBuffer(S.Queue, Low, Parent, 0, 0, Align, 0, nullptr, nullptr));
  show("copy from a sub-buffer to its parent, other bytes",
       clEnqueueCopyBuffer(S.Queue, Low, Parent, 0, 2 * Align, Align, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Parent, N);
  say("after the copies: parent checksum %08x", checksum(Out));
  // Sub-buffer ranges are checked against the sub-buffer, not the parent.
  std::vector<cl_uint> Host(N, 0);
  show("read past the end of a sub-buffer",
       clEnqueueReadBuffer(S.Queue, Low, CL_TRUE, Align, 2 * Align, Host.data(), 0, nullptr,
                           nullptr));
  // Map through a sub-buffer.
  cl_uint *P =
      static_cast<cl_uint *>(clEnqueueMapBuffer(S.Queue, High, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                0, 2 * Align, 0, nullptr, nullptr, &Error));
  show("map a sub-buffer", Error);
  say("mapped sub-buffer data: %s", yesNo(P && P[0] == Out[14 * AlignWords]));
  if (P)
    P[1] = 12345;
  show("unmap", clEnqueueUnmapMemObject(S.Queue, High, P, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Parent, N);
  say("write through the mapped sub-buffer seen in the parent: %s",
      yesNo(Out[14 * AlignWords + 1] == 12345));
  for (cl_mem M : {First, Second, Low, High, Parent})
    clReleaseMemObject(M);
}

void hostPointerParent(const Setup &S, cl_kernel AddOne) {
  const size_t Align = alignment(S);
  std::vector<cl_uint> Host(N, 10u);
  cl_mem Parent =
      createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Bytes, Host.data());
  cl_int Error = CL_SUCCESS;
  cl_mem Sub = sub(Parent, 0, 2 * Align, Align, Error);
  show("sub-buffer of a USE_HOST_PTR parent", Error);
  void *HostPtr = nullptr;
  cl_mem_flags Flags = 0;
  clGetMemObjectInfo(Sub, CL_MEM_HOST_PTR, sizeof(HostPtr), &HostPtr, nullptr);
  clGetMemObjectInfo(Sub, CL_MEM_FLAGS, sizeof(Flags), &Flags, nullptr);
  say("sub-buffer host_ptr is parent host_ptr + origin: %s, flags 0x%llx",
      yesNo(HostPtr == reinterpret_cast<unsigned char *>(Host.data()) + 2 * Align),
      static_cast<unsigned long long>(Flags));
  setArg(AddOne, 0, Sub);
  const size_t Words = Align / sizeof(cl_uint);
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Words, nullptr, 0, nullptr, nullptr));
  cl_uint *P = static_cast<cl_uint *>(clEnqueueMapBuffer(S.Queue, Sub, CL_TRUE, CL_MAP_READ, 0,
                                                         Align, 0, nullptr, nullptr, &Error));
  show("map the sub-buffer", Error);
  say("mapped pointer is inside the app's memory: %s, data %s", yesNo(P == Host.data() + 2 * Words),
      yesNo(P && P[0] == 11 && P[Words - 1] == 11));
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Sub, P, 0, nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Parent, N);
  say("parent after the kernel on its sub-buffer: checksum %08x", checksum(Out));
  clReleaseMemObject(Sub);
  clReleaseMemObject(Parent);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel AddOne = createKernel(Program, "add_one");
  cl_kernel Iota = createKernel(Program, "iota");
  say("== creation");
  creation(S);
  say("== data through parents and sub-buffers");
  data(S, AddOne, Iota);
  say("== USE_HOST_PTR parent");
  hostPointerParent(S, AddOne);
  clReleaseKernel(Iota);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
