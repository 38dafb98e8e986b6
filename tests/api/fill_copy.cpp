// clEnqueueFillBuffer with patterns of every allowed size (1 to 128 bytes) at offsets, and
// clEnqueueCopyBuffer between and within buffers, mixed with kernels; and the argument checks
// of both (pattern sizes, alignment of offset and size, ranges, overlapping copies).
#include "api_test.hpp"

using namespace api;

namespace {

constexpr size_t Bytes = 64 * 1024;

void fills(const Setup &S, cl_kernel AddOne) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<unsigned char> Zero(Bytes, 0);
  API_NEED(
      clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Zero.data(), 0, nullptr, nullptr));
  for (size_t PatternSize = 1; PatternSize <= 128; PatternSize *= 2) {
    std::vector<unsigned char> Pattern(PatternSize);
    for (size_t I = 0; I < PatternSize; ++I)
      Pattern[I] = static_cast<unsigned char>(PatternSize * 3 + I * 5 + 1);
    // A slice whose offset and size are multiples of the pattern size but not of much more.
    const size_t Offset = PatternSize * 3, Size = PatternSize * (37 + PatternSize % 5);
    cl_event Fill = nullptr;
    cl_int R = clEnqueueFillBuffer(S.Queue, Buffer, Pattern.data(), PatternSize, Offset, Size, 0,
                                   nullptr, &Fill);
    // The pattern is copied at the call: changing it afterwards has no effect.
    std::fill(Pattern.begin(), Pattern.end(), 0xff);
    std::vector<unsigned char> All = readAll<unsigned char>(S.Queue, Buffer, Bytes);
    cl_command_type Type = 0;
    clGetEventInfo(Fill, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
    say("fill pattern %3zu bytes at %zu, %zu bytes: %s, %s, buffer checksum %08x", PatternSize,
        Offset, Size, errorName(R), commandTypeName(Type), checksum(All));
    clReleaseEvent(Fill);
  }
  // A fill after a kernel wrote the buffer (the kernel's data elsewhere must survive), and a
  // kernel after a fill (it must see the fill).
  setArg(AddOne, 0, Buffer);
  const size_t Words = Bytes / 4;
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Words, nullptr, 0, nullptr, nullptr));
  const cl_uint Word = 0x01020304;
  show("fill 4-byte pattern over the middle",
       clEnqueueFillBuffer(S.Queue, Buffer, &Word, 4, Bytes / 4, Bytes / 2, 0, nullptr, nullptr));
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Words, nullptr, 0, nullptr, nullptr));
  std::vector<unsigned char> All = readAll<unsigned char>(S.Queue, Buffer, Bytes);
  say("kernel, fill, kernel: checksum %08x", checksum(All));
  // Whole buffer, waiting for a user event.
  cl_event User = createUserEvent(S.Context);
  const unsigned char Byte = 0x5a;
  cl_event Fill = nullptr;
  show("fill whole buffer (waits user event)",
       clEnqueueFillBuffer(S.Queue, Buffer, &Byte, 1, 0, Bytes, 1, &User, &Fill));
  clFlush(S.Queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  say("fill done before the event: %s", yesNo(eventStatus(Fill) == CL_COMPLETE));
  clSetUserEventStatus(User, CL_COMPLETE);
  All = readAll<unsigned char>(S.Queue, Buffer, Bytes);
  say("whole-buffer fill: %s", yesNo(All == std::vector<unsigned char>(Bytes, 0x5a)));
  clReleaseEvent(Fill);
  clReleaseEvent(User);
  clReleaseMemObject(Buffer);
}

// Fills left running with nothing waiting for them (no event, no wait list), then seen by the
// host: through a map of a buffer on the app's memory, through a parent of a filled sub-buffer,
// and through a copy of the filled bytes.
void fillsSeenLater(const Setup &S, cl_kernel AddOne) {
  std::vector<cl_uint> Host(Bytes / 4, 7);
  cl_mem OnHost =
      createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Bytes, Host.data());
  const size_t Words = Bytes / 4;
  setArg(AddOne, 0, OnHost);
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Words, nullptr, 0, nullptr, nullptr));
  const cl_uint Word = 0xa5a5a5a5;
  API_NEED(clEnqueueFillBuffer(S.Queue, OnHost, &Word, 4, 4096, 8192, 0, nullptr, nullptr));
  cl_int Error = CL_SUCCESS;
  auto *Mapped = static_cast<cl_uint *>(clEnqueueMapBuffer(S.Queue, OnHost, CL_TRUE, CL_MAP_READ, 0,
                                                           Bytes, 0, nullptr, nullptr, &Error));
  need(Error, "clEnqueueMapBuffer");
  say("kernel, fill, map of a buffer on the app's memory: checksum %08x",
      checksum(std::vector<cl_uint>(Mapped, Mapped + Words)));
  API_NEED(clEnqueueUnmapMemObject(S.Queue, OnHost, Mapped, 0, nullptr, nullptr));
  API_NEED(clFinish(S.Queue));
  clReleaseMemObject(OnHost);

  cl_uint AlignBits = 0;
  API_NEED(clGetDeviceInfo(S.Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(AlignBits), &AlignBits,
                           nullptr));
  const size_t Origin = std::max<size_t>(AlignBits / 8, 256);
  cl_mem Root = createBuffer(S.Context, CL_MEM_READ_WRITE, Origin + Bytes);
  const unsigned char Zero = 0;
  API_NEED(clEnqueueFillBuffer(S.Queue, Root, &Zero, 1, 0, Origin + Bytes, 0, nullptr, nullptr));
  cl_buffer_region Region = {Origin, Bytes / 2};
  cl_mem Sub =
      clCreateSubBuffer(Root, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Error);
  need(Error, "clCreateSubBuffer");
  const cl_ushort Half = 0x1234;
  API_NEED(clEnqueueFillBuffer(S.Queue, Sub, &Half, 2, 64, 1000, 0, nullptr, nullptr));
  cl_mem Target = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  API_NEED(clEnqueueCopyBuffer(S.Queue, Root, Target, Origin, 0, Bytes, 0, nullptr, nullptr));
  say("fill of a sub-buffer, read through its parent: checksum %08x",
      checksum(readAll<unsigned char>(S.Queue, Root, Origin + Bytes)));
  say("and copied on: checksum %08x", checksum(readAll<unsigned char>(S.Queue, Target, Bytes)));
  clReleaseMemObject(Target);
  clReleaseMemObject(Sub);
  clReleaseMemObject(Root);
}

void copies(const Setup &S, cl_kernel Iota) {
  const size_t Words = Bytes / 4;
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem B = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  setArg(Iota, 0, A);
  setArg(Iota, 1, cl_uint{0});
  API_NEED(clEnqueueNDRangeKernel(S.Queue, Iota, 1, nullptr, &Words, nullptr, 0, nullptr, nullptr));
  const cl_uint Fill = 0xcccccccc;
  API_NEED(clEnqueueFillBuffer(S.Queue, B, &Fill, 4, 0, Bytes, 0, nullptr, nullptr));
  cl_event Copy = nullptr;
  cl_int R = clEnqueueCopyBuffer(S.Queue, A, B, 100, 1000, 20000, 0, nullptr, &Copy);
  std::vector<unsigned char> All = readAll<unsigned char>(S.Queue, B, Bytes);
  cl_command_type Type = 0;
  clGetEventInfo(Copy, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
  say("copy A[100, +20000) to B[1000]: %s, %s, B checksum %08x", errorName(R),
      commandTypeName(Type), checksum(All));
  clReleaseEvent(Copy);
  R = clEnqueueCopyBuffer(S.Queue, A, A, 0, Bytes / 2, Bytes / 2, 0, nullptr, nullptr);
  All = readAll<unsigned char>(S.Queue, A, Bytes);
  say("copy within A, first half to second half: %s, A checksum %08x", errorName(R), checksum(All));
  R = clEnqueueCopyBuffer(S.Queue, A, A, 16, 0, 16, 0, nullptr, nullptr);
  All = readAll<unsigned char>(S.Queue, A, Bytes);
  say("copy within A, adjacent ranges: %s, A checksum %08x", errorName(R), checksum(All));
  // Copy then kernel on the target, then copy back.
  setArg(Iota, 0, B);
  setArg(Iota, 1, cl_uint{7});
  const size_t Part = 1024, From = 3000;
  API_NEED(clEnqueueNDRangeKernel(S.Queue, Iota, 1, &From, &Part, nullptr, 0, nullptr, nullptr));
  R = clEnqueueCopyBuffer(S.Queue, B, A, 0, 0, Bytes, 0, nullptr, nullptr);
  All = readAll<unsigned char>(S.Queue, A, Bytes);
  say("kernel on B, copy B to A: %s, A checksum %08x", errorName(R), checksum(All));
  clReleaseMemObject(A);
  clReleaseMemObject(B);
}

void argumentChecks(const Setup &S) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  cl_mem Other = createBuffer(S.Context, CL_MEM_READ_WRITE, 1024);
  unsigned char Pattern[256] = {0};
  struct Fill {
    const char *Name;
    size_t PatternSize, Offset, Size;
  };
  const Fill Fills[] = {
      {"pattern size 0", 0, 0, 64},
      {"pattern size 3", 3, 0, 63},
      {"pattern size 256", 256, 0, 512},
      {"offset not a multiple", 4, 2, 64},
      {"size not a multiple", 8, 0, 60},
      {"past the end", 4, Bytes - 4, 8},
      {"size 0", 4, 0, 0},
      {"offset at the end, size 0", 4, Bytes, 0},
  };
  for (const Fill &F : Fills)
    say("fill %s: %s", F.Name,
        errorName(clEnqueueFillBuffer(S.Queue, Buffer, Pattern, F.PatternSize, F.Offset, F.Size, 0,
                                      nullptr, nullptr)));
  show("fill NULL pattern",
       clEnqueueFillBuffer(S.Queue, Buffer, nullptr, 4, 0, 64, 0, nullptr, nullptr));
  show("fill NULL buffer",
       clEnqueueFillBuffer(S.Queue, nullptr, Pattern, 4, 0, 64, 0, nullptr, nullptr));
  show("fill NULL queue",
       clEnqueueFillBuffer(nullptr, Buffer, Pattern, 4, 0, 64, 0, nullptr, nullptr));

  struct Copy {
    const char *Name;
    cl_mem Source, Target;
    size_t SourceOffset, TargetOffset, Size;
  };
  const Copy Copies[] = {
      {"overlapping (same buffer)", Buffer, Buffer, 0, 100, 200},
      {"same range", Buffer, Buffer, 64, 64, 64},
      {"overlapping by one byte", Buffer, Buffer, 0, 99, 100},
      {"source past the end", Buffer, Other, Bytes - 8, 0, 16},
      {"target past the end", Buffer, Other, 0, 1000, 100},
      {"size 0", Buffer, Other, 0, 0, 0},
  };
  for (const Copy &C : Copies)
    say("copy %s: %s", C.Name,
        errorName(clEnqueueCopyBuffer(S.Queue, C.Source, C.Target, C.SourceOffset, C.TargetOffset,
                                      C.Size, 0, nullptr, nullptr)));
  show("copy NULL source",
       clEnqueueCopyBuffer(S.Queue, nullptr, Other, 0, 0, 16, 0, nullptr, nullptr));
  show("copy NULL target",
       clEnqueueCopyBuffer(S.Queue, Buffer, nullptr, 0, 0, 16, 0, nullptr, nullptr));
  cl_int Error = CL_SUCCESS;
  cl_context Foreign = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Error);
  need(Error, "clCreateContext");
  cl_mem Elsewhere = createBuffer(Foreign, CL_MEM_READ_WRITE, 1024);
  show("copy to a buffer of another context",
       clEnqueueCopyBuffer(S.Queue, Buffer, Elsewhere, 0, 0, 16, 0, nullptr, nullptr));
  show("fill a buffer of another context",
       clEnqueueFillBuffer(S.Queue, Elsewhere, Pattern, 4, 0, 64, 0, nullptr, nullptr));
  show("clFinish", clFinish(S.Queue));
  clReleaseMemObject(Elsewhere);
  clReleaseContext(Foreign);
  clReleaseMemObject(Other);
  clReleaseMemObject(Buffer);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel Iota = createKernel(Program, "iota");
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== fills");
  fills(S, AddOne);
  say("== fills seen later");
  fillsSeenLater(S, AddOne);
  say("== copies");
  copies(S, Iota);
  say("== argument checks");
  argumentChecks(S);
  clReleaseKernel(Iota);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
