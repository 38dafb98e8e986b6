// Deferred host writes (LIBSPLIT_DEFER=mprotect): instead of copying the app's bytes when it
// writes a buffer, libsplit write-protects them and reads them from the app's memory when a
// device needs them. This registry knows every pending write, and is what the SIGSEGV handler
// and the libc wrappers consult.
//
// - A write fault on a protected page: every pending write that covers the page copies its
//   bytes to its staging area (once, whichever thread comes first), the page becomes writable,
//   the faulting write proceeds.
// - A system call that writes into a protected page fails with EFAULT instead of faulting, and
//   memory handed back to the system (free, munmap...) loses its contents: the libc wrappers
//   settle() such ranges first.
// - A write retired by libsplit (its bytes overwritten, its buffer released) unprotects the
//   pages no other pending write still needs.
//
// The fault and settle paths take no lock and allocate nothing (async-signal-safe: atomics,
// memcpy, mprotect); defer() and retiring take the mutex. Pending writes are found through a
// fixed table of atomic pointers; a retired write leaves the table, then waits until no fault
// or settle is looking at it before its memory goes.
//
// The process-wide pieces (the SIGSEGV handler, active()) exist because signals and libc calls
// are process-wide; the registry itself belongs to the Runtime.
#pragma once

#include "pending_write.hpp"
#include "segv_chain.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace libsplit {

class DeferredWrites final : public FaultClaimer, public PageRegistry {
public:
  // Below this size a write is copied: reading /proc/self/maps and changing protections cost
  // more than copying the bytes.
  static constexpr std::size_t DefaultMinBytes = std::size_t(1) << 20;
  // After this many faults on one write, the rest of it is preserved at once: an app rewriting
  // its whole array would otherwise pay one fault per page.
  static constexpr unsigned DefaultBulkAfterFaults = 64;
  static constexpr std::size_t Capacity = 1024;

  explicit DeferredWrites(std::size_t MinBytes = DefaultMinBytes,
                          unsigned BulkAfterFaults = DefaultBulkAfterFaults);
  ~DeferredWrites();
  DeferredWrites(const DeferredWrites &) = delete;
  DeferredWrites &operator=(const DeferredWrites &) = delete;

  // Protects [Source, Source + Length) and returns the pending write; null, with WhyNot set,
  // when it cannot be deferred (then the caller copies).
  std::shared_ptr<PendingWrite> defer(const void *Source, std::size_t Length, std::string &WhyNot);

  enum class Settle {
    BeforeWrite, // the caller (a system call, a device) is about to write there
    HandBack,    // the memory goes back to the system or the allocator: forget it afterwards
  };
  // Preserves and unprotects every pending page in [Address, Address + Length). Lock-free; with
  // HandBack it also waits for readers of those pages.
  void settle(const void *Address, std::size_t Length, Settle Why) noexcept;

  using FaultVerdict = libsplit::FaultVerdict;
  // From the SIGSEGV handler, for a write-protection fault at Address: Handled for a pending
  // page (preserved, writable again).
  FaultVerdict onFault(void *Address) noexcept override;

  // Whether anything is pending (one load: the libc wrappers' fast path).
  bool anyPending() const noexcept { return Published.load(std::memory_order_acquire) != 0; }

  // The registry the handler and the libc wrappers use: set by the first defer().
  static DeferredWrites *active() noexcept;

  SegvChain &segv() { return Segv; }

  struct Totals {
    std::uint64_t Writes = 0;           // deferred
    std::uint64_t Bytes = 0;            // deferred
    std::uint64_t PagesOnFault = 0;     // preserved by a write fault
    std::uint64_t PagesBeforeWrite = 0; // preserved before a system call or a device wrote
    std::uint64_t PagesHandedBack = 0;  // preserved before free, munmap...
    std::uint64_t BulkSettles = 0;      // writes preserved whole after many faults
  };
  Totals totals() const;

  // In a fork child only the forking thread survives: counts of threads inside are reset.
  void afterForkInChild() noexcept;

private:
  enum class Cause { Fault, BeforeWrite, HandBack };
  enum class Claim { NotOurs, Released, Claimed };

  std::size_t pageSize() const { return PageSize; }
  std::uintptr_t pageOf(std::uintptr_t Address) const { return Address & ~(PageSize - 1); }

  // Preserves every pending write's bytes on Page, then (MakeWritable) unprotects it, again
  // when a write recorded meanwhile protected it. Lock-free.
  Claim claimPage(std::uintptr_t Page, Cause Why, bool MakeWritable) noexcept;
  // settle() on page-rounded [Begin, End); also the bulk path after many faults.
  void settleRange(std::uintptr_t Begin, std::uintptr_t End, Cause Why) noexcept;
  template <typename Fn> void forEachCovering(std::uintptr_t Page, Fn &&Visit) const;
  void countPreserved(Cause Why) noexcept;

  std::mutex &registryMutex() override { return Mutex; }
  void retirePages(PendingWrite &W, std::size_t First, std::size_t End) override;
  bool otherProtects(const PendingWrite &W, std::uintptr_t Page) const;
  void retire(PendingWrite &W) override;
  void waitForHandlers() const;
  // Pages recently unprotected by retiring, so that a fault racing with it is retried.
  void rememberReleased(std::uintptr_t Begin, std::uintptr_t End) noexcept;
  bool recentlyReleased(std::uintptr_t Page) const noexcept;

  const std::size_t PageSize;
  const std::size_t MinBytes;
  const unsigned BulkAfterFaults;
  std::mutex Mutex; // defer and retire
  std::array<std::atomic<PendingWrite *>, Capacity> Slots{};
  // Each slot's protected range, kept apart from the write so that the wrappers' fast path can
  // read it without holding the write alive (an empty range once the slot is free).
  struct SlotRange {
    std::atomic<std::uintptr_t> Begin{0};
    std::atomic<std::uintptr_t> End{0};
  };
  std::array<SlotRange, Capacity> Ranges{};
  std::atomic<std::size_t> SlotsUsed{0}; // high-water mark: the handler scans [0, SlotsUsed)
  std::atomic<std::size_t> Published{0};
  mutable std::atomic<int> InFlight{0}; // faults and settles looking at the table

  struct ReleasedRange {
    std::atomic<std::uintptr_t> Begin{0};
    std::atomic<std::uintptr_t> End{0};
  };
  std::array<ReleasedRange, 64> Recent{};
  std::atomic<unsigned> RecentNext{0};

  std::atomic<std::uint64_t> CountWrites{0}, CountBytes{0}, CountOnFault{0}, CountBeforeWrite{0},
      CountHandedBack{0}, CountBulk{0};
  SegvChain Segv;
};

} // namespace libsplit
