// Preloaded before libsplit by e2e.escaped-exceptions: the allocations that libsplit's own code
// makes throw std::bad_alloc, as they do when host memory runs out, at a chosen one. The app
// arms it (throwing_new_arm: the First-th allocation from libsplit.so on after the call, and
// the Count - 1 after it, on any thread), so that the setup before runs as usual; allocations
// made by other libraries (the drivers, their compilers) never throw. At exit it says how many
// it made throw.
#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

std::atomic<std::uintptr_t> LibraryStart{0}, LibraryEnd{0};
std::atomic<long> Seen{0}, ThrowFrom{-1}, ThrowUntil{-1}, Thrown{0};
std::atomic<bool> Armed{false};

int findLibrary(dl_phdr_info *Info, std::size_t, void *) {
  const char *Name = Info->dlpi_name;
  const std::size_t Length = Name ? std::strlen(Name) : 0;
  if (Length < 11 || std::strcmp(Name + Length - 11, "libsplit.so") != 0)
    return 0;
  std::uintptr_t Low = UINTPTR_MAX, High = 0;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Segment = Info->dlpi_phdr[I];
    if (Segment.p_type != PT_LOAD)
      continue;
    const std::uintptr_t Start = Info->dlpi_addr + Segment.p_vaddr;
    Low = Start < Low ? Start : Low;
    High = Start + Segment.p_memsz > High ? Start + Segment.p_memsz : High;
  }
  LibraryStart = Low;
  LibraryEnd = High;
  return 1;
}

bool fromLibsplit(const void *Caller) {
  const auto Address = reinterpret_cast<std::uintptr_t>(Caller);
  return Address >= LibraryStart.load(std::memory_order_relaxed) &&
         Address < LibraryEnd.load(std::memory_order_relaxed);
}

// Whether this allocation, made from Caller, is one to fail.
bool failThis(const void *Caller) {
  if (ThrowFrom.load(std::memory_order_relaxed) < 0 || !fromLibsplit(Caller))
    return false;
  const long Number = Seen.fetch_add(1);
  if (Number < ThrowFrom.load() || Number >= ThrowUntil.load())
    return false;
  Thrown.fetch_add(1);
  return true;
}

void *allocate(std::size_t Bytes, std::size_t Alignment) {
  if (Bytes == 0)
    Bytes = 1;
  if (Alignment <= alignof(std::max_align_t))
    return std::malloc(Bytes);
  void *Memory = nullptr;
  return posix_memalign(&Memory, Alignment, Bytes) == 0 ? Memory : nullptr;
}

struct Report {
  ~Report() {
    if (Armed.load())
      std::fprintf(stderr, "throwing_new: %ld allocations from libsplit failed\n", Thrown.load());
  }
} AtExit;

} // namespace

extern "C" __attribute__((visibility("default"))) void throwing_new_arm(long First, long Count) {
  if (LibraryEnd.load() == 0)
    dl_iterate_phdr(findLibrary, nullptr);
  Armed = true;
  Seen = 0;
  ThrowUntil = First + Count;
  ThrowFrom = First;
}

extern "C" __attribute__((visibility("default"))) void throwing_new_disarm() { ThrowFrom = -1; }

#define THROWING_NEW_BODY(Alignment)                                                               \
  if (failThis(__builtin_return_address(0)))                                                       \
    throw std::bad_alloc();                                                                        \
  if (void *Memory = allocate(Bytes, Alignment))                                                   \
    return Memory;                                                                                 \
  throw std::bad_alloc();

#define NOTHROW_NEW_BODY(Alignment)                                                                \
  if (failThis(__builtin_return_address(0)))                                                       \
    return nullptr;                                                                                \
  return allocate(Bytes, Alignment);

void *operator new(std::size_t Bytes) { THROWING_NEW_BODY(0) }
void *operator new[](std::size_t Bytes) { THROWING_NEW_BODY(0) }
void *operator new(std::size_t Bytes, std::align_val_t Align) {
  THROWING_NEW_BODY(static_cast<std::size_t>(Align))
}
void *operator new[](std::size_t Bytes, std::align_val_t Align) {
  THROWING_NEW_BODY(static_cast<std::size_t>(Align))
}
void *operator new(std::size_t Bytes, const std::nothrow_t &) noexcept { NOTHROW_NEW_BODY(0) }
void *operator new[](std::size_t Bytes, const std::nothrow_t &) noexcept { NOTHROW_NEW_BODY(0) }
void *operator new(std::size_t Bytes, std::align_val_t Align, const std::nothrow_t &) noexcept {
  NOTHROW_NEW_BODY(static_cast<std::size_t>(Align))
}
void *operator new[](std::size_t Bytes, std::align_val_t Align, const std::nothrow_t &) noexcept {
  NOTHROW_NEW_BODY(static_cast<std::size_t>(Align))
}
void operator delete(void *Memory) noexcept { std::free(Memory); }
void operator delete[](void *Memory) noexcept { std::free(Memory); }
void operator delete(void *Memory, std::size_t) noexcept { std::free(Memory); }
void operator delete[](void *Memory, std::size_t) noexcept { std::free(Memory); }
void operator delete(void *Memory, std::align_val_t) noexcept { std::free(Memory); }
void operator delete[](void *Memory, std::align_val_t) noexcept { std::free(Memory); }
void operator delete(void *Memory, std::size_t, std::align_val_t) noexcept { std::free(Memory); }
void operator delete[](void *Memory, std::size_t, std::align_val_t) noexcept { std::free(Memory); }
