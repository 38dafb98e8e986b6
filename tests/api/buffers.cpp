// Buffer objects: the argument checks of clCreateBuffer, the host pointer flags (COPY copies at
// creation, USE keeps the app's memory, ALLOC), and what clGetMemObjectInfo reports for each.
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t N = 1024;
constexpr size_t Bytes = N * sizeof(cl_uint);

void creationChecks(const Setup &S) {
  std::vector<cl_uint> Host(N, 3);
  cl_int Error = CL_SUCCESS;
  struct Case {
    const char *Name;
    cl_mem_flags Flags;
    size_t Size;
    void *HostPtr;
  };
  const Case Cases[] = {
      {"size 0", CL_MEM_READ_WRITE, 0, nullptr},
      {"COPY_HOST_PTR without pointer", CL_MEM_COPY_HOST_PTR, Bytes, nullptr},
      {"USE_HOST_PTR without pointer", CL_MEM_USE_HOST_PTR, Bytes, nullptr},
      {"pointer without a host flag", CL_MEM_READ_WRITE, Bytes, Host.data()},
      {"READ_ONLY|WRITE_ONLY", CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, Bytes, nullptr},
      {"READ_WRITE|READ_ONLY", CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, Bytes, nullptr},
      {"USE_HOST_PTR|COPY_HOST_PTR", CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, Bytes,
       Host.data()},
      {"USE_HOST_PTR|ALLOC_HOST_PTR", CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, Bytes,
       Host.data()},
      {"HOST_READ_ONLY|HOST_WRITE_ONLY", CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, Bytes,
       nullptr},
      {"HOST_NO_ACCESS|HOST_READ_ONLY", CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, Bytes,
       nullptr},
      {"unknown flag bit", cl_mem_flags{1} << 40, Bytes, nullptr},
      {"ALLOC_HOST_PTR|COPY_HOST_PTR", CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, Bytes,
       Host.data()},
      {"flags 0", 0, Bytes, nullptr},
  };
  for (const Case &C : Cases) {
    cl_mem M = clCreateBuffer(S.Context, C.Flags, C.Size, C.HostPtr, &Error);
    say("clCreateBuffer(%s): %s, handle %s", C.Name, errorName(Error), M ? "non-null" : "null");
    if (M)
      clReleaseMemObject(M);
  }
  cl_ulong MaxAlloc = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(MaxAlloc), &MaxAlloc, nullptr);
  cl_mem Huge = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, static_cast<size_t>(MaxAlloc) + 1,
                               nullptr, &Error);
  show("clCreateBuffer(larger than MAX_MEM_ALLOC_SIZE)", Error);
  if (Huge)
    clReleaseMemObject(Huge);
  clCreateBuffer(nullptr, CL_MEM_READ_WRITE, Bytes, nullptr, &Error);
  show("clCreateBuffer(NULL context)", Error);
  // errcode_ret may be NULL.
  cl_mem NoErrorRet = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, Bytes, nullptr, nullptr);
  say("clCreateBuffer without errcode_ret: %s", NoErrorRet ? "non-null" : "null");
  clReleaseMemObject(NoErrorRet);
  say("clCreateBuffer failing without errcode_ret: %s",
      clCreateBuffer(S.Context, CL_MEM_READ_WRITE, 0, nullptr, nullptr) ? "non-null" : "null");
}

void describe(const char *Name, cl_mem M, const Setup &S, void *ExpectedHostPtr) {
  cl_mem_object_type Type = 0;
  cl_mem_flags Flags = 0;
  size_t Size = 0, Offset = 99;
  void *HostPtr = &Size;
  cl_uint MapCount = 99;
  cl_context Context = nullptr;
  cl_mem Parent = M;
  show("CL_MEM_TYPE", clGetMemObjectInfo(M, CL_MEM_TYPE, sizeof(Type), &Type, nullptr));
  show("CL_MEM_FLAGS", clGetMemObjectInfo(M, CL_MEM_FLAGS, sizeof(Flags), &Flags, nullptr));
  show("CL_MEM_SIZE", clGetMemObjectInfo(M, CL_MEM_SIZE, sizeof(Size), &Size, nullptr));
  show("CL_MEM_HOST_PTR",
       clGetMemObjectInfo(M, CL_MEM_HOST_PTR, sizeof(HostPtr), &HostPtr, nullptr));
  show("CL_MEM_MAP_COUNT",
       clGetMemObjectInfo(M, CL_MEM_MAP_COUNT, sizeof(MapCount), &MapCount, nullptr));
  show("CL_MEM_CONTEXT", clGetMemObjectInfo(M, CL_MEM_CONTEXT, sizeof(Context), &Context, nullptr));
  show("CL_MEM_ASSOCIATED_MEMOBJECT",
       clGetMemObjectInfo(M, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(Parent), &Parent, nullptr));
  show("CL_MEM_OFFSET", clGetMemObjectInfo(M, CL_MEM_OFFSET, sizeof(Offset), &Offset, nullptr));
  say("%s: buffer %s, flags 0x%llx, size %zu, host_ptr as expected %s, map count %u, "
      "context %s, parent null %s, offset %zu",
      Name, yesNo(Type == CL_MEM_OBJECT_BUFFER), static_cast<unsigned long long>(Flags), Size,
      yesNo(HostPtr == ExpectedHostPtr), MapCount, yesNo(Context == S.Context),
      yesNo(Parent == nullptr), Offset);
}

void hostPointers(const Setup &S, cl_kernel AddOne) {
  std::vector<cl_uint> Source(N), Used(N);
  for (size_t I = 0; I < N; ++I)
    Source[I] = Used[I] = static_cast<cl_uint>(I * 3);
  cl_mem Plain = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem Copied =
      createBuffer(S.Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, Source.data());
  cl_mem UsesHost = createBuffer(S.Context, CL_MEM_USE_HOST_PTR, Bytes, Used.data());
  cl_mem Allocated = createBuffer(S.Context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_WRITE_ONLY, Bytes);
  cl_mem HostFlags = createBuffer(S.Context, CL_MEM_HOST_READ_ONLY, Bytes);
  describe("plain", Plain, S, nullptr);
  describe("copy_host_ptr", Copied, S, nullptr);
  describe("use_host_ptr", UsesHost, S, Used.data());
  describe("alloc_host_ptr", Allocated, S, nullptr);
  describe("host_read_only", HostFlags, S, nullptr);

  // COPY_HOST_PTR copied at creation: later changes of the source do not matter.
  std::fill(Source.begin(), Source.end(), 0u);
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Copied, N);
  bool Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == I * 3;
  say("copy_host_ptr holds the data as of creation: %s", yesNo(Correct));

  // USE_HOST_PTR: a kernel's result is read back through the buffer.
  setArg(AddOne, 0, UsesHost);
  show("kernel on use_host_ptr buffer",
       clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, UsesHost, N);
  Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == I * 3 + 1;
  say("use_host_ptr buffer after kernel: %s", yesNo(Correct));

  // Migration is a hint: data stays as it was; the flags and the list are checked.
  cl_event Migrated = nullptr;
  show("clEnqueueMigrateMemObjects(to host)",
       clEnqueueMigrateMemObjects(S.Queue, 1, &UsesHost, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                                  &Migrated));
  show("clWaitForEvents", clWaitForEvents(1, &Migrated));
  cl_command_type Type = 0;
  clGetEventInfo(Migrated, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
  say("migration event: %s",
      Type == CL_COMMAND_MIGRATE_MEM_OBJECTS ? "MIGRATE_MEM_OBJECTS" : "other");
  clReleaseEvent(Migrated);
  show("clEnqueueMigrateMemObjects(to device)",
       clEnqueueMigrateMemObjects(S.Queue, 1, &UsesHost, 0, 0, nullptr, nullptr));
  Out = readAll<cl_uint>(S.Queue, UsesHost, N);
  Correct = true;
  for (size_t I = 0; I < N; ++I)
    Correct = Correct && Out[I] == I * 3 + 1;
  say("data unchanged by migrations: %s", yesNo(Correct));
  show("clEnqueueMigrateMemObjects(no objects)",
       clEnqueueMigrateMemObjects(S.Queue, 0, nullptr, 0, 0, nullptr, nullptr));
  show("clEnqueueMigrateMemObjects(unknown flag)",
       clEnqueueMigrateMemObjects(S.Queue, 1, &UsesHost, 1u << 8, 0, nullptr, nullptr));
  cl_mem NullMem = nullptr;
  show("clEnqueueMigrateMemObjects(NULL object)",
       clEnqueueMigrateMemObjects(S.Queue, 1, &NullMem, 0, 0, nullptr, nullptr));

  // Query checks.
  size_t Size = 0;
  show("clGetMemObjectInfo(size of SIZE)",
       clGetMemObjectInfo(Plain, CL_MEM_SIZE, 0, nullptr, &Size));
  say("size of CL_MEM_SIZE: %zu", Size);
  cl_uint Small = 0;
  show("clGetMemObjectInfo(value too small)",
       clGetMemObjectInfo(Plain, CL_MEM_SIZE, sizeof(Small), &Small, nullptr));
  show("clGetMemObjectInfo(bad param)",
       clGetMemObjectInfo(Plain, 0x7fff, sizeof(Size), &Size, nullptr));
  show("clGetMemObjectInfo(NULL)",
       clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof(Size), &Size, nullptr));
  show("clRetainMemObject(NULL)", clRetainMemObject(nullptr));
  show("clReleaseMemObject(NULL)", clReleaseMemObject(nullptr));
  show("clFinish", clFinish(S.Queue));
  for (cl_mem M : {Plain, Copied, UsesHost, Allocated, HostFlags})
    clReleaseMemObject(M);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== creation checks");
  creationChecks(S);
  say("== host pointers and queries");
  hostPointers(S, AddOne);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
