// The definition of a libc function that libsplit's own definition of it hides: the next one
// in the lookup order after libsplit.so (libc's, or another interposer's).
#pragma once

#include <dlfcn.h>

#include <atomic>

namespace libsplit {

// Cache is a function-local or namespace-scope atomic, so that a first call from a signal
// handler or a constructor never runs a guarded static initialisation.
template <typename Fn> Fn nextSymbol(std::atomic<Fn> &Cache, const char *Name) noexcept {
  Fn Found = Cache.load(std::memory_order_acquire);
  if (!Found) {
    Found = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
    Cache.store(Found, std::memory_order_release);
  }
  return Found;
}

} // namespace libsplit
