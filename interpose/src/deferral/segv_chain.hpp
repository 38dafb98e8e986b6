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

// What libsplit made of a write-protection fault.
enum class FaultVerdict {
  Handled, // a page libsplit protected: dealt with, retry the access
  WasOurs, // a page libsplit protected until just now: retry once, then it is not libsplit's
  NotOurs,
};

// Who claims the faults the handler sees (the deferred writes' registry): asked from the
// signal handler, so it must be async-signal-safe.
class FaultClaimer {
public:
  virtual FaultVerdict onFault(void *Address) noexcept = 0;

protected:
  ~FaultClaimer() = default;
};

class SegvChain {
public:
  SegvChain() = default;
  ~SegvChain(); // puts the app's action back
  SegvChain(const SegvChain &) = delete;
  SegvChain &operator=(const SegvChain &) = delete;

  // Installs the handler (once; later calls return the first result), which asks Claimer
  // about each write-protection fault before passing it on. One chain is installed per process,
  // as the signal's action is.
  bool install(FaultClaimer &Claimer) noexcept;
  bool installed() const noexcept { return State.load(std::memory_order_acquire) == On; }
  FaultClaimer *claimer() const noexcept { return Claimer.load(std::memory_order_acquire); }
  // From now on every fault goes on to the app's action (the claimer is going away).
  void dropClaimer() noexcept { Claimer.store(nullptr, std::memory_order_release); }

  // sigaction(SIGSEGV, Act, Old) on behalf of the app while installed.
  int appAction(const struct sigaction *Act, struct sigaction *Old) noexcept;

  // Hands a fault that is not libsplit's to the app's action, as the kernel would have.
  void passOn(int Signal, siginfo_t *Info, void *Context) noexcept;

private:
  enum { Off, Installing, On, Failed };
  void waitWhileInstalling() const noexcept;

  std::atomic<int> State{Off};
  std::atomic<FaultClaimer *> Claimer{nullptr};
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
