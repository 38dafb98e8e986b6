// libc entry points that libsplit.so defines in front of libc's (LD_PRELOAD), for deferred host
// writes (deferred_writes.hpp). Each settles the memory it is about to write into, or to hand
// back, then calls the next definition. With nothing deferred each costs one atomic load.
//
// - System calls that write into user memory fail with EFAULT on a write-protected page
//   instead of faulting: read, pread, readv, preadv, recv, recvfrom, recvmsg, recvmmsg, and
//   fread (libc reads large requests straight into the caller's buffer), with their
//   _FORTIFY_SOURCE variants. Other system calls with output arguments (stat, getrandom,
//   ioctl...) are not covered: see docs/limitations.md.
// - Memory handed back loses its contents or its mapping: free, realloc, reallocarray, munmap,
//   mremap, madvise (the discarding advices), mmap over it (MAP_FIXED), and mprotect (the app
//   takes its protection over). Under AddressSanitizer the app's free() is the sanitizer's,
//   which never reaches this one: a sanitizer free hook does the same.
// - sigaction and signal for SIGSEGV, once libsplit's handler is installed: the app's action is
//   kept behind libsplit's (segv_chain.hpp) instead of replacing it.
// - SIGSEGV is never blocked (pthread_sigmask, sigprocmask, the sa_mask of any handler): the
//   kernel kills a process whose thread faults with SIGSEGV blocked, and thread pools that block
//   every signal are common. Only a SIGSEGV sent with kill() could tell the difference.
#undef _FORTIFY_SOURCE

#include "deferred_writes.hpp"
#include "next_symbol.hpp"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>

using libsplit::DeferredWrites;
using libsplit::nextSymbol;

#define LIBSPLIT_LIBC extern "C" __attribute__((visibility("default")))

namespace {

// The one load every wrapper pays; the rest only while something is deferred.
DeferredWrites *pendingRegistry() {
  DeferredWrites *Registry = DeferredWrites::active();
  return Registry && Registry->anyPending() ? Registry : nullptr;
}

// Addresses travel as integers: the bytes there are not read, and the compiler, which knows
// that read() only writes its buffer, must not think they are.
void settle(std::uintptr_t Address, std::size_t Bytes, DeferredWrites::Settle Why) {
  if (DeferredWrites *Registry = pendingRegistry()) {
    const int SavedErrno = errno;
    Registry->settle(reinterpret_cast<const void *>(Address), Bytes, Why);
    errno = SavedErrno;
  }
}

void beforeWrite(void *Address, std::size_t Bytes) {
  settle(reinterpret_cast<std::uintptr_t>(Address), Bytes, DeferredWrites::Settle::BeforeWrite);
}

void handBack(void *Address, std::size_t Bytes) {
  settle(reinterpret_cast<std::uintptr_t>(Address), Bytes, DeferredWrites::Settle::HandBack);
}

void beforeWrite(const struct iovec *Vector, int Count) {
  if (!pendingRegistry() || !Vector)
    return;
  for (int I = 0; I < Count; ++I)
    beforeWrite(Vector[I].iov_base, Vector[I].iov_len);
}

void beforeWrite(const struct msghdr *Message) {
  if (!pendingRegistry() || !Message)
    return;
  beforeWrite(Message->msg_iov, static_cast<int>(Message->msg_iovlen));
  beforeWrite(Message->msg_name, Message->msg_namelen);
  beforeWrite(Message->msg_control, Message->msg_controllen);
}

std::size_t product(std::size_t A, std::size_t B) {
  std::size_t Result = 0;
  return __builtin_mul_overflow(A, B, &Result) ? SIZE_MAX : Result;
}

// Memory the allocator owns from Pointer on.
void handBackAllocation(void *Pointer) {
  if (Pointer && pendingRegistry())
    handBack(Pointer, malloc_usable_size(Pointer));
}

bool discardsContents(int Advice) {
  return Advice == MADV_DONTNEED || Advice == MADV_FREE || Advice == MADV_REMOVE;
}

bool segvRouted(int Signal) {
  if (Signal != SIGSEGV)
    return false;
  DeferredWrites *Registry = DeferredWrites::active();
  return Registry && Registry->segv().installed();
}

// The next definitions, resolved before main() (a wrapper's first call might come from a signal
// handler, where dlsym is not safe), or on first use when called earlier than that.
#define LIBSPLIT_NEXT(Name, Return, ...)                                                           \
  using Name##_Fn = Return (*)(__VA_ARGS__);                                                       \
  std::atomic<Name##_Fn> Next_##Name{nullptr};
#define LIBSPLIT_CALL_NEXT(Name) nextSymbol(Next_##Name, #Name)
LIBSPLIT_NEXT(read, ssize_t, int, void *, size_t)
LIBSPLIT_NEXT(__read_chk, ssize_t, int, void *, size_t, size_t)
LIBSPLIT_NEXT(pread, ssize_t, int, void *, size_t, off_t)
LIBSPLIT_NEXT(pread64, ssize_t, int, void *, size_t, off64_t)
LIBSPLIT_NEXT(__pread_chk, ssize_t, int, void *, size_t, off_t, size_t)
LIBSPLIT_NEXT(__pread64_chk, ssize_t, int, void *, size_t, off64_t, size_t)
LIBSPLIT_NEXT(readv, ssize_t, int, const struct iovec *, int)
LIBSPLIT_NEXT(preadv, ssize_t, int, const struct iovec *, int, off_t)
LIBSPLIT_NEXT(preadv64, ssize_t, int, const struct iovec *, int, off64_t)
LIBSPLIT_NEXT(preadv2, ssize_t, int, const struct iovec *, int, off_t, int)
LIBSPLIT_NEXT(preadv64v2, ssize_t, int, const struct iovec *, int, off64_t, int)
LIBSPLIT_NEXT(recv, ssize_t, int, void *, size_t, int)
LIBSPLIT_NEXT(__recv_chk, ssize_t, int, void *, size_t, size_t, int)
LIBSPLIT_NEXT(recvfrom, ssize_t, int, void *, size_t, int, struct sockaddr *, socklen_t *)
LIBSPLIT_NEXT(__recvfrom_chk, ssize_t, int, void *, size_t, size_t, int, struct sockaddr *,
              socklen_t *)
LIBSPLIT_NEXT(recvmsg, ssize_t, int, struct msghdr *, int)
LIBSPLIT_NEXT(recvmmsg, int, int, struct mmsghdr *, unsigned int, int, struct timespec *)
LIBSPLIT_NEXT(fread, size_t, void *, size_t, size_t, FILE *)
LIBSPLIT_NEXT(fread_unlocked, size_t, void *, size_t, size_t, FILE *)
LIBSPLIT_NEXT(__fread_chk, size_t, void *, size_t, size_t, size_t, FILE *)
LIBSPLIT_NEXT(__fread_unlocked_chk, size_t, void *, size_t, size_t, size_t, FILE *)
LIBSPLIT_NEXT(free, void, void *)
LIBSPLIT_NEXT(realloc, void *, void *, size_t)
LIBSPLIT_NEXT(reallocarray, void *, void *, size_t, size_t)
LIBSPLIT_NEXT(munmap, int, void *, size_t)
LIBSPLIT_NEXT(mremap, void *, void *, size_t, size_t, int, ...)
LIBSPLIT_NEXT(mprotect, int, void *, size_t, int)
LIBSPLIT_NEXT(madvise, int, void *, size_t, int)
LIBSPLIT_NEXT(mmap, void *, void *, size_t, int, int, int, off_t)
LIBSPLIT_NEXT(mmap64, void *, void *, size_t, int, int, int, off64_t)
LIBSPLIT_NEXT(sigaction, int, int, const struct sigaction *, struct sigaction *)
LIBSPLIT_NEXT(signal, sighandler_t, int, sighandler_t)
LIBSPLIT_NEXT(pthread_sigmask, int, int, const sigset_t *, sigset_t *)
LIBSPLIT_NEXT(sigprocmask, int, int, const sigset_t *, sigset_t *)

// The set without SIGSEGV, in Copy, when it would block it.
const sigset_t *withoutSegv(int How, const sigset_t *Set, sigset_t &Copy) {
  if (!Set || How == SIG_UNBLOCK || sigismember(Set, SIGSEGV) != 1)
    return Set;
  Copy = *Set;
  sigdelset(&Copy, SIGSEGV);
  return &Copy;
}

// AddressSanitizer's allocator interface, present only in the sanitizer build.
extern "C" int
__sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void *, std::size_t),
                                          void (*)(const volatile void *)) __attribute__((weak));
extern "C" std::size_t __sanitizer_get_allocated_size(const volatile void *) __attribute__((weak));

void onSanitizerMalloc(const volatile void *, std::size_t) {}
void onSanitizerFree(const volatile void *Pointer) {
  if (Pointer && pendingRegistry())
    handBack(const_cast<void *>(Pointer), __sanitizer_get_allocated_size(Pointer));
}

__attribute__((constructor)) void resolveNextDefinitions() {
  LIBSPLIT_CALL_NEXT(read);
  LIBSPLIT_CALL_NEXT(__read_chk);
  LIBSPLIT_CALL_NEXT(pread);
  LIBSPLIT_CALL_NEXT(pread64);
  LIBSPLIT_CALL_NEXT(__pread_chk);
  LIBSPLIT_CALL_NEXT(__pread64_chk);
  LIBSPLIT_CALL_NEXT(readv);
  LIBSPLIT_CALL_NEXT(preadv);
  LIBSPLIT_CALL_NEXT(preadv64);
  LIBSPLIT_CALL_NEXT(preadv2);
  LIBSPLIT_CALL_NEXT(preadv64v2);
  LIBSPLIT_CALL_NEXT(recv);
  LIBSPLIT_CALL_NEXT(__recv_chk);
  LIBSPLIT_CALL_NEXT(recvfrom);
  LIBSPLIT_CALL_NEXT(__recvfrom_chk);
  LIBSPLIT_CALL_NEXT(recvmsg);
  LIBSPLIT_CALL_NEXT(recvmmsg);
  LIBSPLIT_CALL_NEXT(fread);
  LIBSPLIT_CALL_NEXT(fread_unlocked);
  LIBSPLIT_CALL_NEXT(__fread_chk);
  LIBSPLIT_CALL_NEXT(__fread_unlocked_chk);
  LIBSPLIT_CALL_NEXT(free);
  LIBSPLIT_CALL_NEXT(realloc);
  LIBSPLIT_CALL_NEXT(reallocarray);
  LIBSPLIT_CALL_NEXT(munmap);
  LIBSPLIT_CALL_NEXT(mremap);
  LIBSPLIT_CALL_NEXT(mprotect);
  LIBSPLIT_CALL_NEXT(madvise);
  LIBSPLIT_CALL_NEXT(mmap);
  LIBSPLIT_CALL_NEXT(mmap64);
  LIBSPLIT_CALL_NEXT(sigaction);
  LIBSPLIT_CALL_NEXT(signal);
  LIBSPLIT_CALL_NEXT(pthread_sigmask);
  LIBSPLIT_CALL_NEXT(sigprocmask);
  if (__sanitizer_install_malloc_and_free_hooks)
    __sanitizer_install_malloc_and_free_hooks(onSanitizerMalloc, onSanitizerFree);
}

} // namespace

// System calls that write into the caller's memory.

LIBSPLIT_LIBC ssize_t read(int Fd, void *Buffer, size_t Bytes) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(read)(Fd, Buffer, Bytes);
}

LIBSPLIT_LIBC ssize_t __read_chk(int Fd, void *Buffer, size_t Bytes, size_t BufferSize) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(__read_chk)(Fd, Buffer, Bytes, BufferSize);
}

LIBSPLIT_LIBC ssize_t pread(int Fd, void *Buffer, size_t Bytes, off_t Offset) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(pread)(Fd, Buffer, Bytes, Offset);
}

LIBSPLIT_LIBC ssize_t pread64(int Fd, void *Buffer, size_t Bytes, off64_t Offset) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(pread64)(Fd, Buffer, Bytes, Offset);
}

LIBSPLIT_LIBC ssize_t __pread_chk(int Fd, void *Buffer, size_t Bytes, off_t Offset,
                                  size_t BufferSize) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(__pread_chk)(Fd, Buffer, Bytes, Offset, BufferSize);
}

LIBSPLIT_LIBC ssize_t __pread64_chk(int Fd, void *Buffer, size_t Bytes, off64_t Offset,
                                    size_t BufferSize) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(__pread64_chk)(Fd, Buffer, Bytes, Offset, BufferSize);
}

LIBSPLIT_LIBC ssize_t readv(int Fd, const struct iovec *Vector, int Count) {
  beforeWrite(Vector, Count);
  return LIBSPLIT_CALL_NEXT(readv)(Fd, Vector, Count);
}

LIBSPLIT_LIBC ssize_t preadv(int Fd, const struct iovec *Vector, int Count, off_t Offset) {
  beforeWrite(Vector, Count);
  return LIBSPLIT_CALL_NEXT(preadv)(Fd, Vector, Count, Offset);
}

LIBSPLIT_LIBC ssize_t preadv64(int Fd, const struct iovec *Vector, int Count, off64_t Offset) {
  beforeWrite(Vector, Count);
  return LIBSPLIT_CALL_NEXT(preadv64)(Fd, Vector, Count, Offset);
}

LIBSPLIT_LIBC ssize_t preadv2(int Fd, const struct iovec *Vector, int Count, off_t Offset,
                              int Flags) {
  beforeWrite(Vector, Count);
  return LIBSPLIT_CALL_NEXT(preadv2)(Fd, Vector, Count, Offset, Flags);
}

LIBSPLIT_LIBC ssize_t preadv64v2(int Fd, const struct iovec *Vector, int Count, off64_t Offset,
                                 int Flags) {
  beforeWrite(Vector, Count);
  return LIBSPLIT_CALL_NEXT(preadv64v2)(Fd, Vector, Count, Offset, Flags);
}

LIBSPLIT_LIBC ssize_t recv(int Fd, void *Buffer, size_t Bytes, int Flags) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(recv)(Fd, Buffer, Bytes, Flags);
}

LIBSPLIT_LIBC ssize_t __recv_chk(int Fd, void *Buffer, size_t Bytes, size_t BufferSize, int Flags) {
  beforeWrite(Buffer, Bytes);
  return LIBSPLIT_CALL_NEXT(__recv_chk)(Fd, Buffer, Bytes, BufferSize, Flags);
}

LIBSPLIT_LIBC ssize_t recvfrom(int Fd, void *Buffer, size_t Bytes, int Flags, struct sockaddr *From,
                               socklen_t *FromLength) {
  beforeWrite(Buffer, Bytes);
  if (From && FromLength)
    beforeWrite(static_cast<void *>(From), *FromLength);
  return LIBSPLIT_CALL_NEXT(recvfrom)(Fd, Buffer, Bytes, Flags, From, FromLength);
}

LIBSPLIT_LIBC ssize_t __recvfrom_chk(int Fd, void *Buffer, size_t Bytes, size_t BufferSize,
                                     int Flags, struct sockaddr *From, socklen_t *FromLength) {
  beforeWrite(Buffer, Bytes);
  if (From && FromLength)
    beforeWrite(static_cast<void *>(From), *FromLength);
  return LIBSPLIT_CALL_NEXT(__recvfrom_chk)(Fd, Buffer, Bytes, BufferSize, Flags, From, FromLength);
}

LIBSPLIT_LIBC ssize_t recvmsg(int Fd, struct msghdr *Message, int Flags) {
  beforeWrite(Message);
  return LIBSPLIT_CALL_NEXT(recvmsg)(Fd, Message, Flags);
}

LIBSPLIT_LIBC int recvmmsg(int Fd, struct mmsghdr *Messages, unsigned int Count, int Flags,
                           struct timespec *Timeout) {
  if (pendingRegistry() && Messages)
    for (unsigned int I = 0; I < Count; ++I)
      beforeWrite(&Messages[I].msg_hdr);
  return LIBSPLIT_CALL_NEXT(recvmmsg)(Fd, Messages, Count, Flags, Timeout);
}

LIBSPLIT_LIBC size_t fread(void *Buffer, size_t Size, size_t Count, FILE *Stream) {
  beforeWrite(Buffer, product(Size, Count));
  return LIBSPLIT_CALL_NEXT(fread)(Buffer, Size, Count, Stream);
}

LIBSPLIT_LIBC size_t fread_unlocked(void *Buffer, size_t Size, size_t Count, FILE *Stream) {
  beforeWrite(Buffer, product(Size, Count));
  return LIBSPLIT_CALL_NEXT(fread_unlocked)(Buffer, Size, Count, Stream);
}

LIBSPLIT_LIBC size_t __fread_chk(void *Buffer, size_t BufferSize, size_t Size, size_t Count,
                                 FILE *Stream) {
  beforeWrite(Buffer, product(Size, Count));
  return LIBSPLIT_CALL_NEXT(__fread_chk)(Buffer, BufferSize, Size, Count, Stream);
}

LIBSPLIT_LIBC size_t __fread_unlocked_chk(void *Buffer, size_t BufferSize, size_t Size,
                                          size_t Count, FILE *Stream) {
  beforeWrite(Buffer, product(Size, Count));
  return LIBSPLIT_CALL_NEXT(__fread_unlocked_chk)(Buffer, BufferSize, Size, Count, Stream);
}

// Memory handed back.

LIBSPLIT_LIBC void free(void *Pointer) noexcept {
  handBackAllocation(Pointer);
  // Resolving the next free() may itself free (dlsym's error path): that block is leaked
  // rather than freed by the wrong allocator.
  static std::atomic<bool> Resolving{false};
  auto Next = Next_free.load(std::memory_order_acquire);
  if (!Next) {
    if (Resolving.exchange(true))
      return;
    Next = LIBSPLIT_CALL_NEXT(free);
    Resolving.store(false);
  }
  if (Next)
    Next(Pointer);
}

LIBSPLIT_LIBC void *realloc(void *Pointer, size_t Bytes) noexcept {
  handBackAllocation(Pointer);
  return LIBSPLIT_CALL_NEXT(realloc)(Pointer, Bytes);
}

LIBSPLIT_LIBC void *reallocarray(void *Pointer, size_t Count, size_t Size) noexcept {
  handBackAllocation(Pointer);
  return LIBSPLIT_CALL_NEXT(reallocarray)(Pointer, Count, Size);
}

LIBSPLIT_LIBC int munmap(void *Address, size_t Bytes) noexcept {
  handBack(Address, Bytes);
  return LIBSPLIT_CALL_NEXT(munmap)(Address, Bytes);
}

LIBSPLIT_LIBC void *mremap(void *Address, size_t OldBytes, size_t NewBytes, int Flags,
                           ...) noexcept {
  handBack(Address, OldBytes);
  if (Flags & MREMAP_FIXED) {
    va_list Rest;
    va_start(Rest, Flags);
    void *Target = va_arg(Rest, void *);
    va_end(Rest);
    handBack(Target, NewBytes);
    return LIBSPLIT_CALL_NEXT(mremap)(Address, OldBytes, NewBytes, Flags, Target);
  }
  return LIBSPLIT_CALL_NEXT(mremap)(Address, OldBytes, NewBytes, Flags);
}

LIBSPLIT_LIBC int mprotect(void *Address, size_t Bytes, int Protection) noexcept {
  handBack(Address, Bytes);
  return LIBSPLIT_CALL_NEXT(mprotect)(Address, Bytes, Protection);
}

LIBSPLIT_LIBC int madvise(void *Address, size_t Bytes, int Advice) noexcept {
  if (discardsContents(Advice))
    handBack(Address, Bytes);
  return LIBSPLIT_CALL_NEXT(madvise)(Address, Bytes, Advice);
}

LIBSPLIT_LIBC void *mmap(void *Address, size_t Bytes, int Protection, int Flags, int Fd,
                         off_t Offset) noexcept {
  if (Flags & MAP_FIXED)
    handBack(Address, Bytes);
  return LIBSPLIT_CALL_NEXT(mmap)(Address, Bytes, Protection, Flags, Fd, Offset);
}

LIBSPLIT_LIBC void *mmap64(void *Address, size_t Bytes, int Protection, int Flags, int Fd,
                           off64_t Offset) noexcept {
  if (Flags & MAP_FIXED)
    handBack(Address, Bytes);
  return LIBSPLIT_CALL_NEXT(mmap64)(Address, Bytes, Protection, Flags, Fd, Offset);
}

// SIGSEGV actions.

LIBSPLIT_LIBC int sigaction(int Signal, const struct sigaction *Action,
                            struct sigaction *Old) noexcept {
  if (segvRouted(Signal))
    return DeferredWrites::active()->segv().appAction(Action, Old);
  if (Action && sigismember(&Action->sa_mask, SIGSEGV) == 1) {
    struct sigaction Unblocking = *Action;
    sigdelset(&Unblocking.sa_mask, SIGSEGV);
    return LIBSPLIT_CALL_NEXT(sigaction)(Signal, &Unblocking, Old);
  }
  return LIBSPLIT_CALL_NEXT(sigaction)(Signal, Action, Old);
}

LIBSPLIT_LIBC sighandler_t signal(int Signal, sighandler_t Handler) noexcept {
  if (!segvRouted(Signal))
    return LIBSPLIT_CALL_NEXT(signal)(Signal, Handler);
  // signal() has BSD semantics in glibc: restarted calls, the signal blocked in its handler.
  struct sigaction Action = {};
  Action.sa_handler = Handler;
  sigemptyset(&Action.sa_mask);
  sigaddset(&Action.sa_mask, Signal);
  Action.sa_flags = SA_RESTART;
  struct sigaction Old = {};
  DeferredWrites::active()->segv().appAction(&Action, &Old);
  return Old.sa_handler;
}

// Signal masks.

LIBSPLIT_LIBC int pthread_sigmask(int How, const sigset_t *Set, sigset_t *Old) noexcept {
  sigset_t Copy;
  return LIBSPLIT_CALL_NEXT(pthread_sigmask)(How, withoutSegv(How, Set, Copy), Old);
}

LIBSPLIT_LIBC int sigprocmask(int How, const sigset_t *Set, sigset_t *Old) noexcept {
  sigset_t Copy;
  return LIBSPLIT_CALL_NEXT(sigprocmask)(How, withoutSegv(How, Set, Copy), Old);
}
