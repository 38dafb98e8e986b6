// Kernel launches whose results must be identical to native: local_work_size NULL, non-zero
// global offsets, 1 to 3 dimensions, sizes that are not multiples of anything, clEnqueueTask,
// work-group local memory, chains of launches where each reads what the previous wrote in another
// order (so the data of every part must reach every device). Kernels only use values defined for
// the launch as given (never get_local_size or group ids when the local size is left to the
// implementation), and buffers are pre-filled so that a range nobody should write stays visible.
#include "api_test.hpp"

#include <algorithm>

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void ids1(__global uint *out) {
  size_t x = get_global_id(0);
  out[x] = (uint)(x * 3u + get_global_offset(0) * 7u + get_global_size(0) * 11u + get_work_dim());
}
__kernel void ids2(__global uint *out, uint pitch) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * pitch + x] = (uint)(x * 131u + y * 7919u + get_global_offset(0) * 3u +
                              get_global_offset(1) * 5u + get_global_size(0) * 11u +
                              get_global_size(1) * 13u + get_work_dim());
}
__kernel void groups2(__global uint *out, uint pitch) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * pitch + x] = (uint)(get_group_id(0) * 1000000u + get_group_id(1) * 10000u +
                              get_local_id(0) * 100u + get_local_id(1) +
                              get_num_groups(0) * 7u + get_num_groups(1) * 3u +
                              get_local_size(0) * 17u + get_local_size(1) * 19u);
}
__kernel void ids3(__global uint *out, uint pitch, uint slice) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[z * slice + y * pitch + x] = (uint)(x + y * 1000u + z * 1000000u + get_global_offset(2) * 3u +
                                          get_global_size(2) * 5u + get_work_dim());
}
__kernel void task(__global uint *out, uint n) {
  for (uint i = 0; i < n; ++i)
    out[i] = i * i + (uint)get_global_size(0) + (uint)get_local_size(0);
}
__kernel void group_sum(__global const uint *in, __global uint *out, __local uint *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = tmp[0];
}
__kernel void reverse(__global const uint *in, __global uint *out, uint n) {
  size_t i = get_global_id(0);
  out[n - 1 - i] = in[i] * 2u + 1u;
}
__kernel void add_one(__global uint *buf) {
  size_t i = get_global_id(0);
  buf[i] += 1u;
}
__kernel void bump(__global uint *buf) {
  size_t i = get_global_id(0);
  buf[i] += 1u;
}
__kernel void race(__global float *out) {
  // Every work-group's first item stores to out[0]: a race, whose result is one of the values.
  // The first half of the groups store 1.0, the others 2.0: merged byte by byte, a split between
  // the halves made 4.0 of them.
  if (get_local_id(0) == 0)
    out[0] = get_group_id(0) < get_num_groups(0) / 2 ? 1.0f : 2.0f;
}
__kernel void spin(__global uint *out, __global uint *runs, uint rounds) {
  uint x = out[get_global_id(0)];
  for (uint i = 0; i < rounds; ++i)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
  runs[get_global_id(0)] += 1u;
}
)CLC";

constexpr cl_uint Sentinel = 0xa5a5a5a5u;

cl_mem sentinelBuffer(const Setup &S, size_t Count) {
  std::vector<cl_uint> Fill(Count, Sentinel);
  return createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Count * sizeof(cl_uint),
                      Fill.data());
}

void report(const char *Name, cl_int Result, const Setup &S, cl_mem Buffer, size_t Count) {
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, Buffer, Count);
  size_t Untouched = 0;
  for (cl_uint V : Out)
    Untouched += V == Sentinel;
  say("%s: %s, checksum %08x, sentinel words %zu", Name, errorName(Result), checksum(Out),
      Untouched);
}

void oneDimension(const Setup &S, cl_program Program) {
  cl_kernel Kernel = createKernel(Program, "ids1");
  struct Case {
    const char *Name;
    size_t Global, Local, Offset;
  };
  const Case Cases[] = {
      {"1D odd size, local NULL", 65549, 0, 0},
      {"1D local 64", 3 * 4096, 64, 0},
      {"1D odd size, local NULL, offset 1000", 10007, 0, 1000},
      {"1D local 128, offset 256", 8192, 128, 256},
      {"1D local 1", 517, 1, 3},
      {"1D one item", 1, 0, 0},
      {"1D one item, offset 5", 1, 1, 5},
  };
  for (const Case &C : Cases) {
    const size_t Count = C.Global + C.Offset + 16;
    cl_mem Buffer = sentinelBuffer(S, Count);
    setArg(Kernel, 0, Buffer);
    cl_int Result =
        clEnqueueNDRangeKernel(S.Queue, Kernel, 1, C.Offset ? &C.Offset : nullptr, &C.Global,
                               C.Local ? &C.Local : nullptr, 0, nullptr, nullptr);
    report(C.Name, Result, S, Buffer, Count);
    clReleaseMemObject(Buffer);
  }
  clReleaseKernel(Kernel);
}

void moreDimensions(const Setup &S, cl_program Program) {
  {
    cl_kernel Kernel = createKernel(Program, "ids2");
    const size_t Pitch = 270, Rows = 140;
    const size_t Global[2] = {257, 129}, Offset[2] = {3, 5};
    cl_mem Buffer = sentinelBuffer(S, Pitch * Rows);
    setArg(Kernel, 0, Buffer);
    setArg(Kernel, 1, static_cast<cl_uint>(Pitch));
    cl_int Result =
        clEnqueueNDRangeKernel(S.Queue, Kernel, 2, Offset, Global, nullptr, 0, nullptr, nullptr);
    report("2D 257x129, local NULL, offset (3,5)", Result, S, Buffer, Pitch * Rows);
    clReleaseMemObject(Buffer);
    clReleaseKernel(Kernel);
  }
  {
    cl_kernel Kernel = createKernel(Program, "groups2");
    const size_t Pitch = 540, Rows = 80;
    const size_t Global[2] = {512, 64}, Local[2] = {16, 4}, Offset[2] = {16, 8};
    cl_mem Buffer = sentinelBuffer(S, Pitch * Rows);
    setArg(Kernel, 0, Buffer);
    setArg(Kernel, 1, static_cast<cl_uint>(Pitch));
    cl_int Result =
        clEnqueueNDRangeKernel(S.Queue, Kernel, 2, Offset, Global, Local, 0, nullptr, nullptr);
    report("2D 512x64, local 16x4, offset (16,8), group ids", Result, S, Buffer, Pitch * Rows);
    clReleaseMemObject(Buffer);
    const size_t Tall[2] = {8, 512}, TallLocal[2] = {8, 8};
    Buffer = sentinelBuffer(S, 8 * 512 + 16);
    setArg(Kernel, 0, Buffer);
    setArg(Kernel, 1, cl_uint{8});
    Result =
        clEnqueueNDRangeKernel(S.Queue, Kernel, 2, nullptr, Tall, TallLocal, 0, nullptr, nullptr);
    report("2D 8x512 (groups along y only), local 8x8", Result, S, Buffer, 8 * 512 + 16);
    clReleaseMemObject(Buffer);
    clReleaseKernel(Kernel);
  }
  {
    cl_kernel Kernel = createKernel(Program, "ids3");
    const size_t Pitch = 40, Slice = 40 * 24, Slices = 14;
    const size_t Global[3] = {33, 17, 9}, Offset[3] = {1, 2, 3}, Local[3] = {1, 1, 3};
    cl_mem Buffer = sentinelBuffer(S, Slice * Slices);
    setArg(Kernel, 0, Buffer);
    setArg(Kernel, 1, static_cast<cl_uint>(Pitch));
    setArg(Kernel, 2, static_cast<cl_uint>(Slice));
    cl_int Result =
        clEnqueueNDRangeKernel(S.Queue, Kernel, 3, Offset, Global, nullptr, 0, nullptr, nullptr);
    report("3D 33x17x9, local NULL, offset (1,2,3)", Result, S, Buffer, Slice * Slices);
    Result =
        clEnqueueNDRangeKernel(S.Queue, Kernel, 3, nullptr, Global, Local, 0, nullptr, nullptr);
    report("3D 33x17x9, local 1x1x3, over it", Result, S, Buffer, Slice * Slices);
    clReleaseMemObject(Buffer);
    clReleaseKernel(Kernel);
  }
}

void tasksAndLocalMemory(const Setup &S, cl_program Program) {
  cl_kernel Task = createKernel(Program, "task");
  const size_t Count = 1000;
  cl_mem Buffer = sentinelBuffer(S, Count + 8);
  setArg(Task, 0, Buffer);
  setArg(Task, 1, static_cast<cl_uint>(Count));
  cl_event Event = nullptr;
  cl_int Result = clEnqueueTask(S.Queue, Task, 0, nullptr, &Event);
  report("clEnqueueTask", Result, S, Buffer, Count + 8);
  cl_command_type Type = 0;
  clGetEventInfo(Event, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type, nullptr);
  say("clEnqueueTask event type: %s, status %s", commandTypeName(Type),
      statusName(eventStatus(Event)));
  clReleaseEvent(Event);
  show("clEnqueueTask(NULL queue)", clEnqueueTask(nullptr, Task, 0, nullptr, nullptr));
  clReleaseMemObject(Buffer);
  clReleaseKernel(Task);

  cl_kernel Sum = createKernel(Program, "group_sum");
  const size_t N = 1 << 16, Local = 256, Groups = N / Local;
  std::vector<cl_uint> Input(N);
  for (size_t I = 0; I < N; ++I)
    Input[I] = static_cast<cl_uint>((I * 2654435761u) >> 20);
  cl_mem In = createBuffer(S.Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                           Input.data());
  cl_mem Out = sentinelBuffer(S, Groups);
  setArg(Sum, 0, In);
  setArg(Sum, 1, Out);
  API_NEED(clSetKernelArg(Sum, 2, Local * sizeof(cl_uint), nullptr));
  Result = clEnqueueNDRangeKernel(S.Queue, Sum, 1, nullptr, &N, &Local, 0, nullptr, nullptr);
  report("group sums with __local memory", Result, S, Out, Groups);
  std::vector<cl_uint> Sums = readAll<cl_uint>(S.Queue, Out, Groups);
  bool Correct = true;
  for (size_t G = 0; G < Groups; ++G) {
    cl_uint Expected = 0;
    for (size_t I = 0; I < Local; ++I)
      Expected += Input[G * Local + I];
    Correct = Correct && Sums[G] == Expected;
  }
  say("group sums correct: %s", yesNo(Correct));
  clReleaseMemObject(In);
  clReleaseMemObject(Out);
  clReleaseKernel(Sum);
}

void chains(const Setup &S, cl_program Program) {
  // Each launch reads what the previous one wrote, in the opposite order.
  cl_kernel Reverse = createKernel(Program, "reverse");
  const size_t N = 50021;
  std::vector<cl_uint> Input(N);
  for (size_t I = 0; I < N; ++I)
    Input[I] = static_cast<cl_uint>(I);
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                          Input.data());
  cl_mem B = sentinelBuffer(S, N);
  cl_int Result = CL_SUCCESS;
  for (int Round = 0; Round < 4; ++Round) {
    setArg(Reverse, 0, Round % 2 ? B : A);
    setArg(Reverse, 1, Round % 2 ? A : B);
    setArg(Reverse, 2, static_cast<cl_uint>(N));
    cl_int R =
        clEnqueueNDRangeKernel(S.Queue, Reverse, 1, nullptr, &N, nullptr, 0, nullptr, nullptr);
    if (R != CL_SUCCESS)
      Result = R;
  }
  report("4 reversing launches, A", Result, S, A, N);
  report("4 reversing launches, B", Result, S, B, N);

  // Repeated in-place updates, with a host write into the middle between them.
  cl_kernel AddOne = createKernel(Program, "add_one");
  setArg(AddOne, 0, A);
  Result = CL_SUCCESS;
  for (int Round = 0; Round < 3; ++Round) {
    cl_int R =
        clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr, nullptr);
    if (R != CL_SUCCESS)
      Result = R;
    if (Round == 1) {
      std::vector<cl_uint> Patch(100, 5u);
      API_NEED(clEnqueueWriteBuffer(S.Queue, A, CL_TRUE, (N / 2) * sizeof(cl_uint),
                                    Patch.size() * sizeof(cl_uint), Patch.data(), 0, nullptr,
                                    nullptr));
    }
  }
  report("3 in-place launches with a host write between", Result, S, A, N);
  // A launch over a part of the buffer only, through the global offset.
  const size_t Part = 1000, From = 20000;
  Result = clEnqueueNDRangeKernel(S.Queue, AddOne, 1, &From, &Part, nullptr, 0, nullptr, nullptr);
  report("launch over [20000, 21000) only", Result, S, A, N);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseKernel(Reverse);
  clReleaseKernel(AddOne);
}

// What each launch's completion callback saw: the launch before it had completed already (an
// in-order queue completes in order).
struct StreamRecord {
  std::vector<cl_event> Events;
  std::vector<std::atomic<int>> SawEarlierComplete;
  std::atomic<size_t> Called{0};
  explicit StreamRecord(size_t N) : Events(N), SawEarlierComplete(N) {}
};
struct StreamSlot {
  StreamRecord *Record;
  size_t Index;
};

void CL_CALLBACK onStreamLaunch(cl_event, cl_int Status, void *UserData) {
  auto *Slot = static_cast<StreamSlot *>(UserData);
  StreamRecord &R = *Slot->Record;
  const bool Earlier = Slot->Index == 0 || eventStatus(R.Events[Slot->Index - 1]) == CL_COMPLETE;
  R.SawEarlierComplete[Slot->Index] = Status == CL_COMPLETE && Earlier ? 1 : 2;
  R.Called.fetch_add(1);
}

void longStream(const Setup &S, cl_program Program) {
  // Thousands of launches queued without any wait (more than libsplit keeps unfinished at once):
  // each event completes on its own, in order, with its callback; the data sees every launch.
  cl_kernel AddOne = createKernel(Program, "add_one");
  const size_t N = 4096, Launches = 2500;
  std::vector<cl_uint> Zero(N, 0u);
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                          Zero.data());
  setArg(AddOne, 0, A);
  StreamRecord Record(Launches);
  std::vector<StreamSlot> Slots(Launches);
  cl_int Result = CL_SUCCESS;
  for (size_t I = 0; I < Launches; ++I) {
    cl_int R = clEnqueueNDRangeKernel(S.Queue, AddOne, 1, nullptr, &N, nullptr, 0, nullptr,
                                      &Record.Events[I]);
    if (R != CL_SUCCESS) {
      Result = R;
      break;
    }
    Slots[I] = {&Record, I};
    R = clSetEventCallback(Record.Events[I], CL_COMPLETE, onStreamLaunch, &Slots[I]);
    if (R != CL_SUCCESS)
      Result = R;
  }
  clFlush(S.Queue);
  say("%zu launches queued: %s", Launches, errorName(Result));
  // Nobody waits: the last event must still complete.
  say("the last launch completes without a wait: %s",
      yesNo(Result == CL_SUCCESS && eventFinishes(Record.Events[Launches - 1], 20.0)));
  say("every callback ran: %s", yesNo(waitFor([&] { return Record.Called == Launches; }, 20.0)));
  size_t InOrder = 0;
  for (const auto &Saw : Record.SawEarlierComplete)
    InOrder += Saw == 1;
  say("callbacks that saw the launch before complete: %zu of %zu", InOrder, Launches);
  std::vector<cl_uint> Out = readAll<cl_uint>(S.Queue, A, N);
  size_t Right = 0;
  for (cl_uint V : Out)
    Right += V == Launches;
  say("elements incremented %zu times: %zu of %zu", Launches, Right, N);
  for (cl_event E : Record.Events)
    if (E)
      clReleaseEvent(E);
  clReleaseMemObject(A);
  clReleaseKernel(AddOne);
}

double secondsOf(const std::function<void()> &Work) {
  const auto Start = std::chrono::steady_clock::now();
  Work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

// A kernel that writes a buffer the app created CL_MEM_READ_ONLY: undefined by the
// specification, and it works natively (an LU sample factorizes in place a matrix it created
// read-only). A launch of one work-group (it runs whole, on the app's device) writes the
// buffer, then a launch over all of it reads it (split, under LIBSPLIT_SPLIT=always): every
// device must read what the first one wrote, not the bytes the app created the buffer with.
void readOnlyWritten(const Setup &S, cl_program Program) {
  cl_kernel Bump = createKernel(Program, "bump");
  cl_kernel Reverse = createKernel(Program, "reverse");
  const cl_uint N = 4096;
  const size_t All = N, One = 64;
  std::vector<cl_uint> Start(N);
  for (cl_uint I = 0; I < N; ++I)
    Start[I] = 3 * I;
  cl_mem Input = createBuffer(S.Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              N * sizeof(cl_uint), Start.data());
  cl_mem Output = createBuffer(S.Context, CL_MEM_READ_WRITE, N * sizeof(cl_uint));
  setArg(Bump, 0, Input);
  need(clEnqueueNDRangeKernel(S.Queue, Bump, 1, nullptr, &One, &One, 0, nullptr, nullptr), "bump");
  setArg(Reverse, 0, Input);
  setArg(Reverse, 1, Output);
  setArg(Reverse, 2, N);
  need(clEnqueueNDRangeKernel(S.Queue, Reverse, 1, nullptr, &All, nullptr, 0, nullptr, nullptr),
       "reverse");
  const std::vector<cl_uint> Reversed = readAll<cl_uint>(S.Queue, Output, N);
  const std::vector<cl_uint> Kept = readAll<cl_uint>(S.Queue, Input, N);
  bool Seen = true, Read = true;
  for (cl_uint I = 0; I < N; ++I) {
    const cl_uint Now = Start[I] + (I < One ? 1u : 0u);
    Seen = Seen && Reversed[N - 1 - I] == Now * 2u + 1u;
    Read = Read && Kept[I] == Now;
  }
  say("a buffer created read-only and written: a later launch sees the writes: %s", yesNo(Seen));
  say("a buffer created read-only and written: reads back written: %s", yesNo(Read));
  clReleaseMemObject(Input);
  clReleaseMemObject(Output);
  clReleaseKernel(Bump);
  clReleaseKernel(Reverse);
}

// Work-groups racing to store one float (an app's bug, which natively leaves one of the values
// stored): split, the devices' copies are merged, and the result must still be a value some
// work-group stored, not bytes of two of them.
void racingStores(const Setup &S, cl_program Program) {
  cl_kernel Race = createKernel(Program, "race");
  const size_t Groups = 64, Local = 64, Global = Groups * Local;
  bool OneOfThem = true;
  for (int Round = 0; Round < 8; ++Round) {
    const float Zero = 0.0f;
    cl_mem Out = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float),
                              const_cast<float *>(&Zero));
    setArg(Race, 0, Out);
    need(clEnqueueNDRangeKernel(S.Queue, Race, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
         "race");
    const float Stored = readAll<float>(S.Queue, Out, 1)[0];
    const bool Found = Stored == 1.0f || Stored == 2.0f;
    OneOfThem = OneOfThem && Found;
    clReleaseMemObject(Out);
  }
  say("racing stores to one float leave a value one of them stored: %s", yesNo(OneOfThem));
  clReleaseKernel(Race);
}

// A CL_MEM_USE_HOST_PTR buffer read through its memory after a synchronization, with no map or
// read: where the device works in place (a CPU) apps do, and natively see what the kernels
// wrote. Checked after clFinish, after a blocking read of another buffer, after
// clWaitForEvents.
void hostMemoryAfterSync(const Setup &S, cl_program Program) {
  cl_kernel Bump = createKernel(Program, "bump");
  const size_t N = 4096;
  std::vector<cl_uint> Memory(N);
  for (size_t I = 0; I < N; ++I)
    Memory[I] = static_cast<cl_uint>(I);
  cl_mem InPlace = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                N * sizeof(cl_uint), Memory.data());
  cl_mem Other = createBuffer(S.Context, CL_MEM_READ_WRITE, sizeof(cl_uint));
  setArg(Bump, 0, InPlace);
  auto bumped = [&](cl_uint Times) {
    bool Same = true;
    for (size_t I = 0; I < N; ++I)
      Same = Same && Memory[I] == static_cast<cl_uint>(I) + Times;
    return Same;
  };
  need(clEnqueueNDRangeKernel(S.Queue, Bump, 1, nullptr, &N, nullptr, 0, nullptr, nullptr), "bump");
  need(clFinish(S.Queue), "clFinish");
  say("the app's memory after clFinish holds the kernel's result: %s", yesNo(bumped(1)));
  need(clEnqueueNDRangeKernel(S.Queue, Bump, 1, nullptr, &N, nullptr, 0, nullptr, nullptr), "bump");
  cl_uint Ignored = 0;
  need(clEnqueueReadBuffer(S.Queue, Other, CL_TRUE, 0, sizeof(Ignored), &Ignored, 0, nullptr,
                           nullptr),
       "read");
  say("the app's memory after a blocking read holds the kernel's result: %s", yesNo(bumped(2)));
  cl_event Done = nullptr;
  need(clEnqueueNDRangeKernel(S.Queue, Bump, 1, nullptr, &N, nullptr, 0, nullptr, &Done), "bump");
  need(clWaitForEvents(1, &Done), "clWaitForEvents");
  say("the app's memory after clWaitForEvents holds the kernel's result: %s", yesNo(bumped(3)));
  clReleaseEvent(Done);
  clReleaseMemObject(InPlace);
  clReleaseMemObject(Other);
  clReleaseKernel(Bump);
}

void withoutEvents(const Setup &S, cl_program Program) {
  // Launches the app asks no event for (libsplit keeps no real event for most of them once its
  // planner settled on running them whole): clFinish, and the event of a launch queued behind
  // them, still wait until every one ran. Checked by time: each of these launches takes a
  // measured while, so a wait that ended early is too short (a lower bound, safe under load).
  cl_kernel Spin = createKernel(Program, "spin");
  const size_t N = 64, Launches = 6;
  std::vector<cl_uint> Seed(N);
  for (size_t I = 0; I < N; ++I)
    Seed[I] = static_cast<cl_uint>(I);
  cl_mem A = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                          Seed.data());
  const std::vector<cl_uint> Zero(N, 0u);
  cl_mem Runs = createBuffer(S.Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(cl_uint), const_cast<cl_uint *>(Zero.data()));
  setArg(Spin, 0, A);
  setArg(Spin, 1, Runs);
  size_t Launched = 0;
  auto launch = [&](cl_uint Rounds, cl_event *Done) {
    setArg(Spin, 2, Rounds);
    ++Launched;
    need(clEnqueueNDRangeKernel(S.Queue, Spin, 1, nullptr, &N, &N, 0, nullptr, Done), "launch");
  };
  for (int I = 0; I < 64; ++I) // short ones first, as a planner would see a loop's start
    launch(1, nullptr);
  need(clFinish(S.Queue), "clFinish");
  // Rounds that take the device a few tens of milliseconds, the fastest of three, timed up to a
  // blocking read of the kernel's output (which cannot end before the kernel did, whatever
  // clFinish does).
  cl_uint Probe = 0;
  auto ranOnce = [&](cl_uint Rounds) {
    return secondsOf([&] {
      launch(Rounds, nullptr);
      need(clEnqueueReadBuffer(S.Queue, A, CL_TRUE, 0, sizeof(Probe), &Probe, 0, nullptr, nullptr),
           "read");
    });
  };
  cl_uint Rounds = 1u << 16;
  double Once = ranOnce(Rounds);
  const double Scale = std::min(std::max(0.03 / std::max(Once, 1e-6), 1.0), 4096.0);
  Rounds = static_cast<cl_uint>(Rounds * Scale);
  Once = 1e9;
  for (int I = 0; I < 3; ++I)
    Once = std::min(Once, ranOnce(Rounds));
  const double Finished = secondsOf([&] {
    for (size_t I = 0; I < Launches; ++I)
      launch(Rounds, nullptr);
    clFinish(S.Queue);
  });
  say("clFinish waited for %zu launches without events: %s", Launches,
      yesNo(Finished >= 0.5 * Launches * Once));
  cl_event Behind = nullptr;
  const double Waited = secondsOf([&] {
    for (size_t I = 0; I < Launches; ++I)
      launch(Rounds, nullptr);
    launch(1, &Behind);
    clWaitForEvents(1, &Behind);
  });
  say("the event of a launch behind them completed after them: %s",
      yesNo(Waited >= 0.5 * Launches * Once && eventStatus(Behind) == CL_COMPLETE));
  clReleaseEvent(Behind);
  cl_event Marker = nullptr;
  const double Marked = secondsOf([&] {
    for (size_t I = 0; I < Launches; ++I)
      launch(Rounds, nullptr);
    need(clEnqueueMarkerWithWaitList(S.Queue, 0, nullptr, &Marker), "marker");
    clWaitForEvents(1, &Marker);
  });
  say("a marker behind them completed after them: %s",
      yesNo(Marked >= 0.5 * Launches * Once && eventStatus(Marker) == CL_COMPLETE));
  clReleaseEvent(Marker);
  // The rounds depend on the machine's speed, so only the count of runs is compared.
  const std::vector<cl_uint> Counted = readAll<cl_uint>(S.Queue, Runs, N);
  say("every work-item saw every one of the %zu launches: %s", Launched,
      yesNo(std::all_of(Counted.begin(), Counted.end(),
                        [&](cl_uint C) { return C == static_cast<cl_uint>(Launched); })));
  clReleaseMemObject(Runs);
  clReleaseMemObject(A);
  clReleaseKernel(Spin);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  say("== one dimension");
  oneDimension(S, Program);
  say("== two and three dimensions");
  moreDimensions(S, Program);
  say("== tasks and local memory");
  tasksAndLocalMemory(S, Program);
  say("== chains of launches");
  chains(S, Program);
  say("== a long stream of launches");
  longStream(S, Program);
  say("== launches without events");
  withoutEvents(S, Program);
  say("== a buffer created read-only, written");
  readOnlyWritten(S, Program);
  say("== racing stores");
  racingStores(S, Program);
  say("== a buffer on the app's memory, read there after a synchronization");
  hostMemoryAfterSync(S, Program);
  clReleaseProgram(Program);
  tearDown(S);
  say("done");
  return 0;
}
