#include "pending_write.hpp"

#include "raw_syscalls.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>

namespace libsplit {

PendingWrite::PendingWrite(PageRegistry &Owner, const std::uint8_t *Source, std::size_t Length,
                           std::size_t PageSize)
    : Owner(Owner), Source(Source), Length(Length), PageSize(PageSize) {
  const auto Begin = reinterpret_cast<std::uintptr_t>(Source);
  ProtectedBegin = (Begin + PageSize - 1) & ~(PageSize - 1);
  ProtectedEnd = std::max(ProtectedBegin, (Begin + Length) & ~(PageSize - 1));
  Pages = (ProtectedEnd - ProtectedBegin) / PageSize;
  StagingBytes = (Length + PageSize - 1) & ~(PageSize - 1);
  // MAP_NORESERVE and untouched: the staging area costs memory only for pages preserved.
  Staging = static_cast<std::uint8_t *>(raw::mapAnonymous(StagingBytes));
  if (!Staging)
    return;
  States = std::make_unique<std::atomic<std::uint8_t>[]>(Pages);
  for (std::size_t P = 0; P < Pages; ++P)
    States[P].store(static_cast<std::uint8_t>(PageState::Protected), std::memory_order_relaxed);
  // The partial pages at either end are never protected: copy them now.
  const std::size_t Head = ProtectedBegin - Begin;
  std::memcpy(Staging, Source, std::min(Head, Length));
  const std::size_t TailStart = ProtectedEnd - Begin;
  if (TailStart < Length && Pages)
    std::memcpy(Staging + TailStart, Source + TailStart, Length - TailStart);
  Live.add(0, Length);
}

PendingWrite::~PendingWrite() {
  if (Published)
    Owner.retire(*this);
  if (Staging)
    raw::unmap(Staging, StagingBytes);
}

bool PendingWrite::drop(std::size_t Offset, std::size_t Bytes) {
  std::lock_guard<std::mutex> Lock(Owner.registryMutex());
  Live.subtract(Offset, Offset + Bytes);
  // Protected pages with no needed byte left go back to the app.
  const auto Begin = reinterpret_cast<std::uintptr_t>(Source);
  const std::uintptr_t DropBegin = Begin + Offset, DropEnd = Begin + Offset + Bytes;
  if (DropEnd > ProtectedBegin && DropBegin < ProtectedEnd) {
    const std::size_t First = (std::max(DropBegin, ProtectedBegin) - ProtectedBegin) / PageSize;
    const std::size_t End =
        (std::min(DropEnd, ProtectedEnd) - ProtectedBegin + PageSize - 1) / PageSize;
    std::size_t RunStart = End;
    for (std::size_t P = First; P <= End; ++P) {
      const bool Dead =
          P < End && !Live.intersects(pageAddress(P) - Begin, pageAddress(P) + PageSize - Begin);
      if (Dead && RunStart == End)
        RunStart = P;
      if (!Dead && RunStart != End) {
        Owner.retirePages(*this, RunStart, P);
        RunStart = End;
      }
    }
  }
  return !Live.empty();
}

PendingWrite::ReadScope::ReadScope(const PendingWrite &W) : Write(W) {
  // Sequentially consistent with settle(HandBack): either it sees this reader and waits, or
  // this reader sees the pages it preserved and reads the staging copy.
  Write.Readers.fetch_add(1);
}

PendingWrite::ReadScope::~ReadScope() { Write.Readers.fetch_sub(1); }

std::vector<PendingWrite::Piece> PendingWrite::pieces(std::size_t Offset, std::size_t Bytes) const {
  std::vector<Piece> Out;
  const auto Begin = reinterpret_cast<std::uintptr_t>(Source);
  std::size_t At = Offset;
  const std::size_t End = Offset + Bytes;
  while (At < End) {
    const std::uintptr_t Address = Begin + At;
    bool FromApp = false;
    std::size_t Next = End;
    if (Address >= ProtectedBegin && Address < ProtectedEnd) {
      const std::size_t Page = (Address - ProtectedBegin) / PageSize;
      PageState S = state(Page);
      while (S == PageState::Preserving) {
        sched_yield();
        S = state(Page);
      }
      FromApp = S == PageState::Protected;
      Next = std::min(End, pageAddress(Page) + PageSize - Begin);
    } else if (Address < ProtectedBegin) {
      Next = std::min(End, ProtectedBegin - Begin);
    }
    if (!Out.empty() && Out.back().FromApp == FromApp &&
        Out.back().Offset + Out.back().Length == At) {
      Out.back().Length += Next - At;
    } else {
      Out.push_back({FromApp ? Source + At : Staging + At, At, Next - At, FromApp});
    }
    At = Next;
  }
  return Out;
}

bool PendingWrite::unchanged(const Piece &P) const {
  if (!P.FromApp)
    return true;
  // Reads of the piece come before these loads: a page seen still protected was read before
  // anything could change it (a page is preserved before it becomes writable).
  std::atomic_thread_fence(std::memory_order_acquire);
  const auto Begin = reinterpret_cast<std::uintptr_t>(Source);
  const std::size_t First = (Begin + P.Offset - ProtectedBegin) / PageSize;
  const std::size_t Last = (Begin + P.Offset + P.Length - 1 - ProtectedBegin) / PageSize;
  for (std::size_t Page = First; Page <= Last; ++Page)
    if (state(Page) != PageState::Protected)
      return false;
  return true;
}

void PendingWrite::copyOut(std::size_t Offset, std::size_t Bytes, std::uint8_t *Destination) const {
  ReadScope Reading(*this);
  copyPieces(pieces(Offset, Bytes), Offset, Destination);
}

void PendingWrite::copyPieces(const std::vector<Piece> &From, std::size_t Offset,
                              std::uint8_t *Destination) const {
  for (const Piece &P : From) {
    std::memcpy(Destination + (P.Offset - Offset), P.From, P.Length);
    // Preserved meanwhile: read it again, from staging where it was preserved.
    if (!unchanged(P))
      copyPieces(pieces(P.Offset, P.Length), Offset, Destination);
  }
}

PendingWrite::PageState PendingWrite::preserve(std::size_t Page, bool &CopiedHere) {
  CopiedHere = false;
  auto Expected = static_cast<std::uint8_t>(PageState::Protected);
  if (States[Page].compare_exchange_strong(
          Expected, static_cast<std::uint8_t>(PageState::Preserving), std::memory_order_acq_rel)) {
    const std::uintptr_t Address = pageAddress(Page);
    std::memcpy(stagingFor(Address), reinterpret_cast<const void *>(Address), PageSize);
    States[Page].store(static_cast<std::uint8_t>(PageState::Preserved), std::memory_order_release);
    CopiedHere = true;
    return PageState::Preserved;
  }
  while (Expected == static_cast<std::uint8_t>(PageState::Preserving)) {
    sched_yield();
    Expected = States[Page].load(std::memory_order_acquire);
  }
  return static_cast<PageState>(Expected);
}

} // namespace libsplit
