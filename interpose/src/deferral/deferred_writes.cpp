#include "deferred_writes.hpp"

#include "memory_map.hpp"
#include "raw_syscalls.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace libsplit {

namespace {

// The registry that the SIGSEGV handler and the libc wrappers use. Process-wide because
// signals and libc calls are; the wrappers must reach it without constructing the Runtime (a
// free() during start-up must not start libsplit).
std::atomic<DeferredWrites *> ActiveRegistry{nullptr};

std::uintptr_t addressOf(const void *Pointer) { return reinterpret_cast<std::uintptr_t>(Pointer); }

std::size_t systemPageSize() {
  const long Size = sysconf(_SC_PAGESIZE);
  return Size > 0 ? static_cast<std::size_t>(Size) : 4096;
}

// Blocks every signal for its lifetime: a signal handler that wrote to a page this thread is
// preserving would wait for it forever.
class SignalsBlocked {
public:
  SignalsBlocked() {
    sigset_t All;
    sigfillset(&All);
    libcSignalMask(SIG_SETMASK, &All, &Saved);
  }
  ~SignalsBlocked() { libcSignalMask(SIG_SETMASK, &Saved, nullptr); }
  SignalsBlocked(const SignalsBlocked &) = delete;
  SignalsBlocked &operator=(const SignalsBlocked &) = delete;

private:
  sigset_t Saved;
};

class InFlightScope {
public:
  explicit InFlightScope(std::atomic<int> &Count) : Count(Count) { Count.fetch_add(1); }
  ~InFlightScope() { Count.fetch_sub(1); }
  InFlightScope(const InFlightScope &) = delete;
  InFlightScope &operator=(const InFlightScope &) = delete;

private:
  std::atomic<int> &Count;
};

} // namespace

DeferredWrites::DeferredWrites(std::size_t MinBytes, unsigned BulkAfterFaults)
    : PageSize(systemPageSize()), MinBytes(MinBytes), BulkAfterFaults(BulkAfterFaults) {}

DeferredWrites::~DeferredWrites() {
  DeferredWrites *Self = this;
  ActiveRegistry.compare_exchange_strong(Self, nullptr);
  Segv.dropClaimer();
  waitForHandlers();
}

DeferredWrites *DeferredWrites::active() noexcept {
  return ActiveRegistry.load(std::memory_order_acquire);
}

std::shared_ptr<PendingWrite> DeferredWrites::defer(const void *Source, std::size_t Length,
                                                    std::string &WhyNot) {
  if (Length < MinBytes) {
    WhyNot = "smaller than " + std::to_string(MinBytes) + " bytes";
    return nullptr;
  }
  const std::uintptr_t Begin = addressOf(Source);
  const std::uintptr_t ProtectedBegin = (Begin + PageSize - 1) & ~(PageSize - 1);
  const std::uintptr_t ProtectedEnd = (Begin + Length) & ~(PageSize - 1);
  if (ProtectedEnd <= ProtectedBegin) {
    WhyNot = "holds no whole page";
    return nullptr;
  }
  std::shared_ptr<PendingWrite> W;         // released after the lock: its destructor takes it
  std::lock_guard<std::mutex> Lock(Mutex); // also keeps the writes OursReadOnly looks at alive
  // Pages that pending writes of the same bytes protect show as read-only: they count.
  auto OursReadOnly = [this](std::uintptr_t From, std::uintptr_t To) {
    for (std::uintptr_t Page = pageOf(From); Page < To; Page += PageSize) {
      bool Protects = false;
      forEachCovering(Page, [&](PendingWrite &Other, std::size_t Index) {
        Protects |= Other.state(Index) == PendingWrite::PageState::Protected;
      });
      if (!Protects)
        return false;
    }
    return true;
  };
  if (!isPrivateWritableMemory(ProtectedBegin, ProtectedEnd, OursReadOnly)) {
    WhyNot = "not in private writable memory (code, read-only data, a shared mapping, a stack)";
    return nullptr;
  }
  if (!Segv.install(*this)) {
    WhyNot = "libsplit's SIGSEGV handler could not be installed";
    return nullptr;
  }
  std::size_t Slot = 0;
  while (Slot < Capacity && Slots[Slot].load(std::memory_order_relaxed))
    ++Slot;
  if (Slot == Capacity) {
    WhyNot = "too many pending writes (" + std::to_string(Capacity) + ")";
    return nullptr;
  }
  W = std::make_shared<PendingWrite>(*this, static_cast<const std::uint8_t *>(Source), Length,
                                     PageSize);
  if (!W->reserved()) {
    WhyNot = "its staging area could not be reserved";
    return nullptr;
  }
  W->Slot = Slot;
  W->Published = true;
  Ranges[Slot].Begin.store(ProtectedBegin, std::memory_order_release);
  Ranges[Slot].End.store(ProtectedEnd, std::memory_order_release);
  Slots[Slot].store(W.get(), std::memory_order_release);
  if (SlotsUsed.load(std::memory_order_relaxed) <= Slot)
    SlotsUsed.store(Slot + 1, std::memory_order_release);
  Published.fetch_add(1);
  DeferredWrites *None = nullptr;
  ActiveRegistry.compare_exchange_strong(None, this);
  static std::once_flag AtFork;
  std::call_once(AtFork, [] {
    pthread_atfork(nullptr, nullptr, [] {
      if (DeferredWrites *Registry = active())
        Registry->afterForkInChild();
    });
  });
  // Published before protected: a fault handler that sees the page read-only finds the write.
  if (raw::protect(ProtectedBegin, ProtectedEnd - ProtectedBegin, PROT_READ) != 0) {
    WhyNot = std::string("mprotect failed: ") + std::strerror(errno);
    // A failed mprotect may have changed part of the range; the range was rw-p.
    raw::protect(ProtectedBegin, ProtectedEnd - ProtectedBegin, PROT_READ | PROT_WRITE);
    Slots[Slot].store(nullptr, std::memory_order_release);
    Ranges[Slot].End.store(0, std::memory_order_release);
    Published.fetch_sub(1);
    W->Published = false;
    waitForHandlers();
    return nullptr;
  }
  CountWrites.fetch_add(1, std::memory_order_relaxed);
  CountBytes.fetch_add(Length, std::memory_order_relaxed);
  return W;
}

template <typename Fn> void DeferredWrites::forEachCovering(std::uintptr_t Page, Fn &&Visit) const {
  const std::size_t Used = SlotsUsed.load(std::memory_order_acquire);
  for (std::size_t I = 0; I < Used; ++I) {
    PendingWrite *W = Slots[I].load(std::memory_order_acquire);
    if (W && Page >= W->ProtectedBegin && Page < W->ProtectedEnd)
      Visit(*W, (Page - W->ProtectedBegin) / PageSize);
  }
}

void DeferredWrites::countPreserved(Cause Why) noexcept {
  switch (Why) {
  case Cause::Fault:
    CountOnFault.fetch_add(1, std::memory_order_relaxed);
    break;
  case Cause::BeforeWrite:
    CountBeforeWrite.fetch_add(1, std::memory_order_relaxed);
    break;
  case Cause::HandBack:
    CountHandedBack.fetch_add(1, std::memory_order_relaxed);
    break;
  }
}

DeferredWrites::Claim DeferredWrites::claimPage(std::uintptr_t Page, Cause Why,
                                                bool MakeWritable) noexcept {
  bool Covered = false, Claimable = false;
  for (;;) {
    forEachCovering(Page, [&](PendingWrite &W, std::size_t Index) {
      Covered = true;
      bool Copied = false;
      const PendingWrite::PageState S = W.preserve(Index, Copied);
      if (Copied)
        countPreserved(Why);
      if (S != PendingWrite::PageState::Preserved)
        return;
      Claimable = true;
      if (Why == Cause::HandBack) {
        auto Expected = static_cast<std::uint8_t>(PendingWrite::PageState::Preserved);
        W.States[Index].compare_exchange_strong(
            Expected, static_cast<std::uint8_t>(PendingWrite::PageState::Released));
      }
    });
    if (!Claimable || !MakeWritable)
      break;
    if (raw::protect(Page, PageSize, PROT_READ | PROT_WRITE) != 0) {
      // Unprotecting single pages splits mappings; at the kernel's limit of mappings
      // (ENOMEM) unprotect the covering writes whole, which merges them back.
      forEachCovering(Page, [&](PendingWrite &W, std::size_t) {
        settleRange(W.ProtectedBegin, W.ProtectedEnd, Why);
      });
      if (raw::protect(Page, PageSize, PROT_READ | PROT_WRITE) != 0)
        return Claim::NotOurs;
    }
    // A write recorded meanwhile may have protected the page again: preserve it too.
    bool ProtectedAgain = false;
    forEachCovering(Page, [&](PendingWrite &W, std::size_t Index) {
      ProtectedAgain |= W.state(Index) == PendingWrite::PageState::Protected;
    });
    if (!ProtectedAgain)
      break;
  }
  return Claimable ? Claim::Claimed : Covered ? Claim::Released : Claim::NotOurs;
}

DeferredWrites::FaultVerdict DeferredWrites::onFault(void *Address) noexcept {
  InFlightScope Looking(InFlight);
  const std::uintptr_t Page = pageOf(addressOf(Address));
  const Claim C = claimPage(Page, Cause::Fault, true);
  if (C == Claim::Claimed) {
    if (BulkAfterFaults)
      forEachCovering(Page, [&](PendingWrite &W, std::size_t) {
        if (W.Faults.fetch_add(1) + 1 == BulkAfterFaults) {
          CountBulk.fetch_add(1, std::memory_order_relaxed);
          settleRange(W.ProtectedBegin, W.ProtectedEnd, Cause::Fault);
        }
      });
    return FaultVerdict::Handled;
  }
  if (C == Claim::Released || recentlyReleased(Page))
    return FaultVerdict::WasOurs;
  return FaultVerdict::NotOurs;
}

void DeferredWrites::settle(const void *Address, std::size_t Length, Settle Why) noexcept {
  if (!Length || !anyPending())
    return;
  const std::uintptr_t Begin = addressOf(Address);
  const std::uintptr_t End = Begin + Length < Begin ? UINTPTR_MAX : Begin + Length;
  settleRange(Begin, End, Why == Settle::HandBack ? Cause::HandBack : Cause::BeforeWrite);
}

void DeferredWrites::settleRange(std::uintptr_t Begin, std::uintptr_t End, Cause Why) noexcept {
  Begin = pageOf(Begin);
  End = End > UINTPTR_MAX - PageSize ? pageOf(End) : pageOf(End + PageSize - 1);
  // Most calls (every free() while anything is pending) touch no pending page: tell from the
  // slots' ranges alone, without the shared InFlight count that every thread would contend on.
  const std::size_t Used = SlotsUsed.load(std::memory_order_acquire);
  bool Any = false;
  for (std::size_t I = 0; I < Used && !Any; ++I)
    Any = Ranges[I].Begin.load(std::memory_order_acquire) < End &&
          Ranges[I].End.load(std::memory_order_acquire) > Begin;
  if (!Any)
    return;
  InFlightScope Looking(InFlight);
  auto overlaps = [&](const PendingWrite &W) {
    return W.ProtectedBegin < End && W.ProtectedEnd > Begin;
  };
  SignalsBlocked Quiet;
  for (std::size_t I = 0; I < Used; ++I) {
    const PendingWrite *W = Slots[I].load(std::memory_order_acquire);
    if (!W || !overlaps(*W))
      continue;
    // Preserve page by page, unprotect in runs (one system call per run).
    const std::uintptr_t First = std::max(Begin, W->ProtectedBegin);
    const std::uintptr_t Last = std::min(End, W->ProtectedEnd);
    std::uintptr_t RunStart = 0;
    for (std::uintptr_t Page = First; Page <= Last; Page += PageSize) {
      const bool Ours = Page < Last && claimPage(Page, Why, false) == Claim::Claimed;
      if (Ours && !RunStart)
        RunStart = Page;
      if (!Ours && RunStart) {
        raw::protect(RunStart, Page - RunStart, PROT_READ | PROT_WRITE);
        RunStart = 0;
      }
    }
  }
  // A write recorded meanwhile may have protected some of these pages again.
  for (std::size_t I = 0; I < Used; ++I) {
    const PendingWrite *W = Slots[I].load(std::memory_order_acquire);
    if (!W || !overlaps(*W))
      continue;
    const std::uintptr_t First = std::max(Begin, W->ProtectedBegin);
    const std::uintptr_t Last = std::min(End, W->ProtectedEnd);
    for (std::uintptr_t Page = First; Page < Last; Page += PageSize)
      if (W->state((Page - W->ProtectedBegin) / PageSize) == PendingWrite::PageState::Protected)
        claimPage(Page, Why, true);
  }
  if (Why != Cause::HandBack)
    return;
  // The memory is about to go: readers of these pages must be done with them. The fence pairs
  // with ReadScope's increment: a reader either is counted here or sees the pages preserved.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (std::size_t I = 0; I < Used; ++I) {
    const PendingWrite *W = Slots[I].load(std::memory_order_acquire);
    if (W && overlaps(*W))
      while (W->Readers.load() != 0)
        sched_yield();
  }
}

bool DeferredWrites::otherProtects(const PendingWrite &W, std::uintptr_t Page) const {
  bool Protects = false;
  forEachCovering(Page, [&](PendingWrite &Other, std::size_t Index) {
    Protects |= &Other != &W && Other.state(Index) == PendingWrite::PageState::Protected;
  });
  return Protects;
}

void DeferredWrites::retirePages(PendingWrite &W, std::size_t First, std::size_t End) {
  if (First >= End)
    return;
  rememberReleased(W.pageAddress(First), W.pageAddress(End));
  // Writable first, released second: a fault in between still finds the write and merely
  // preserves a page nobody needs.
  std::size_t RunStart = End;
  for (std::size_t P = First; P <= End; ++P) {
    const bool Unprotect = P < End && W.state(P) == PendingWrite::PageState::Protected &&
                           !otherProtects(W, W.pageAddress(P));
    if (Unprotect && RunStart == End)
      RunStart = P;
    if (!Unprotect && RunStart != End) {
      raw::protect(W.pageAddress(RunStart), (P - RunStart) * PageSize, PROT_READ | PROT_WRITE);
      RunStart = End;
    }
  }
  for (std::size_t P = First; P < End; ++P) {
    std::uint8_t S = W.States[P].load(std::memory_order_acquire);
    const auto Released = static_cast<std::uint8_t>(PendingWrite::PageState::Released);
    while (S != Released) {
      if (S == static_cast<std::uint8_t>(PendingWrite::PageState::Preserving)) {
        sched_yield();
        S = W.States[P].load(std::memory_order_acquire);
        continue;
      }
      W.States[P].compare_exchange_weak(S, Released, std::memory_order_acq_rel);
    }
  }
}

void DeferredWrites::retire(PendingWrite &W) {
  std::lock_guard<std::mutex> Lock(Mutex);
  retirePages(W, 0, W.pageCount());
  Slots[W.Slot].store(nullptr, std::memory_order_release);
  Ranges[W.Slot].End.store(0, std::memory_order_release);
  Published.fetch_sub(1);
  W.Published = false;
  // The write's memory goes when this returns: no fault or settle may still be reading it.
  waitForHandlers();
}

void DeferredWrites::waitForHandlers() const {
  while (InFlight.load() != 0)
    sched_yield();
}

void DeferredWrites::rememberReleased(std::uintptr_t Begin, std::uintptr_t End) noexcept {
  ReleasedRange &R = Recent[RecentNext.fetch_add(1) % Recent.size()];
  R.Begin.store(0);
  R.End.store(End);
  R.Begin.store(Begin);
}

bool DeferredWrites::recentlyReleased(std::uintptr_t Page) const noexcept {
  for (const ReleasedRange &R : Recent) {
    const std::uintptr_t Begin = R.Begin.load();
    const std::uintptr_t End = R.End.load();
    if (Begin && Begin == R.Begin.load() && Page >= Begin && Page < End)
      return true;
  }
  return false;
}

DeferredWrites::Totals DeferredWrites::totals() const {
  Totals T;
  T.Writes = CountWrites.load();
  T.Bytes = CountBytes.load();
  T.PagesOnFault = CountOnFault.load();
  T.PagesBeforeWrite = CountBeforeWrite.load();
  T.PagesHandedBack = CountHandedBack.load();
  T.BulkSettles = CountBulk.load();
  return T;
}

void DeferredWrites::afterForkInChild() noexcept {
  InFlight.store(0);
  const std::size_t Used = SlotsUsed.load();
  for (std::size_t I = 0; I < Used; ++I)
    if (PendingWrite *W = Slots[I].load())
      W->Readers.store(0);
}

} // namespace libsplit
