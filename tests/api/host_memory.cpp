// CL_MEM_USE_HOST_PTR memory used directly by the host, as apps do on a CPU device, where the
// buffer's storage is that memory: after clFinish the host reads the kernels' results there
// without a read or a map, and between launches it rewrites parts of it without a write or a
// map; the next launch, read or copy sees what the host wrote.
#include "api_test.hpp"

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void add_one(__global int *Data) {
  size_t I = get_global_id(0);
  Data[I] = Data[I] + 1 + (int)(I % 7);
}
)CLC";

constexpr size_t Count = 1 << 16;

void hostMemory(const Setup &S) {
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  cl_kernel AddOne = createKernel(Program, "add_one");
  std::vector<cl_int> Host(Count);
  for (size_t I = 0; I < Count; ++I)
    Host[I] = static_cast<cl_int>(I * 3);
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                               Count * sizeof(cl_int), Host.data());
  setArg(AddOne, 0, Buffer);
  auto launch = [&] {
    API_NEED(
        clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Count, nullptr, 0, nullptr, nullptr));
    API_NEED(clFinish(S.Queue));
  };
  // Rewritten before the first launch.
  for (size_t I = 0; I < 100; ++I)
    Host[I] = -1;
  launch();
  say("after a launch, host memory: %08x", checksum(Host));
  // Rewritten between launches: a few words, a run of pages, the last word.
  Host[5] = 123456;
  for (size_t I = 20000; I < 40000; ++I)
    Host[I] = static_cast<cl_int>(I);
  Host[Count - 1] = 42;
  launch();
  say("after host writes and a launch: %08x", checksum(Host));
  launch();
  say("after another launch: %08x", checksum(Host));
  // Rewritten, then read through the API and copied: both see the host's bytes.
  for (size_t I = 0; I < Count; I += 1000)
    Host[I] = 7;
  std::vector<cl_int> Read = readAll<cl_int>(S.Queue, Buffer, Count);
  say("read after host writes: %08x", checksum(Read));
  for (size_t I = 1; I < Count; I += 999)
    Host[I] = 9;
  cl_mem Other = createBuffer(S.Context, CL_MEM_READ_WRITE, Count * sizeof(cl_int));
  API_NEED(clEnqueueCopyBuffer(S.Queue, Buffer, Other, 0, 0, Count * sizeof(cl_int), 0, nullptr,
                               nullptr));
  say("copy after host writes: %08x", checksum(readAll<cl_int>(S.Queue, Other, Count)));
  // A host write, then a launch, with nothing synchronized in between but the write's own order.
  Host[Count / 2] = -7;
  launch();
  say("final host memory: %08x", checksum(Host));
  clReleaseMemObject(Other);
  clReleaseMemObject(Buffer);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  hostMemory(S);
  tearDown(S);
  return 0;
}
