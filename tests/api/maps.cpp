// Maps: map for reading sees the newest data (also what a kernel wrote), map for writing and
// write-invalidate publish the host's changes at unmap, a USE_HOST_PTR buffer maps to host_ptr +
// offset, CL_MEM_MAP_COUNT follows maps and unmaps, non-blocking maps complete with their event,
// and the argument checks of map and unmap.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 8192;
constexpr size_t Bytes = N * sizeof(cl_uint);

cl_uint mapCount(cl_mem M) {
  cl_uint Count = 99;
  clGetMemObjectInfo(M, CL_MEM_MAP_COUNT, sizeof(Count), &Count, nullptr);
  return Count;
}

// The map count once the unmaps before it have been counted: PoCL lowers it after the unmap's
// completion, from its own thread, sometimes after clFinish has returned (the specification calls
// the count stale as soon as it is read); waited for, with a bound.
cl_uint settledMapCount(cl_mem M, cl_uint Expected) {
  waitFor([&] { return mapCount(M) == Expected; }, 2.0);
  return mapCount(M);
}

cl_uint *map(cl_command_queue Queue, cl_mem Buffer, cl_map_flags Flags, size_t Offset, size_t Size,
             cl_int &Error, cl_bool Blocking = CL_TRUE, cl_event *Event = nullptr) {
  return static_cast<cl_uint *>(
      clEnqueueMapBuffer(Queue, Buffer, Blocking, Flags, Offset, Size, 0, nullptr, Event, &Error));
}

void readWriteInvalidate(const Setup &S, cl_kernel Iota, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  setArg(Iota, 0, Buffer);
  setArg(Iota, 1, cl_uint{1000});
  API_NEED(clEnqueueNDRangeKernel(S.Queue, Iota, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));

  cl_int Error = CL_SUCCESS;
  cl_uint *P = map(S.Queue, Buffer, CL_MAP_READ, 0, Bytes, Error);
  show("map read (whole)", Error);
  bool Correct = P != nullptr;
  for (size_t I = 0; P && I < N; ++I)
    Correct = Correct && P[I] == 1000 + I;
  say("map read sees the kernel's output: %s", yesNo(Correct));
  say("map count while mapped: %u", mapCount(Buffer));
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr));
  clFinish(S.Queue);
  say("map count after unmap: %u", settledMapCount(Buffer, 0));

  // Map for writing part of the buffer, change it, unmap, then a kernel and a read see it.
  const size_t Offset = 1024 * sizeof(cl_uint), Size = 512 * sizeof(cl_uint);
  P = map(S.Queue, Buffer, CL_MAP_WRITE, Offset, Size, Error);
  show("map write (part)", Error);
  say("map write (part) sees current data: %s", yesNo(P && P[0] == 2024 && P[511] == 2535));
  for (size_t I = 0; P && I < 512; ++I)
    P[I] = 7;
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr));
  setArg(AddOne, 0, Buffer);
  API_NEED(clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Buffer, N);
  Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == ((I >= 1024 && I < 1536) ? 8 : 1001 + I);
  say("kernel and read see the mapped write: %s", yesNo(Correct));

  // Write-invalidate: the host overwrites the whole region.
  P = map(S.Queue, Buffer, CL_MAP_WRITE_INVALIDATE_REGION, 0, Bytes, Error);
  show("map write-invalidate (whole)", Error);
  for (size_t I = 0; P && I < N; ++I)
    P[I] = static_cast<cl_uint>(N - I);
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr));
  API_NEED(clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, Buffer, N);
  Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == N - I + 1;
  say("kernel after write-invalidate map: %s", yesNo(Correct));

  // Two maps of the same buffer at once (overlapping, for reading), unmapped in either order.
  cl_uint *First = map(S.Queue, Buffer, CL_MAP_READ, 0, Bytes / 2, Error);
  show("map read [0, half)", Error);
  cl_uint *Second = map(S.Queue, Buffer, CL_MAP_READ, Bytes / 4, Bytes / 2, Error);
  show("map read [quarter, 3 quarters)", Error);
  say("both see the data: %s",
      yesNo(First && Second && First[N / 4] == Second[0] && Second[0] == N - N / 4 + 1));
  say("map count with two maps: %u", mapCount(Buffer));
  show("unmap first", clEnqueueUnmapMemObject(S.Queue, Buffer, First, 0, nullptr, nullptr));
  show("unmap second", clEnqueueUnmapMemObject(S.Queue, Buffer, Second, 0, nullptr, nullptr));
  clFinish(S.Queue);
  say("map count after both unmaps: %u", settledMapCount(Buffer, 0));

  // Non-blocking map: the pointer is returned at once, the data is there once the event is.
  cl_event Mapped = nullptr, Unmapped = nullptr;
  P = map(S.Queue, Buffer, CL_MAP_READ | CL_MAP_WRITE, 0, Bytes, Error, CL_FALSE, &Mapped);
  show("non-blocking map", Error);
  show("clWaitForEvents(map)", clWaitForEvents(1, &Mapped));
  cl_command_type Type = 0;
  clGetEventInfo(Mapped, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
  say("map event: %s %s; data: %s", commandTypeName(Type), statusName(eventStatus(Mapped)),
      yesNo(P && P[0] == N + 1));
  if (P)
    P[0] = 42;
  show("unmap with event", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, &Unmapped));
  show("clWaitForEvents(unmap)", clWaitForEvents(1, &Unmapped));
  clGetEventInfo(Unmapped, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
  say("unmap event: %s %s", commandTypeName(Type), statusName(eventStatus(Unmapped)));
  Out = readAll<cl_uint>(S.Queue, Buffer, 1);
  say("read after read/write map: %u", Out[0]);
  clReleaseEvent(Mapped);
  clReleaseEvent(Unmapped);

  // A map held back by a user event.
  cl_event User = createUserEvent(S.Context);
  P = static_cast<cl_uint *>(clEnqueueMapBuffer(S.Queue, Buffer, CL_FALSE, CL_MAP_READ, 0, Bytes, 1,
                                                &User, &Mapped, &Error));
  show("non-blocking map (waits user event)", Error);
  say("pointer returned before the event: %s", yesNo(P != nullptr));
  clFlush(S.Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  say("map complete before the event: %s", yesNo(eventStatus(Mapped) == CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  show("clWaitForEvents(map)", clWaitForEvents(1, &Mapped));
  say("data after the event: %s", yesNo(P && P[0] == 42 && P[1] == N));
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr));
  clFinish(S.Queue);
  clReleaseEvent(Mapped);
  clReleaseEvent(User);
  clReleaseMemObject(Buffer);
}

void hostPointerBuffers(const Setup &S, cl_kernel AddOne) {
  std::vector<cl_uint> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = static_cast<cl_uint>(I);
  cl_mem Buffer =
      createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Bytes, Host.data());
  setArg(AddOne, 0, Buffer);
  API_NEED(clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  cl_int Error = CL_SUCCESS;
  const size_t Offset = 100 * sizeof(cl_uint);
  cl_uint *P = map(S.Queue, Buffer, CL_MAP_READ, Offset, 64, Error);
  show("map USE_HOST_PTR at offset", Error);
  say("pointer is host_ptr + offset: %s", yesNo(P == Host.data() + 100));
  say("mapped data is the kernel's: %s", yesNo(P && P[0] == 101));
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr));
  P = map(S.Queue, Buffer, CL_MAP_WRITE, 0, Bytes, Error);
  show("map USE_HOST_PTR for writing", Error);
  say("pointer is host_ptr: %s", yesNo(P == Host.data()));
  for (size_t I = 0; P && I < N; ++I)
    P[I] = 3;
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr));
  API_NEED(clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Buffer, N);
  say("kernel sees the host's writes through the map: %s",
      yesNo(Out == std::vector<cl_uint>(N, 4)));
  clReleaseMemObject(Buffer);

  // ALLOC_HOST_PTR: mapping is the way to fill it.
  cl_mem Allocated = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, Bytes);
  P = map(S.Queue, Allocated, CL_MAP_WRITE_INVALIDATE_REGION, 0, Bytes, Error);
  show("map ALLOC_HOST_PTR", Error);
  for (size_t I = 0; P && I < N; ++I)
    P[I] = static_cast<cl_uint>(I * 5);
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Allocated, P, 0, nullptr, nullptr));
  setArg(AddOne, 0, Allocated);
  API_NEED(clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  P = map(S.Queue, Allocated, CL_MAP_READ, 0, Bytes, Error);
  bool Correct = P != nullptr;
  for (size_t I = 0; P && I < N; ++I)
    Correct = Correct && P[I] == I * 5 + 1;
  say("ALLOC_HOST_PTR round trip: %s", yesNo(Correct));
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Allocated, P, 0, nullptr, nullptr));
  clFinish(S.Queue);
  clReleaseMemObject(Allocated);
}

void argumentChecks(const Setup &S) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_int Error = CL_SUCCESS;
  void *P = clEnqueueMapBuffer(S.Queue, Buffer, CL_TRUE, CL_MAP_READ, Bytes - 4, 8, 0, nullptr,
                               nullptr, &Error);
  say("map past the end: %s, pointer %s", errorName(Error), P ? "non-null" : "null");
  P = clEnqueueMapBuffer(S.Queue, Buffer, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, &Error);
  say("map size 0: %s, pointer %s", errorName(Error), P ? "non-null" : "null");
  if (P)
    clEnqueueUnmapMemObject(S.Queue, Buffer, P, 0, nullptr, nullptr);
  // PoCL 3.1 maps both; the specification says CL_INVALID_VALUE.
  departure("map READ|WRITE_INVALIDATE");
  departure("map unknown flag");
  clEnqueueMapBuffer(S.Queue, nullptr, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Error);
  say("map NULL buffer: %s", errorName(Error));
  clEnqueueMapBuffer(nullptr, Buffer, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Error);
  say("map NULL queue: %s", errorName(Error));
  clEnqueueMapBuffer(S.Queue, Buffer, CL_TRUE, CL_MAP_READ, 0, 4, 1, nullptr, nullptr, &Error);
  say("map bad wait list: %s", errorName(Error));

  cl_mem NoAccess = createBuffer(S.Context, CL_MEM_HOST_NO_ACCESS, Bytes);
  cl_mem ReadOnly = createBuffer(S.Context, CL_MEM_HOST_READ_ONLY, Bytes);
  cl_mem WriteOnly = createBuffer(S.Context, CL_MEM_HOST_WRITE_ONLY, Bytes);
  clEnqueueMapBuffer(S.Queue, NoAccess, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Error);
  say("map HOST_NO_ACCESS for reading: %s", errorName(Error));
  clEnqueueMapBuffer(S.Queue, ReadOnly, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, nullptr, nullptr, &Error);
  say("map HOST_READ_ONLY for writing: %s", errorName(Error));
  P = clEnqueueMapBuffer(S.Queue, ReadOnly, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr,
                         &Error);
  say("map HOST_READ_ONLY for reading: %s", errorName(Error));
  if (P)
    clEnqueueUnmapMemObject(S.Queue, ReadOnly, P, 0, nullptr, nullptr);
  clEnqueueMapBuffer(S.Queue, WriteOnly, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Error);
  say("map HOST_WRITE_ONLY for reading: %s", errorName(Error));
  P = clEnqueueMapBuffer(S.Queue, WriteOnly, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0,
                         nullptr, nullptr, &Error);
  say("map HOST_WRITE_ONLY write-invalidate: %s", errorName(Error));
  if (P)
    clEnqueueUnmapMemObject(S.Queue, WriteOnly, P, 0, nullptr, nullptr);

  // Unmap checks.
  cl_uint *Mapped = static_cast<cl_uint *>(clEnqueueMapBuffer(S.Queue, Buffer, CL_TRUE, CL_MAP_READ,
                                                              0, 64, 0, nullptr, nullptr, &Error));
  show("map for the unmap checks", Error);
  cl_uint Local = 0;
  show("unmap a pointer that was never mapped",
       clEnqueueUnmapMemObject(S.Queue, Buffer, &Local, 0, nullptr, nullptr));
  cl_mem Another = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  show("unmap from another buffer",
       clEnqueueUnmapMemObject(S.Queue, Another, Mapped, 0, nullptr, nullptr));
  // Natively the HOST_NO_ACCESS buffer's flag is checked first; here the pointer is.
  departure("unmap from a HOST_NO_ACCESS buffer");
  clReleaseMemObject(Another);
  show("unmap NULL buffer", clEnqueueUnmapMemObject(S.Queue, nullptr, Mapped, 0, nullptr, nullptr));
  show("unmap NULL queue", clEnqueueUnmapMemObject(nullptr, Buffer, Mapped, 0, nullptr, nullptr));
  show("unmap", clEnqueueUnmapMemObject(S.Queue, Buffer, Mapped, 0, nullptr, nullptr));
  clFinish(S.Queue);
  show("unmap twice", clEnqueueUnmapMemObject(S.Queue, Buffer, Mapped, 0, nullptr, nullptr));
  clFinish(S.Queue);
  say("map count at the end: %u", settledMapCount(Buffer, 0));
  for (cl_mem M : {Buffer, NoAccess, ReadOnly, WriteOnly})
    clReleaseMemObject(M);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel Iota = createKernel(Program, "iota");
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== read, write, write-invalidate");
  readWriteInvalidate(S, Iota, AddOne);
  say("== host pointer buffers");
  hostPointerBuffers(S, AddOne);
  say("== argument checks");
  argumentChecks(S);
  clReleaseKernel(Iota);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
