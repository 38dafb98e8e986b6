// libsplit's SIGSEGV handler, installed in front of whatever the process had, with the app's own
// SIGSEGV action kept behind it. Faults that are not libsplit's reach that action unchanged
// (same siginfo, same context, the mask it asked for), and with no action of the app's, a real
// segmentation fault kills the process with SIGSEGV as it would have without libsplit.
//
// libsigsegv is not used for this: it replaces the previous handler and, for a fault its
// client declines, resets the default action instead of calling the previous handler, and it
// gives its client the fault address only, not the context a JIT's handler needs.
//
// While installed, sigaction() and signal() for SIGSEGV (libc_wrappers.cpp) read and set the
// app's action here, so an app or JIT that installs its handler later does not unhook libsplit.
#pragma once

#include <signal.h>

#include <atomic>

namespace libsplit {

class SegvChain {
public:
  SegvChain() = default;
  ~SegvChain(); // puts the app's action back
  SegvChain(const SegvChain &) = delete;
  SegvChain &operator=(const SegvChain &) = delete;

  // Installs the handler (once; later calls return the first result).
  bool install() noexcept;
  bool installed() const noexcept { return State.load(std::memory_order_acquire) == On; }

  // sigaction(SIGSEGV, Act, Old) on behalf of the app while installed.
  int appAction(const struct sigaction *Act, struct sigaction *Old) noexcept;

  // Hands a fault that is not libsplit's to the app's action, as the kernel would have.
  void passOn(int Signal, siginfo_t *Info, void *Context) noexcept;

private:
  enum { Off, Installing, On, Failed };
  void waitWhileInstalling() const noexcept;

  std::atomic<int> State{Off};
  // The app's action, double-buffered: the handler reads the current one without a lock while
  // appAction() writes the other and flips.
  struct sigaction Actions[2] = {};
  std::atomic<int> Current{0};
  std::atomic_flag Writing = ATOMIC_FLAG_INIT;
};

// libc's pthread_sigmask: libsplit's own definition (libc_wrappers.cpp) never blocks SIGSEGV,
// and libsplit's handler must give the app's handler the mask it asked for.
int libcSignalMask(int How, const sigset_t *Set, sigset_t *Old) noexcept;

} // namespace libsplit
