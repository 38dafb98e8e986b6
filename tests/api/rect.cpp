// Rectangular transfers: clEnqueueReadBufferRect / WriteBufferRect / CopyBufferRect in 2D and 3D
// with explicit and default (0) pitches, mixed with kernels so that the data a rect reads may be
// spread over devices; and their argument checks (zero region, out of bounds, bad pitches,
// overlapping copies).
#include "api_test.hpp"

using namespace api;

namespace {

// A 3D box of bytes: 48 x 20 x 6 (row pitch 48, slice pitch 960).
constexpr size_t Width = 48, Height = 20, Depth = 6;
constexpr size_t Bytes = Width * Height * Depth;

std::vector<unsigned char> pattern(unsigned Seed) {
  std::vector<unsigned char> Data(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    Data[I] = static_cast<unsigned char>((I * 31 + Seed * 7) ^ (I >> 5));
  return Data;
}

void transfers(const Setup &S, cl_kernel AddOne) {
  std::vector<unsigned char> Initial = pattern(1);
  cl_mem Buffer =
      createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Initial.data());
  // A kernel touches the whole buffer first (as uints: +1 to each word).
  setArg(AddOne, 0, Buffer);
  const size_t Words = Bytes / 4;
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Words, nullptr, 0, nullptr, nullptr));

  // 2D read of a 10x7 block at (5, 3, 0) into a host array with its own pitch and origin.
  {
    const size_t BufferOrigin[3] = {5, 3, 0}, HostOrigin[3] = {2, 1, 0}, Region[3] = {10, 7, 1};
    std::vector<unsigned char> Host(16 * 10, 0xee);
    cl_int R = clEnqueueReadBufferRect(S.Queue, Buffer, CL_TRUE, BufferOrigin, HostOrigin, Region,
                                       Width, 0, 16, 0, Host.data(), 0, nullptr, nullptr);
    say("read rect 2D: %s, checksum %08x", errorName(R), checksum(Host));
  }
  // 3D read with explicit slice pitches on both sides.
  {
    const size_t BufferOrigin[3] = {1, 2, 1}, HostOrigin[3] = {0, 0, 0}, Region[3] = {40, 15, 4};
    std::vector<unsigned char> Host(44 * 16 * 4, 0xee);
    cl_int R =
        clEnqueueReadBufferRect(S.Queue, Buffer, CL_TRUE, BufferOrigin, HostOrigin, Region, Width,
                                Width * Height, 44, 44 * 16, Host.data(), 0, nullptr, nullptr);
    say("read rect 3D: %s, checksum %08x", errorName(R), checksum(Host));
  }
  // 3D write of a block, then the whole buffer read back.
  {
    std::vector<unsigned char> Source(30 * 12 * 3);
    for (size_t I = 0; I < Source.size(); ++I)
      Source[I] = static_cast<unsigned char>(200 + I % 50);
    const size_t BufferOrigin[3] = {8, 4, 2}, HostOrigin[3] = {3, 1, 0}, Region[3] = {20, 9, 3};
    cl_int R = clEnqueueWriteBufferRect(S.Queue, Buffer, CL_TRUE, BufferOrigin, HostOrigin, Region,
                                        0, 0, 30, 30 * 12, Source.data(), 0, nullptr, nullptr);
    std::vector<unsigned char> All = readAll<unsigned char>(S.Queue, Buffer, Bytes);
    say("write rect 3D (default buffer pitches): %s, buffer checksum %08x", errorName(R),
        checksum(All));
  }
  // Non-blocking write rect then a kernel then read rect, ordered by the queue.
  {
    std::vector<unsigned char> Source(Width * 4, 9);
    const size_t Origin[3] = {0, 10, 3}, HostOrigin[3] = {0, 0, 0}, Region[3] = {Width, 4, 1};
    cl_event Write = nullptr;
    show("non-blocking write rect",
         clEnqueueWriteBufferRect(S.Queue, Buffer, CL_FALSE, Origin, HostOrigin, Region, Width,
                                  Width * Height, Width, 0, Source.data(), 0, nullptr, &Write));
    API_NEED(
        clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &Words, nullptr, 1, &Write, nullptr));
    std::vector<unsigned char> Back(Width * 4, 0);
    show("read rect after kernel",
         clEnqueueReadBufferRect(S.Queue, Buffer, CL_TRUE, Origin, HostOrigin, Region, Width,
                                 Width * Height, Width, 0, Back.data(), 0, nullptr, nullptr));
    say("rect round trip through a kernel: checksum %08x", checksum(Back));
    cl_command_type Type = 0;
    clGetEventInfo(Write, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
    say("write rect event: %s", commandTypeName(Type));
    clReleaseEvent(Write);
  }
  // Copy rect into another buffer with other pitches, and within one buffer (disjoint).
  {
    cl_mem Target = createBuffer(S.Context, CL_MEM_READ_WRITE, 64 * 32 * 4);
    std::vector<unsigned char> Zero(64 * 32 * 4, 0);
    API_NEED(clEnqueueWriteBuffer(S.Queue, Target, CL_TRUE, 0, Zero.size(), Zero.data(), 0, nullptr,
                                  nullptr));
    const size_t From[3] = {2, 3, 1}, To[3] = {10, 5, 0}, Region[3] = {30, 12, 4};
    cl_event Copy = nullptr;
    cl_int R = clEnqueueCopyBufferRect(S.Queue, Buffer, Target, From, To, Region, Width,
                                       Width * Height, 64, 64 * 32, 0, nullptr, &Copy);
    std::vector<unsigned char> All = readAll<unsigned char>(S.Queue, Target, Zero.size());
    say("copy rect to another buffer: %s, checksum %08x", errorName(R), checksum(All));
    cl_command_type Type = 0;
    clGetEventInfo(Copy, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
    say("copy rect event: %s", commandTypeName(Type));
    clReleaseEvent(Copy);
    // Within the buffer: rows [0,5) of slice 0 to rows [10,15) of slice 5.
    const size_t Src[3] = {0, 0, 0}, Dst[3] = {0, 10, 5}, Rows[3] = {Width, 5, 1};
    R = clEnqueueCopyBufferRect(S.Queue, Buffer, Buffer, Src, Dst, Rows, Width, Width * Height,
                                Width, Width * Height, 0, nullptr, nullptr);
    All = readAll<unsigned char>(S.Queue, Buffer, Bytes);
    say("copy rect within one buffer (disjoint): %s, checksum %08x", errorName(R), checksum(All));
    // Same rows, interleaved columns: the regions' bounding boxes overlap but no byte is shared.
    const size_t A[3] = {0, 0, 0}, B[3] = {24, 0, 0}, Half[3] = {24, 1, 1};
    R = clEnqueueCopyBufferRect(S.Queue, Buffer, Buffer, A, B, Half, Width, 0, Width, 0, 0, nullptr,
                                nullptr);
    All = readAll<unsigned char>(S.Queue, Buffer, Bytes);
    say("copy rect, left half of a row to its right half: %s, checksum %08x", errorName(R),
        checksum(All));
    clReleaseMemObject(Target);
  }
  clReleaseMemObject(Buffer);
}

void argumentChecks(const Setup &S) {
  cl_mem Buffer = createBuffer(S.Context, CL_MEM_READ_WRITE, Bytes);
  std::vector<unsigned char> Host(Bytes * 2, 0);
  const size_t Zero[3] = {0, 0, 0};
  struct Case {
    const char *Name;
    size_t Origin[3], Region[3], RowPitch, SlicePitch;
  };
  const Case Cases[] = {
      {"region width 0", {0, 0, 0}, {0, 1, 1}, 0, 0},
      {"region depth 0", {0, 0, 0}, {4, 1, 0}, 0, 0},
      {"past the end (last row)", {40, Height - 1, Depth - 1}, {10, 1, 1}, Width, Width * Height},
      {"past the end (z)", {0, 0, 5}, {Width, Height, 2}, Width, Width * Height},
      {"row pitch smaller than region", {0, 0, 0}, {20, 2, 1}, 10, 0},
      {"slice pitch smaller than region", {0, 0, 0}, {8, 4, 2}, 8, 16},
      {"slice pitch not a multiple of row pitch", {0, 0, 0}, {8, 4, 2}, 10, 45},
      {"last byte exactly at the end", {0, 0, 0}, {Width, Height, Depth}, 0, 0},
  };
  for (const Case &C : Cases) {
    say("read rect %s: %s", C.Name,
        errorName(clEnqueueReadBufferRect(S.Queue, Buffer, CL_TRUE, C.Origin, Zero, C.Region,
                                          C.RowPitch, C.SlicePitch, 0, 0, Host.data(), 0, nullptr,
                                          nullptr)));
    say("write rect %s: %s", C.Name,
        errorName(clEnqueueWriteBufferRect(S.Queue, Buffer, CL_TRUE, C.Origin, Zero, C.Region,
                                           C.RowPitch, C.SlicePitch, 0, 0, Host.data(), 0, nullptr,
                                           nullptr)));
  }
  const size_t Region[3] = {4, 4, 1};
  show("read rect host row pitch smaller than region",
       clEnqueueReadBufferRect(S.Queue, Buffer, CL_TRUE, Zero, Zero, Region, 0, 0, 2, 0,
                               Host.data(), 0, nullptr, nullptr));
  show("read rect NULL pointer",
       clEnqueueReadBufferRect(S.Queue, Buffer, CL_TRUE, Zero, Zero, Region, 0, 0, 0, 0, nullptr, 0,
                               nullptr, nullptr));
  show("read rect NULL buffer",
       clEnqueueReadBufferRect(S.Queue, nullptr, CL_TRUE, Zero, Zero, Region, 0, 0, 0, 0,
                               Host.data(), 0, nullptr, nullptr));
  cl_mem NoAccess = createBuffer(S.Context, CL_MEM_HOST_NO_ACCESS, Bytes);
  show("read rect HOST_NO_ACCESS",
       clEnqueueReadBufferRect(S.Queue, NoAccess, CL_TRUE, Zero, Zero, Region, 0, 0, 0, 0,
                               Host.data(), 0, nullptr, nullptr));
  show("write rect HOST_NO_ACCESS",
       clEnqueueWriteBufferRect(S.Queue, NoAccess, CL_TRUE, Zero, Zero, Region, 0, 0, 0, 0,
                                Host.data(), 0, nullptr, nullptr));

  // Copies within one buffer whose regions share bytes.
  const size_t A[3] = {0, 0, 0}, B[3] = {2, 2, 0}, Box[3] = {8, 8, 1};
  show("copy rect overlapping", clEnqueueCopyBufferRect(S.Queue, Buffer, Buffer, A, B, Box, Width,
                                                        0, Width, 0, 0, nullptr, nullptr));
  show("copy rect same region", clEnqueueCopyBufferRect(S.Queue, Buffer, Buffer, A, A, Box, Width,
                                                        0, Width, 0, 0, nullptr, nullptr));
  // One buffer with different source and target pitches is invalid whatever the overlap.
  const size_t C[3] = {0, 1, 0}, Thin[3] = {8, 4, 1};
  show("copy rect, different pitches, sharing bytes",
       clEnqueueCopyBufferRect(S.Queue, Buffer, Buffer, A, C, Thin, Width, 0, 2 * Width, 0, 0,
                               nullptr, nullptr));
  const size_t Past[3] = {45, Height - 7, Depth - 1};
  show("copy rect target past the end",
       clEnqueueCopyBufferRect(S.Queue, Buffer, NoAccess, A, Past, Box, Width, Width * Height,
                               Width, Width * Height, 0, nullptr, nullptr));
  // Not checked: a NULL target buffer (PoCL 3.1 crashes).
  show("copy rect region 0", clEnqueueCopyBufferRect(S.Queue, Buffer, NoAccess, A, A, Zero, Width,
                                                     0, Width, 0, 0, nullptr, nullptr));
  show("clFinish", clFinish(S.Queue));
  clReleaseMemObject(NoAccess);
  clReleaseMemObject(Buffer);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, commonKernels());
  cl_kernel AddOne = createKernel(Program, "add_one");
  say("== transfers");
  transfers(S, AddOne);
  say("== argument checks");
  argumentChecks(S);
  clReleaseKernel(AddOne);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
