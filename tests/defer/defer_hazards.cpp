// The hazards of deferred host writes (LIBSPLIT_DEFER=mprotect), one scenario per run:
//
//   defer_hazards --scenario NAME [--device P:D]
//
// An ordinary OpenCL program (it knows nothing of libsplit): it writes buffers from host memory,
// then does to that memory what apps do (writes it at once, from several threads, reads a file
// or a pipe into it, frees it, forks, installs its own SIGSEGV handler...) and checks that
// kernels still see the bytes as they were at the write. Prints "PASS scenario" and exits 0, or
// prints what differed and exits 1. It passes natively too (there the writes copy at once).
//
// Scenarios: basic, threads, syscalls, free, release, exit, fork, handler-before,
// handler-after, crash, layout, rect, copy-map, placement, host-ptr.
#include "common/app_common.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <fstream>
#include <thread>

namespace {

const char *KernelSource = R"CLC(
__kernel void copy(__global const uint *in, __global uint *out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}
__kernel void add(__global const uint *a, __global const uint *b, __global uint *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] + b[i];
}
__kernel void reverse(__global const uint *in, __global uint *out, uint n) {
  size_t i = get_global_id(0);
  out[i] = in[n - 1 - i];
}
)CLC";

const size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
constexpr size_t Local = 64;
bool Failed = false;

std::uint32_t value(size_t I, std::uint32_t Seed) {
  return static_cast<std::uint32_t>(I * 2654435761u) ^ Seed;
}

void fill(std::uint32_t *Data, size_t Count, std::uint32_t Seed) {
  for (size_t I = 0; I < Count; ++I)
    Data[I] = value(I, Seed);
}

void expect(bool Condition, const char *What) {
  if (!Condition) {
    std::printf("FAIL: %s\n", What);
    std::fflush(stdout);
    Failed = true;
  }
}

// The first index where Data differs from the pattern, or Count.
size_t firstDifference(const std::uint32_t *Data, size_t Count, std::uint32_t Seed) {
  for (size_t I = 0; I < Count; ++I)
    if (Data[I] != value(I, Seed))
      return I;
  return Count;
}

void expectPattern(const std::vector<std::uint32_t> &Data, std::uint32_t Seed, const char *What) {
  const size_t At = firstDifference(Data.data(), Data.size(), Seed);
  if (At != Data.size())
    std::printf("  %s: element %zu is %08x, expected %08x\n", What, At, Data[At], value(At, Seed));
  expect(At == Data.size(), What);
}

// A context on one device, both kernels, and helpers that run them.
class Rig {
public:
  explicit Rig(const app::Options &Opts) {
    const app::DeviceChoice Choice = app::pickDevice(Opts);
    cl_int Err = CL_SUCCESS;
    Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
    CL_CHECK_ERR(Err, "clCreateContext");
    Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
    CL_CHECK_ERR(Err, "clCreateCommandQueue");
    Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
    Copy = clCreateKernel(Program, "copy", &Err);
    CL_CHECK_ERR(Err, "clCreateKernel copy");
    Add = clCreateKernel(Program, "add", &Err);
    CL_CHECK_ERR(Err, "clCreateKernel add");
    Reverse = clCreateKernel(Program, "reverse", &Err);
    CL_CHECK_ERR(Err, "clCreateKernel reverse");
  }

  cl_mem buffer(size_t Count, cl_mem_flags Flags = CL_MEM_READ_ONLY, void *Host = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem B = clCreateBuffer(Context, Flags, Count * 4, Host, &Err);
    CL_CHECK_ERR(Err, "clCreateBuffer");
    return B;
  }

  void write(cl_mem B, const std::uint32_t *Host, size_t Count, cl_bool Blocking = CL_TRUE,
             size_t Offset = 0) {
    CL_CHECK(
        clEnqueueWriteBuffer(Queue, B, Blocking, Offset * 4, Count * 4, Host, 0, nullptr, nullptr));
  }

  // Enqueues out = in (not waited for).
  cl_mem launchCopy(cl_mem In, size_t Count) {
    cl_mem Out = buffer(Count, CL_MEM_WRITE_ONLY);
    CL_CHECK(clSetKernelArg(Copy, 0, sizeof(cl_mem), &In));
    CL_CHECK(clSetKernelArg(Copy, 1, sizeof(cl_mem), &Out));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Copy, 1, nullptr, &Count, &Local, 0, nullptr, nullptr));
    return Out;
  }

  std::vector<std::uint32_t> read(cl_mem B, size_t Count) {
    std::vector<std::uint32_t> Out(Count, 0xDEADBEEF);
    CL_CHECK(clEnqueueReadBuffer(Queue, B, CL_TRUE, 0, Count * 4, Out.data(), 0, nullptr, nullptr));
    return Out;
  }

  // What a kernel sees in In: copied through a kernel, read back.
  std::vector<std::uint32_t> seen(cl_mem In, size_t Count) {
    cl_mem Out = launchCopy(In, Count);
    auto Result = read(Out, Count);
    clReleaseMemObject(Out);
    return Result;
  }

  std::vector<std::uint32_t> sum(cl_mem A, cl_mem B, size_t Count) {
    cl_mem Out = buffer(Count, CL_MEM_WRITE_ONLY);
    CL_CHECK(clSetKernelArg(Add, 0, sizeof(cl_mem), &A));
    CL_CHECK(clSetKernelArg(Add, 1, sizeof(cl_mem), &B));
    CL_CHECK(clSetKernelArg(Add, 2, sizeof(cl_mem), &Out));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Add, 1, nullptr, &Count, &Local, 0, nullptr, nullptr));
    auto Result = read(Out, Count);
    clReleaseMemObject(Out);
    return Result;
  }

  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  cl_program Program = nullptr;
  cl_kernel Copy = nullptr, Add = nullptr, Reverse = nullptr;
};

// Elements in a few MiB: above libsplit's size for deferring, a multiple of the local size.
constexpr size_t Count = (4u << 20) / 4;

// The array rewritten at once, the buffer written from it again, the array rewritten again.
void basic(Rig &R) {
  // Not page-aligned: malloc's 16-byte header plus 4.
  std::vector<std::uint32_t> Storage(Count + 1);
  std::uint32_t *Host = Storage.data() + 1;
  fill(Host, Count, 1);
  cl_mem In = R.buffer(Count);
  R.write(In, Host, Count);
  fill(Host, Count, 2); // every page, right after the blocking write returned
  expectPattern(R.seen(In, Count), 1, "kernel sees the first write");
  expectPattern(R.seen(In, Count), 1, "and again at the next launch");
  R.write(In, Host, Count, CL_FALSE);
  CL_CHECK(clFinish(R.Queue));
  Host[Count / 2] = 0; // one page
  std::vector<std::uint32_t> Expected(Host, Host + Count);
  Expected[Count / 2] = value(Count / 2, 2);
  expect(R.seen(In, Count) == Expected, "kernel sees the second write");
  // CL_MEM_COPY_HOST_PTR takes the bytes at creation.
  fill(Host, Count, 3);
  cl_mem Created = R.buffer(Count, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Host);
  fill(Host, Count, 4);
  expectPattern(R.seen(Created, Count), 3, "kernel sees CL_MEM_COPY_HOST_PTR data");
  std::vector<std::uint32_t> Back(Count);
  CL_CHECK(clEnqueueReadBuffer(R.Queue, Created, CL_TRUE, 0, Count * 4, Back.data(), 0, nullptr,
                               nullptr));
  expectPattern(Back, 3, "reading the buffer back");
  clReleaseMemObject(In);
  clReleaseMemObject(Created);
}

// App threads fault on the same pages at once (one of them with every signal blocked), while
// libsplit's device threads write into the same memory (a read of another buffer into part of it).
void threads(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 5);
  cl_mem In = R.buffer(Count);
  R.write(In, Host.data(), Count);
  std::vector<std::uint32_t> Other(Count);
  fill(Other.data(), Count, 6);
  cl_mem Source = R.buffer(Count, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Other.data());
  constexpr int Threads = 6;
  const size_t Pages = 48, PerPage = Page / 4;
  std::atomic<int> Arrived{0};
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      if (T == 0) { // as thread pools do; a fault with SIGSEGV blocked would kill the process
        sigset_t All;
        sigfillset(&All);
        pthread_sigmask(SIG_BLOCK, &All, nullptr);
      }
      for (size_t P = 0; P < Pages; ++P) {
        Arrived.fetch_add(1);
        while (Arrived.load() < static_cast<int>((P + 1) * Threads))
          ;
        Host[P * PerPage + static_cast<size_t>(T)] = 0xA0000000u + static_cast<std::uint32_t>(T);
      }
    });
  // The read lands in the second half of the array, which the threads do not touch.
  std::thread Reader([&] {
    CL_CHECK(clEnqueueReadBuffer(R.Queue, Source, CL_TRUE, 0, Count / 2 * 4,
                                 Host.data() + Count / 2, 0, nullptr, nullptr));
  });
  for (std::thread &T : Workers)
    T.join();
  Reader.join();
  expectPattern(R.seen(In, Count), 5, "kernel sees the write despite the threads");
  for (size_t P = 0; P < Pages; ++P)
    for (int T = 0; T < Threads; ++T)
      expect(Host[P * PerPage + static_cast<size_t>(T)] ==
                 0xA0000000u + static_cast<std::uint32_t>(T),
             "each thread's write landed");
  expect(firstDifference(Host.data() + Count / 2, Count / 2, 6) == Count / 2,
         "the read landed in the written memory");
  clReleaseMemObject(In);
  clReleaseMemObject(Source);
}

// System calls that write into deferred memory: a 64 MiB fread, read() from a pipe, readv(),
// recv() from a socket, std::ifstream::read.
void syscalls(Rig &R) {
  const size_t Big = (64u << 20) / 4;
  std::vector<std::uint32_t> Host(Big);
  fill(Host.data(), Big, 7);
  cl_mem In = R.buffer(Big);
  R.write(In, Host.data(), Big);
  // A 64 MiB file of another pattern.
  char Path[] = "/tmp/libsplit-defer-XXXXXX";
  const int Fd = mkstemp(Path);
  expect(Fd >= 0, "mkstemp");
  {
    std::vector<std::uint32_t> File(Big);
    fill(File.data(), Big, 8);
    expect(write(Fd, File.data(), Big * 4) == static_cast<ssize_t>(Big * 4), "write the file");
    close(Fd);
  }
  std::FILE *Stream = std::fopen(Path, "rb");
  expect(Stream != nullptr, "fopen");
  const size_t Got = std::fread(Host.data(), 4, Big, Stream);
  expect(Got == Big, "fread read all 64 MiB");
  expect(!std::ferror(Stream), "fread reported no error");
  std::fclose(Stream);
  expect(firstDifference(Host.data(), Big, 8) == Big, "fread's data is in the array");
  expectPattern(R.seen(In, Big), 7, "kernel sees the write made before the fread");

  // read(), readv() from a pipe, recv() from a socket pair, ifstream into a fresh deferral.
  fill(Host.data(), Big, 9);
  R.write(In, Host.data(), Big);
  int Pipe[2];
  expect(pipe(Pipe) == 0, "pipe");
  const size_t PipeBytes = 1u << 20;
  std::thread Writer([&] {
    std::vector<std::uint8_t> Bytes(PipeBytes, 0x5A);
    size_t Done = 0;
    while (Done < PipeBytes) {
      const ssize_t N = ::write(Pipe[1], Bytes.data() + Done, PipeBytes - Done);
      if (N <= 0)
        break;
      Done += static_cast<size_t>(N);
    }
    close(Pipe[1]);
  });
  auto *Into = reinterpret_cast<std::uint8_t *>(Host.data()) + 3 * Page + 8;
  size_t Read = 0;
  while (Read < PipeBytes) {
    const ssize_t N = ::read(Pipe[0], Into + Read, PipeBytes - Read);
    if (N <= 0) {
      std::printf("  read from the pipe: %zd (%s) after %zu bytes\n", N, std::strerror(errno),
                  Read);
      break;
    }
    Read += static_cast<size_t>(N);
  }
  Writer.join();
  close(Pipe[0]);
  expect(Read == PipeBytes, "read() from a pipe got every byte");
  expect(Into[0] == 0x5A && Into[PipeBytes - 1] == 0x5A, "the pipe's bytes are in the array");

  int Sockets[2];
  expect(socketpair(AF_UNIX, SOCK_STREAM, 0, Sockets) == 0, "socketpair");
  std::vector<std::uint8_t> Message(3 * Page, 0x6B);
  expect(::write(Sockets[1], Message.data(), Message.size()) ==
             static_cast<ssize_t>(Message.size()),
         "socket write");
  auto *SocketInto = reinterpret_cast<std::uint8_t *>(Host.data() + Big / 2);
  size_t Received = 0;
  while (Received < Message.size()) {
    const ssize_t N = recv(Sockets[0], SocketInto + Received, Message.size() - Received, 0);
    if (N <= 0)
      break;
    Received += static_cast<size_t>(N);
  }
  expect(Received == Message.size() && SocketInto[Message.size() - 1] == 0x6B,
         "recv() into the array");
  close(Sockets[0]);
  close(Sockets[1]);

  const int Again = open(Path, O_RDONLY);
  struct iovec Parts[2] = {{Host.data() + Big / 4, 2 * Page}, {Host.data() + Big / 3, 5 * Page}};
  expect(readv(Again, Parts, 2) == static_cast<ssize_t>(7 * Page), "readv() into the array");
  close(Again);
  std::ifstream Input(Path, std::ios::binary);
  Input.read(reinterpret_cast<char *>(Host.data() + 3 * Big / 4), 1u << 20);
  expect(Input.gcount() == (1 << 20), "std::ifstream::read into the array");
  expectPattern(R.seen(In, Big), 9, "kernel sees the write made before the system calls");
  unlink(Path);
  clReleaseMemObject(In);
}

// The written memory goes back to the system or the allocator while deferred.
void freed(Rig &R) {
  cl_mem In = R.buffer(Count);
  {
    // free(), then the allocator hands the same memory out again.
    auto *Host = static_cast<std::uint32_t *>(std::malloc(Count * 4));
    fill(Host, Count, 10);
    R.write(In, Host, Count);
    std::free(Host);
    auto *Again = static_cast<std::uint32_t *>(std::malloc(Count * 4));
    fill(Again, Count, 11);
    expectPattern(R.seen(In, Count), 10, "after free() and a new malloc()");
    std::free(Again);
  }
  {
    // munmap(), then a new mapping at the same place.
    void *Map =
        mmap(nullptr, Count * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fill(static_cast<std::uint32_t *>(Map), Count, 12);
    R.write(In, static_cast<std::uint32_t *>(Map), Count);
    munmap(Map, Count * 4);
    void *Again = mmap(Map, Count * 4, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (Again != MAP_FAILED) {
      fill(static_cast<std::uint32_t *>(Again), Count, 13);
      munmap(Again, Count * 4);
    }
    expectPattern(R.seen(In, Count), 12, "after munmap() and a new mapping");
  }
  {
    // realloc() growing (the block moves or is remapped).
    auto *Host = static_cast<std::uint32_t *>(std::malloc(Count * 4));
    fill(Host, Count, 14);
    R.write(In, Host, Count);
    auto *Grown = static_cast<std::uint32_t *>(std::realloc(Host, Count * 16));
    fill(Grown, Count * 4, 15);
    expectPattern(R.seen(In, Count), 14, "after realloc()");
    std::free(Grown);
  }
  {
    // A heap block (below the mmap threshold) freed and carved up by many small allocations.
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    auto *Host = static_cast<std::uint32_t *>(std::malloc(Count * 4));
    fill(Host, Count, 16);
    R.write(In, Host, Count);
    std::free(Host);
    std::vector<void *> Small;
    for (int I = 0; I < 20000; ++I) {
      Small.push_back(std::malloc(200));
      std::memset(Small.back(), I, 200);
    }
    expectPattern(R.seen(In, Count), 16, "after the heap reused the memory");
    for (void *P : Small)
      std::free(P);
  }
  clReleaseMemObject(In);
}

// The buffer or the command released before any kernel used the write.
void release(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 17);
  cl_mem Dropped = R.buffer(Count);
  R.write(Dropped, Host.data(), Count);
  clReleaseMemObject(Dropped);
  fill(Host.data(), Count, 18); // no longer of any concern to libsplit
  cl_mem In = R.buffer(Count);
  cl_event Written = nullptr;
  CL_CHECK(
      clEnqueueWriteBuffer(R.Queue, In, CL_FALSE, 0, Count * 4, Host.data(), 0, nullptr, &Written));
  clReleaseEvent(Written);
  cl_mem Out = R.launchCopy(In, Count);
  clReleaseMemObject(In); // the enqueued kernel still holds it
  CL_CHECK(clFinish(R.Queue));
  fill(Host.data(), Count, 19);
  expectPattern(R.read(Out, Count), 18, "kernel saw the write of a released buffer");
  clReleaseMemObject(Out);
}

// Exits with work pending: an exit handler writes to and frees the deferred memory.
std::uint32_t *ExitHost = nullptr;
void atExit() {
  fill(ExitHost, Count, 21);
  std::free(ExitHost);
}
void exitPending(Rig &R) {
  ExitHost = static_cast<std::uint32_t *>(std::malloc(Count * 4));
  fill(ExitHost, Count, 20);
  cl_mem In = R.buffer(Count);
  R.write(In, ExitHost, Count);
  std::atexit(atExit);
  R.launchCopy(In, Count); // never waited for
  R.launchCopy(In, Count);
  std::printf("PASS exit\n");
  std::fflush(stdout);
  std::exit(0);
}

void forked(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 22);
  cl_mem In = R.buffer(Count);
  R.write(In, Host.data(), Count);
  int Pipe[2];
  expect(pipe(Pipe) == 0, "pipe");
  const pid_t Child = fork();
  if (Child == 0) {
    // The child writes its copy and reads into it; it uses no OpenCL.
    fill(Host.data(), Count, 23);
    const char Text[] = "from the child";
    if (::write(Pipe[1], Text, sizeof(Text)) != sizeof(Text))
      _exit(3);
    if (::read(Pipe[0], Host.data() + Count / 2, sizeof(Text)) != sizeof(Text))
      _exit(4);
    _exit(firstDifference(Host.data(), Count / 2, 23) == Count / 2 ? 0 : 5);
  }
  int Status = 0;
  expect(waitpid(Child, &Status, 0) == Child, "waitpid");
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    std::printf("  child status %d\n", Status);
  expect(WIFEXITED(Status) && WEXITSTATUS(Status) == 0, "the child ran correctly");
  expect(firstDifference(Host.data(), Count, 22) == Count, "the parent's array is untouched");
  fill(Host.data(), Count, 24);
  expectPattern(R.seen(In, Count), 22, "kernel in the parent sees the write");
  close(Pipe[0]);
  close(Pipe[1]);
  clReleaseMemObject(In);
}

sigjmp_buf AppJump;
std::atomic<void *> AppFault{nullptr};
std::atomic<int> AppFaults{0};
void appHandler(int, siginfo_t *Info, void *) {
  AppFault = Info->si_addr;
  AppFaults.fetch_add(1);
  siglongjmp(AppJump, 1);
}

void installAppHandler() {
  struct sigaction Action = {};
  Action.sa_sigaction = appHandler;
  Action.sa_flags = SA_SIGINFO;
  sigemptyset(&Action.sa_mask);
  expect(sigaction(SIGSEGV, &Action, nullptr) == 0, "install the app's SIGSEGV handler");
}

// The app's (or a JIT's) own SIGSEGV handler, installed before or after libsplit's.
void appHandlerScenario(Rig &R, bool Before) {
  if (Before)
    installAppHandler();
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 25);
  cl_mem In = R.buffer(Count);
  R.write(In, Host.data(), Count);
  if (!Before)
    installAppHandler();
  struct sigaction Current = {};
  sigaction(SIGSEGV, nullptr, &Current);
  expect((Current.sa_flags & SA_SIGINFO) && Current.sa_sigaction == appHandler,
         "sigaction() reports the app's own handler");
  fill(Host.data(), Count, 26); // libsplit's faults: the app's handler sees none
  expect(AppFaults.load() == 0, "the app's handler saw none of libsplit's faults");
  void *Guard = mmap(nullptr, Page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (volatile int Round = 0; Round < 3; Round = Round + 1)
    if (sigsetjmp(AppJump, 1) == 0) {
      static_cast<volatile char *>(Guard)[Round] = 1;
      expect(false, "a write to a read-only page did not fault");
    }
  expect(AppFaults.load() == 3, "the app's handler saw each of its own faults");
  expect(AppFault.load() == static_cast<char *>(Guard) + 2, "with the faulting address");
  expectPattern(R.seen(In, Count), 25, "kernel sees the write");
  munmap(Guard, Page);
  clReleaseMemObject(In);
}

// A real segmentation fault after a deferred write: the process must die of SIGSEGV. It is a
// write to a read-only page, the kind of fault libsplit's handler looks at.
void crash(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 27);
  cl_mem In = R.buffer(Count);
  R.write(In, Host.data(), Count);
  Host[Count / 2] = 0; // libsplit's fault, handled
  void *ReadOnly = mmap(nullptr, Page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  std::printf("crashing now\n");
  std::fflush(stdout);
  static_cast<volatile int *>(ReadOnly)[1] = 1;
  std::printf("FAIL: survived a null pointer write\n");
  std::exit(1);
}

// Sources that are not page-aligned, share pages with the app's other live data, or overlap.
void layout(Rig &R) {
  // One heap block: a neighbour, the source (unaligned both ends), another neighbour.
  const size_t Bytes = Count * 4 + 3 * Page;
  auto *Block = static_cast<std::uint8_t *>(std::malloc(Bytes));
  auto *Source = reinterpret_cast<std::uint32_t *>(Block + 100);
  auto *Before = reinterpret_cast<struct stat *>(Block);
  auto *After = reinterpret_cast<struct stat *>(Block + 100 + Count * 4);
  fill(Source, Count, 28);
  cl_mem In = R.buffer(Count);
  R.write(In, Source, Count);
  // The neighbours share the source's first and last pages; system calls write into them.
  expect(stat("/", Before) == 0 && stat("/tmp", After) == 0,
         "stat() into the data around the source");
  std::memset(Block + 100 + Count * 4 + sizeof(struct stat), 7, 64);
  fill(Source, Count, 29);
  expectPattern(R.seen(In, Count), 28, "kernel sees the unaligned source");
  std::free(Block);

  // Overlapping sources: two buffers written from overlapping parts of one array, a third
  // from the same bytes as the first; then parts of one buffer rewritten from elsewhere.
  std::vector<std::uint32_t> Host(2 * Count);
  fill(Host.data(), 2 * Count, 30);
  cl_mem A = R.buffer(Count), B = R.buffer(Count), C = R.buffer(Count);
  R.write(A, Host.data(), Count);
  R.write(B, Host.data() + Count / 2, Count);
  R.write(C, Host.data(), Count);
  std::vector<std::uint32_t> Patch(Count / 4);
  fill(Patch.data(), Count / 4, 31);
  R.write(A, Patch.data(), Count / 4, CL_TRUE, Count / 4); // A[N/4, N/2) from Patch
  std::vector<std::uint32_t> Expected(Count);
  for (size_t I = 0; I < Count; ++I) {
    const std::uint32_t InA =
        I >= Count / 4 && I < Count / 2 ? value(I - Count / 4, 31) : value(I, 30);
    Expected[I] = InA + value(I + Count / 2, 30);
  }
  fill(Host.data(), 2 * Count, 32);
  fill(Patch.data(), Count / 4, 33);
  expect(R.sum(A, B, Count) == Expected, "kernel sees overlapping and patched writes");
  expectPattern(R.seen(C, Count), 30, "kernel sees the write shared with another buffer");
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseMemObject(C);
}

// Rectangular writes with rows large enough to defer.
void rect(Rig &R) {
  const size_t Rows = 4, RowElements = Count / Rows, HostPitch = RowElements + 1024;
  std::vector<std::uint32_t> Host(Rows * HostPitch);
  for (size_t Row = 0; Row < Rows; ++Row)
    for (size_t I = 0; I < RowElements; ++I)
      Host[Row * HostPitch + I] = value(Row * RowElements + I, 34);
  cl_mem In = R.buffer(Count);
  const size_t Zero[3] = {0, 0, 0}, Region[3] = {RowElements * 4, Rows, 1};
  CL_CHECK(clEnqueueWriteBufferRect(R.Queue, In, CL_TRUE, Zero, Zero, Region, RowElements * 4, 0,
                                    HostPitch * 4, 0, Host.data(), 0, nullptr, nullptr));
  std::fill(Host.begin(), Host.end(), 0);
  expectPattern(R.seen(In, Count), 34, "kernel sees the rectangle");
  clReleaseMemObject(In);
}

// Deferred bytes read by the host-side paths: copy between buffers, map, partial fill.
void copyMap(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 35);
  cl_mem In = R.buffer(Count, CL_MEM_READ_WRITE);
  cl_mem Copy = R.buffer(Count, CL_MEM_READ_WRITE);
  R.write(In, Host.data(), Count);
  fill(Host.data(), Count, 36);
  CL_CHECK(clEnqueueCopyBuffer(R.Queue, In, Copy, 0, 0, Count * 4, 0, nullptr, nullptr));
  expectPattern(R.seen(Copy, Count), 35, "kernel sees the copy");
  R.write(In, Host.data(), Count);
  fill(Host.data(), Count, 37);
  cl_int Err = CL_SUCCESS;
  auto *Mapped = static_cast<std::uint32_t *>(clEnqueueMapBuffer(
      R.Queue, In, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, Count * 4, 0, nullptr, nullptr, &Err));
  CL_CHECK_ERR(Err, "clEnqueueMapBuffer");
  expect(firstDifference(Mapped, Count, 36) == Count, "the map shows the write");
  Mapped[0] = 1;
  CL_CHECK(clEnqueueUnmapMemObject(R.Queue, In, Mapped, 0, nullptr, nullptr));
  auto Seen = R.seen(In, Count);
  expect(Seen[0] == 1, "the mapped write");
  Seen[0] = value(0, 36);
  expectPattern(Seen, 36, "the rest of the map");
  // A mapped pointer (libsplit's own host copy under libsplit) as the source of a write, then
  // the mapped buffer written over by the host and by a device.
  fill(Host.data(), Count, 38);
  R.write(In, Host.data(), Count);
  Mapped = static_cast<std::uint32_t *>(clEnqueueMapBuffer(R.Queue, In, CL_TRUE, CL_MAP_READ, 0,
                                                           Count * 4, 0, nullptr, nullptr, &Err));
  CL_CHECK_ERR(Err, "clEnqueueMapBuffer");
  R.write(Copy, Mapped, Count);
  CL_CHECK(clEnqueueUnmapMemObject(R.Queue, In, Mapped, 0, nullptr, nullptr));
  fill(Host.data(), Count, 39);
  R.write(In, Host.data(), Count / 2, CL_TRUE, Count / 2);
  CL_CHECK(clEnqueueCopyBuffer(R.Queue, Copy, In, 0, 0, Count / 2 * 4, 0, nullptr, nullptr));
  expectPattern(R.seen(Copy, Count), 38, "kernel sees the write from a mapped pointer");
  auto Mixed = R.read(In, Count);
  expect(firstDifference(Mixed.data(), Count / 2, 38) == Count / 2, "the copied half");
  expect(firstDifference(Mixed.data() + Count / 2, Count / 2, 39) == Count / 2, "the written half");
  clReleaseMemObject(In);
  clReleaseMemObject(Copy);
}

// A kernel whose first work-items read the end of its input, its input written again between
// launches: the first write cannot guess where the bytes go (libsplit sends each device a share
// in buffer order), the second goes where the first launch used them. The whole data each time.
void placement(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  cl_mem In = R.buffer(Count);
  cl_mem Out = R.buffer(Count, CL_MEM_WRITE_ONLY);
  const cl_uint N = static_cast<cl_uint>(Count);
  CL_CHECK(clSetKernelArg(R.Reverse, 0, sizeof(cl_mem), &In));
  CL_CHECK(clSetKernelArg(R.Reverse, 1, sizeof(cl_mem), &Out));
  CL_CHECK(clSetKernelArg(R.Reverse, 2, sizeof(cl_uint), &N));
  for (std::uint32_t Seed = 40; Seed < 43; ++Seed) {
    fill(Host.data(), Count, Seed);
    R.write(In, Host.data(), Count);
    CL_CHECK(clEnqueueNDRangeKernel(R.Queue, R.Reverse, 1, nullptr, &Count, &Local, 0, nullptr,
                                    nullptr));
    std::vector<std::uint32_t> Back = R.read(Out, Count);
    std::reverse(Back.begin(), Back.end());
    expectPattern(Back, Seed, "the reversed input");
  }
  clReleaseMemObject(In);
  clReleaseMemObject(Out);
}

// A buffer on the app's memory (CL_MEM_USE_HOST_PTR): libsplit places its data at the creation,
// as an implementation may cache it; a change made through a map afterwards reaches the kernels,
// and a kernel's write reaches the app's memory through a map.
void hostPtr(Rig &R) {
  std::vector<std::uint32_t> Host(Count);
  fill(Host.data(), Count, 44);
  cl_mem In = R.buffer(Count, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Host.data());
  expectPattern(R.seen(In, Count), 44, "the app's memory at the creation");
  cl_int Err = CL_SUCCESS;
  auto *Mapped = static_cast<std::uint32_t *>(clEnqueueMapBuffer(
      R.Queue, In, CL_TRUE, CL_MAP_WRITE, 0, Count * 4, 0, nullptr, nullptr, &Err));
  CL_CHECK_ERR(Err, "clEnqueueMapBuffer");
  fill(Mapped, Count, 45);
  CL_CHECK(clEnqueueUnmapMemObject(R.Queue, In, Mapped, 0, nullptr, nullptr));
  expectPattern(R.seen(In, Count), 45, "the mapped write");
  std::vector<std::uint32_t> Other(Count);
  fill(Other.data(), Count, 46);
  cl_mem Source = R.buffer(Count, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, Other.data());
  CL_CHECK(clSetKernelArg(R.Copy, 0, sizeof(cl_mem), &Source));
  CL_CHECK(clSetKernelArg(R.Copy, 1, sizeof(cl_mem), &In));
  CL_CHECK(
      clEnqueueNDRangeKernel(R.Queue, R.Copy, 1, nullptr, &Count, &Local, 0, nullptr, nullptr));
  Mapped = static_cast<std::uint32_t *>(clEnqueueMapBuffer(R.Queue, In, CL_TRUE, CL_MAP_READ, 0,
                                                           Count * 4, 0, nullptr, nullptr, &Err));
  CL_CHECK_ERR(Err, "clEnqueueMapBuffer");
  expectPattern(std::vector<std::uint32_t>(Mapped, Mapped + Count), 46, "the kernel's write");
  CL_CHECK(clEnqueueUnmapMemObject(R.Queue, In, Mapped, 0, nullptr, nullptr));
  CL_CHECK(clFinish(R.Queue));
  clReleaseMemObject(Source);
  clReleaseMemObject(In);
}

} // namespace

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "--scenario NAME");
  const std::string Scenario = Opts.text("scenario", "basic");
  if (Scenario == "handler-before")
    installAppHandler(); // before anything of OpenCL (and so of libsplit) runs
  Rig R(Opts);
  if (Scenario == "basic")
    basic(R);
  else if (Scenario == "threads")
    threads(R);
  else if (Scenario == "syscalls")
    syscalls(R);
  else if (Scenario == "free")
    freed(R);
  else if (Scenario == "release")
    release(R);
  else if (Scenario == "exit")
    exitPending(R);
  else if (Scenario == "fork")
    forked(R);
  else if (Scenario == "handler-before")
    appHandlerScenario(R, true);
  else if (Scenario == "handler-after")
    appHandlerScenario(R, false);
  else if (Scenario == "crash")
    crash(R);
  else if (Scenario == "layout")
    layout(R);
  else if (Scenario == "rect")
    rect(R);
  else if (Scenario == "copy-map")
    copyMap(R);
  else if (Scenario == "placement")
    placement(R);
  else if (Scenario == "host-ptr")
    hostPtr(R);
  else
    app::fail("unknown --scenario");
  if (Failed)
    return app::ExitWrongResult;
  std::printf("PASS %s\n", Scenario.c_str());
  return app::ExitCorrect;
}
