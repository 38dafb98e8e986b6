// Memory system calls made directly, never through libc's symbols: libsplit defines mprotect,
// mmap and munmap itself (libc_wrappers.cpp), and its own protection changes must not be taken
// for the app's. All are async-signal-safe. They return 0 (or the mapping) or -1 with errno set.
#pragma once

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace libsplit::raw {

inline int protect(std::uintptr_t Begin, std::size_t Bytes, int Protection) noexcept {
  return static_cast<int>(syscall(SYS_mprotect, Begin, Bytes, Protection));
}

inline void *mapAnonymous(std::size_t Bytes) noexcept {
  const long Result = syscall(SYS_mmap, nullptr, Bytes, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return Result == -1 ? nullptr : reinterpret_cast<void *>(Result);
}

inline void unmap(void *Begin, std::size_t Bytes) noexcept { syscall(SYS_munmap, Begin, Bytes); }

} // namespace libsplit::raw
