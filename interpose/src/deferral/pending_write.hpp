// One deferred host write: the app's bytes [source, source + length) that a buffer's host copy
// stands for until they are sent, overwritten or released.
//
// Only the pages lying wholly inside the range are write-protected; the partial pages at either
// end are copied into the staging area at once. Those may hold the app's other data, which must
// never fault nor fail a system call because of libsplit, and copying them costs at most two
// pages. A protected page's bytes move to the staging area the first time anything may change
// them: a write fault, a system call about to write there, the memory being handed back to the
// system. The staging area is reserved at record time (untouched pages cost no memory), so the
// fault handler only copies.
//
// Threads: page states are atomics; the fault handler, the libc wrappers and readers use them
// without locks. Live bytes (drop()) are guarded by the registry's mutex.
#pragma once

#include "range_set.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace libsplit {

class PendingWrite;

// What a pending write needs of the registry that protects its pages (DeferredWrites): its
// lock, and to give pages back.
class PageRegistry {
public:
  virtual std::mutex &registryMutex() = 0;
  // Mutex held: unprotects the pages [First, End) of W that no other write needs, then releases
  // them.
  virtual void retirePages(PendingWrite &W, std::size_t First, std::size_t End) = 0;
  // From ~PendingWrite: retires every page W still protects and frees its slot.
  virtual void retire(PendingWrite &W) = 0;

protected:
  ~PageRegistry() = default;
};

class PendingWrite {
public:
  enum class PageState : std::uint8_t {
    Protected,  // read-only; the app's memory holds this write's bytes
    Preserving, // a thread is copying the page to staging
    Preserved,  // staging holds the bytes; the page is (being made) writable again
    Released,   // retired (bytes no longer needed) or handed back to the system (bytes in
                // staging); faults there are no longer this write's business
  };

  // Where a part of the write's bytes can be read from now.
  struct Piece {
    const std::uint8_t *From;
    std::size_t Offset; // in the write
    std::size_t Length;
    bool FromApp; // the app's memory (protected pages), else the staging copy
  };

  // Made by DeferredWrites::defer only: reserves staging and copies the partial end pages.
  PendingWrite(PageRegistry &Owner, const std::uint8_t *Source, std::size_t Length,
               std::size_t PageSize);
  ~PendingWrite(); // retires the pages still protected
  PendingWrite(const PendingWrite &) = delete;
  PendingWrite &operator=(const PendingWrite &) = delete;

  bool reserved() const { return Staging != nullptr; }
  const std::uint8_t *source() const { return Source; }
  std::size_t length() const { return Length; }
  std::uintptr_t protectedBegin() const { return ProtectedBegin; }
  std::uintptr_t protectedEnd() const { return ProtectedEnd; }

  // Bytes [Offset, Offset + Bytes) are no longer needed (overwritten, by the host or a kernel):
  // pages left with no needed byte are unprotected. Returns whether any byte is still needed.
  bool drop(std::size_t Offset, std::size_t Bytes);

  // Readers hold a ReadScope while they, or a device they hand the pointers to, read the app's
  // memory: memory being handed back to the system (free, munmap) waits for them.
  class ReadScope {
  public:
    explicit ReadScope(const PendingWrite &W);
    ~ReadScope();
    ReadScope(const ReadScope &) = delete;
    ReadScope &operator=(const ReadScope &) = delete;

  private:
    const PendingWrite &Write;
  };

  // The sources of [Offset, Offset + Bytes) right now, in order.
  std::vector<Piece> pieces(std::size_t Offset, std::size_t Bytes) const;
  // Whether a piece read from the app's memory still holds the write's bytes: true unless one
  // of its pages was preserved since (the app may have changed it after that; the staging copy
  // holds the bytes). Check after the read has completed.
  bool unchanged(const Piece &P) const;
  // Copies [Offset, Offset + Bytes) into Destination, whatever the app does meanwhile.
  void copyOut(std::size_t Offset, std::size_t Bytes, std::uint8_t *Destination) const;

private:
  friend class DeferredWrites;

  std::size_t pageCount() const { return Pages; }
  std::uintptr_t pageAddress(std::size_t Page) const { return ProtectedBegin + Page * PageSize; }
  std::uint8_t *stagingFor(std::uintptr_t Address) const {
    return Staging + (Address - reinterpret_cast<std::uintptr_t>(Source));
  }
  PageState state(std::size_t Page) const {
    return static_cast<PageState>(States[Page].load(std::memory_order_acquire));
  }
  // Copies a protected page to staging once, whoever asks first; waits while another thread
  // does. Returns the final state: Preserved or Released. Async-signal-safe.
  PageState preserve(std::size_t Page, bool &CopiedHere);
  void copyPieces(const std::vector<Piece> &From, std::size_t Offset,
                  std::uint8_t *Destination) const;

  PageRegistry &Owner;
  const std::uint8_t *const Source;
  const std::size_t Length;
  const std::size_t PageSize;
  std::uintptr_t ProtectedBegin = 0, ProtectedEnd = 0;
  std::size_t Pages = 0;
  std::uint8_t *Staging = nullptr;
  std::size_t StagingBytes = 0;
  std::unique_ptr<std::atomic<std::uint8_t>[]> States;
  mutable std::atomic<int> Readers{0};
  std::atomic<unsigned> Faults{0};
  std::size_t Slot = 0;
  bool Published = false;
  RangeSet Live; // offsets still needed; the registry's mutex guards it
};

} // namespace libsplit
