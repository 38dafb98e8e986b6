// The deferred-write core without OpenCL: faults preserve pages exactly once, partial end pages
// are never protected, system calls and hand-backs settle first, overlapping writes share pages,
// retiring unprotects, and faults that are not libsplit's reach the app's handler or kill the
// process with SIGSEGV. (No libc wrappers here: this executable calls libc directly, which is
// how the EFAULT hazard is shown.)
#include "deferred_writes.hpp"
#include "memory_map.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace libsplit;

namespace {

const std::size_t Page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

// Page-aligned anonymous memory, unmapped at the end.
class Mapping {
public:
  explicit Mapping(std::size_t Bytes, int Protection = PROT_READ | PROT_WRITE,
                   int Flags = MAP_PRIVATE | MAP_ANONYMOUS)
      : Bytes(Bytes) {
    Base = static_cast<std::uint8_t *>(mmap(nullptr, Bytes, Protection, Flags, -1, 0));
    REQUIRE(Base != MAP_FAILED);
  }
  ~Mapping() {
    if (Base)
      munmap(Base, Bytes);
  }
  std::uint8_t *data() const { return Base; }
  void forget() { Base = nullptr; }

private:
  std::uint8_t *Base = nullptr;
  std::size_t Bytes;
};

void fillPattern(std::uint8_t *Data, std::size_t Bytes, unsigned Seed) {
  for (std::size_t I = 0; I < Bytes; ++I)
    Data[I] = static_cast<std::uint8_t>((I * 131 + Seed) >> 3);
}

std::vector<std::uint8_t> pattern(std::size_t Bytes, unsigned Seed) {
  std::vector<std::uint8_t> Out(Bytes);
  fillPattern(Out.data(), Bytes, Seed);
  return Out;
}

std::vector<std::uint8_t> readBack(const PendingWrite &W) {
  std::vector<std::uint8_t> Out(W.length());
  W.copyOut(0, W.length(), Out.data());
  return Out;
}

std::shared_ptr<PendingWrite> deferOrFail(DeferredWrites &Registry, const void *Source,
                                          std::size_t Bytes) {
  std::string Why;
  auto W = Registry.defer(Source, Bytes, Why);
  INFO(Why);
  REQUIRE(W);
  return W;
}

} // namespace

TEST_CASE("a write fault preserves the page, then the write lands", "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(16 * Page);
  fillPattern(Memory.data(), 16 * Page, 1);
  const auto Original = pattern(16 * Page, 1);
  auto W = deferOrFail(Registry, Memory.data(), 16 * Page);
  Memory.data()[3 * Page + 7] = 0xAB;
  Memory.data()[9 * Page] = 0xCD;
  CHECK(Memory.data()[3 * Page + 7] == 0xAB);
  CHECK(Memory.data()[9 * Page] == 0xCD);
  CHECK(readBack(*W) == Original);
  CHECK(Registry.totals().PagesOnFault == 2);
  Memory.data()[3 * Page + 8] = 0xEF; // already writable: no second fault
  CHECK(Registry.totals().PagesOnFault == 2);
  CHECK(readBack(*W) == Original);
}

TEST_CASE("partial end pages are copied at once and never protected", "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(8 * Page);
  // Starts mid-page and ends mid-page: the app's other data shares the end pages.
  std::uint8_t *Source = Memory.data() + 100;
  const std::size_t Bytes = 6 * Page + 200;
  fillPattern(Source, Bytes, 2);
  const auto Original = pattern(Bytes, 2);
  auto W = deferOrFail(Registry, Source, Bytes);
  CHECK(W->protectedBegin() == reinterpret_cast<std::uintptr_t>(Memory.data() + Page));
  CHECK(W->protectedEnd() == reinterpret_cast<std::uintptr_t>(Memory.data() + 6 * Page));
  Memory.data()[50] = 1;           // neighbour data before the source
  Source[0] = 2;                   // the source's own first (partial) page
  Source[Bytes - 1] = 3;           // its last (partial) page
  Memory.data()[7 * Page - 1] = 4; // neighbour data after it
  CHECK(Registry.totals().PagesOnFault == 0);
  // A system call into the neighbour data works: it is never protected.
  int Pipe[2];
  REQUIRE(pipe(Pipe) == 0);
  REQUIRE(write(Pipe[1], "xyz", 3) == 3);
  CHECK(read(Pipe[0], Memory.data() + 10, 3) == 3);
  close(Pipe[0]);
  close(Pipe[1]);
  CHECK(readBack(*W) == Original);
}

TEST_CASE("threads faulting on one page at once: preserved once, before any write", "[deferral]") {
  DeferredWrites Registry(Page);
  constexpr std::size_t Pages = 64;
  constexpr int Threads = 8;
  Mapping Memory(Pages * Page);
  fillPattern(Memory.data(), Pages * Page, 3);
  const auto Original = pattern(Pages * Page, 3);
  auto W = deferOrFail(Registry, Memory.data(), Pages * Page);
  std::atomic<int> Ready{0};
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      for (std::size_t P = 0; P < Pages; ++P) {
        // All threads reach each page together.
        Ready.fetch_add(1);
        while (Ready.load() < static_cast<int>((P + 1) * Threads))
          ;
        Memory.data()[P * Page + static_cast<std::size_t>(T) * 8] = static_cast<std::uint8_t>(T);
      }
    });
  for (std::thread &T : Workers)
    T.join();
  CHECK(Registry.totals().PagesOnFault == Pages);
  CHECK(readBack(*W) == Original);
  for (std::size_t P = 0; P < Pages; ++P)
    for (int T = 0; T < Threads; ++T)
      CHECK(Memory.data()[P * Page + static_cast<std::size_t>(T) * 8] == T);
}

TEST_CASE("a system call into a protected page fails unless the range is settled first",
          "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(4 * Page);
  fillPattern(Memory.data(), 4 * Page, 4);
  const auto Original = pattern(4 * Page, 4);
  auto W = deferOrFail(Registry, Memory.data(), 4 * Page);
  int Pipe[2];
  REQUIRE(pipe(Pipe) == 0);
  std::vector<char> Message(2 * Page, 'm');
  REQUIRE(write(Pipe[1], Message.data(), Message.size()) == static_cast<ssize_t>(Message.size()));
  // The hazard: the kernel does not fault, it refuses.
  errno = 0;
  CHECK(read(Pipe[0], Memory.data() + Page, 2 * Page) == -1);
  CHECK(errno == EFAULT);
  // What the libc wrappers do.
  Registry.settle(Memory.data() + Page, 2 * Page, DeferredWrites::Settle::BeforeWrite);
  CHECK(read(Pipe[0], Memory.data() + Page, 2 * Page) == static_cast<ssize_t>(2 * Page));
  close(Pipe[0]);
  close(Pipe[1]);
  CHECK(Memory.data()[Page] == 'm');
  CHECK(Registry.totals().PagesBeforeWrite == 2);
  CHECK(readBack(*W) == Original);
}

TEST_CASE("memory handed back: preserved first, its later faults are not libsplit's",
          "[deferral]") {
  DeferredWrites Registry(Page);
  auto *Memory = static_cast<std::uint8_t *>(
      mmap(nullptr, 4 * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(Memory != MAP_FAILED);
  fillPattern(Memory, 4 * Page, 5);
  const auto Original = pattern(4 * Page, 5);
  auto W = deferOrFail(Registry, Memory, 4 * Page);
  Registry.settle(Memory, 4 * Page, DeferredWrites::Settle::HandBack);
  REQUIRE(munmap(Memory, 4 * Page) == 0);
  CHECK(Registry.totals().PagesHandedBack == 4);
  CHECK(readBack(*W) == Original);
  // The same addresses mapped again read-only by the app: a write there is the app's fault.
  void *Again = mmap(Memory, 4 * Page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  REQUIRE(Again == Memory);
  CHECK(Registry.onFault(Memory + Page) != DeferredWrites::FaultVerdict::Handled);
  munmap(Memory, 4 * Page);
}

TEST_CASE("overlapping writes share pages; each keeps its own bytes", "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(12 * Page);
  fillPattern(Memory.data(), 12 * Page, 6);
  const auto Whole = pattern(12 * Page, 6);
  auto First = deferOrFail(Registry, Memory.data(), 8 * Page);
  auto Second = deferOrFail(Registry, Memory.data() + 4 * Page + 10, 8 * Page - 10);
  auto Third = deferOrFail(Registry, Memory.data(), 12 * Page); // the same bytes again
  for (std::size_t P = 0; P < 12; ++P)
    Memory.data()[P * Page + 1] = 0xFF;
  CHECK(readBack(*First) == std::vector<std::uint8_t>(Whole.begin(), Whole.begin() + 8 * Page));
  CHECK(readBack(*Second) == std::vector<std::uint8_t>(Whole.begin() + 4 * Page + 10, Whole.end()));
  CHECK(readBack(*Third) == Whole);
  // One fault per page, however many writes cover it.
  CHECK(Registry.totals().PagesOnFault <= 12 * 3);
  CHECK(Registry.totals().PagesOnFault >= 12);
}

TEST_CASE("dropped and retired bytes unprotect the pages no write still needs", "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(8 * Page);
  auto W = deferOrFail(Registry, Memory.data(), 8 * Page);
  auto Other = deferOrFail(Registry, Memory.data() + 6 * Page, 2 * Page);
  // Bytes 0..4 pages overwritten in the buffer: those pages go back to the app.
  CHECK(W->drop(0, 4 * Page + 5)); // page 4 keeps needed bytes
  Memory.data()[Page] = 1;
  CHECK(Registry.totals().PagesOnFault == 0);
  Memory.data()[4 * Page + 100] = 1;
  CHECK(Registry.totals().PagesOnFault == 1);
  W.reset(); // retired whole: pages 5 unprotected, 6 and 7 still needed by Other
  Memory.data()[5 * Page] = 1;
  CHECK(Registry.totals().PagesOnFault == 1);
  Memory.data()[7 * Page] = 1;
  CHECK(Registry.totals().PagesOnFault == 2);
  CHECK_FALSE(Other->drop(0, 2 * Page));
}

TEST_CASE("after many faults on one write the rest is preserved at once", "[deferral]") {
  DeferredWrites Registry(Page, 4);
  Mapping Memory(32 * Page);
  fillPattern(Memory.data(), 32 * Page, 7);
  const auto Original = pattern(32 * Page, 7);
  auto W = deferOrFail(Registry, Memory.data(), 32 * Page);
  for (std::size_t P = 0; P < 32; ++P)
    Memory.data()[P * Page] = 0;
  CHECK(Registry.totals().BulkSettles == 1);
  CHECK(Registry.totals().PagesOnFault == 32);
  CHECK(readBack(*W) == Original);
}

TEST_CASE("a reader learns that a piece it read from the app's memory may have changed",
          "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(4 * Page);
  fillPattern(Memory.data(), 4 * Page, 8);
  auto W = deferOrFail(Registry, Memory.data(), 4 * Page);
  PendingWrite::ReadScope Reading(*W);
  const auto Pieces = W->pieces(0, 4 * Page);
  REQUIRE(Pieces.size() == 1);
  CHECK(Pieces[0].FromApp);
  CHECK(W->unchanged(Pieces[0]));
  Memory.data()[2 * Page] = 9; // as if during the reader's transfer
  CHECK_FALSE(W->unchanged(Pieces[0]));
  const auto After = W->pieces(0, 4 * Page);
  REQUIRE(After.size() == 3); // app, staging (page 2), app
  CHECK_FALSE(After[1].FromApp);
}

namespace {
sigjmp_buf AppJump;
std::atomic<void *> AppFaultAddress{nullptr};
void appHandler(int, siginfo_t *Info, void *) {
  AppFaultAddress = Info->si_addr;
  siglongjmp(AppJump, 1);
}
} // namespace

TEST_CASE("faults that are not libsplit's reach the app's own handler", "[deferral]") {
  struct sigaction App = {}, Before = {};
  App.sa_sigaction = appHandler;
  App.sa_flags = SA_SIGINFO;
  sigemptyset(&App.sa_mask);
  REQUIRE(sigaction(SIGSEGV, &App, &Before) == 0);
  {
    DeferredWrites Registry(Page);
    Mapping Memory(4 * Page);
    Mapping ReadOnly(Page, PROT_READ);
    auto W = deferOrFail(Registry, Memory.data(), 4 * Page);
    Memory.data()[Page] = 1; // libsplit's: the app's handler does not see it
    CHECK(AppFaultAddress.load() == nullptr);
    if (sigsetjmp(AppJump, 1) == 0) {
      ReadOnly.data()[12] = 1; // the app's own read-only page
      FAIL("the write to a read-only page did not fault");
    }
    CHECK(AppFaultAddress.load() == ReadOnly.data() + 12);
    Memory.data()[2 * Page] = 1; // libsplit's handler is still in front
    CHECK(Registry.totals().PagesOnFault == 2);
  }
  sigaction(SIGSEGV, &Before, nullptr);
}

TEST_CASE("a real segmentation fault still kills the process with SIGSEGV", "[deferral]") {
  const pid_t Child = fork();
  REQUIRE(Child >= 0);
  if (Child == 0) {
    signal(SIGSEGV, SIG_DFL);
    DeferredWrites Registry(Page);
    Mapping Memory(4 * Page);
    std::string Why;
    auto W = Registry.defer(Memory.data(), 4 * Page, Why);
    if (!W)
      _exit(2);
    Memory.data()[Page] = 1; // libsplit's fault: handled
    // A write to a read-only page that is not libsplit's: the kind of fault it looks at.
    Mapping ReadOnly(Page, PROT_READ);
    static_cast<volatile int *>(static_cast<void *>(ReadOnly.data()))[1] = 1;
    _exit(3);
  }
  int Status = 0;
  REQUIRE(waitpid(Child, &Status, 0) == Child);
  CHECK(WIFSIGNALED(Status));
  CHECK(WTERMSIG(Status) == SIGSEGV);
}

TEST_CASE("a fork child faults on its own copy; the parent's pending bytes stay intact",
          "[deferral]") {
  DeferredWrites Registry(Page);
  Mapping Memory(8 * Page);
  fillPattern(Memory.data(), 8 * Page, 9);
  const auto Original = pattern(8 * Page, 9);
  auto W = deferOrFail(Registry, Memory.data(), 8 * Page);
  const pid_t Child = fork();
  REQUIRE(Child >= 0);
  if (Child == 0) {
    for (std::size_t P = 0; P < 8; ++P)
      Memory.data()[P * Page] = 0xEE;
    std::vector<std::uint8_t> Seen(8 * Page);
    W->copyOut(0, 8 * Page, Seen.data());
    _exit(Seen == Original && Memory.data()[0] == 0xEE ? 0 : 1);
  }
  int Status = 0;
  REQUIRE(waitpid(Child, &Status, 0) == Child);
  CHECK(WIFEXITED(Status));
  CHECK(WEXITSTATUS(Status) == 0);
  CHECK(Registry.totals().PagesOnFault == 0); // the child's faults were its own
  Memory.data()[0] = 1;
  CHECK(readBack(*W) == Original);
}

namespace {
const char ReadOnlyData[64 * 1024] = {1};
}

TEST_CASE("only private writable memory that is not a stack may be protected", "[deferral]") {
  Mapping Private(4 * Page);
  CHECK(isPrivateWritableMemory(reinterpret_cast<std::uintptr_t>(Private.data()),
                                reinterpret_cast<std::uintptr_t>(Private.data() + 4 * Page)));
  Mapping Shared(4 * Page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS);
  CHECK_FALSE(isPrivateWritableMemory(reinterpret_cast<std::uintptr_t>(Shared.data()),
                                      reinterpret_cast<std::uintptr_t>(Shared.data() + Page)));
  Mapping ReadOnly(4 * Page, PROT_READ);
  CHECK_FALSE(isPrivateWritableMemory(reinterpret_cast<std::uintptr_t>(ReadOnly.data()),
                                      reinterpret_cast<std::uintptr_t>(ReadOnly.data() + Page)));
  const auto Constant = reinterpret_cast<std::uintptr_t>(ReadOnlyData);
  const std::uintptr_t ConstantPage = (Constant + Page - 1) & ~(Page - 1);
  CHECK_FALSE(isPrivateWritableMemory(ConstantPage, ConstantPage + Page));
  const auto Code = reinterpret_cast<std::uintptr_t>(&isPrivateWritableMemory) & ~(Page - 1);
  CHECK_FALSE(isPrivateWritableMemory(Code, Code + Page));
  char OnStack[2 * 4096];
  const auto Local = reinterpret_cast<std::uintptr_t>(OnStack) & ~(Page - 1);
  CHECK_FALSE(isPrivateWritableMemory(Local, Local + Page));
  CHECK(onCallingThreadStack(OnStack, sizeof(OnStack)));
  CHECK_FALSE(onCallingThreadStack(Private.data(), Page));
  bool OtherThreadSees = true;
  std::thread([&] { OtherThreadSees = onCallingThreadStack(OnStack, sizeof(OnStack)); }).join();
  CHECK_FALSE(OtherThreadSees);
}
