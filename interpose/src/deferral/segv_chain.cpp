#include "segv_chain.hpp"

#include "next_symbol.hpp"

#include <pthread.h>
#include <sched.h>
#include <ucontext.h>

#include <cerrno>
#include <cstdint>

namespace libsplit {

namespace {

using SigactionFn = int (*)(int, const struct sigaction *, struct sigaction *);
std::atomic<SigactionFn> RealSigaction{nullptr};

int realSigaction(int Signal, const struct sigaction *Act, struct sigaction *Old) noexcept {
  SigactionFn Real = nextSymbol(RealSigaction, "sigaction");
  return Real ? Real(Signal, Act, Old) : -1;
}

using SigmaskFn = int (*)(int, const sigset_t *, sigset_t *);
std::atomic<SigmaskFn> RealSigmask{nullptr};

// The address this thread's last fault was retried at without anything to preserve. Such a
// fault raced with libsplit unprotecting the page: retrying once lets it succeed. A second
// fault at the same address is not libsplit's. Initial-exec TLS: libsplit.so is loaded at
// start-up (LD_PRELOAD), and this model needs no allocation, so the handler may use it.
__attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t RetriedAddress = 0;

// The installed chain: the signal's action is the process's, and so is the handler's way to it.
std::atomic<SegvChain *> Installed{nullptr};

void onSegv(int Signal, siginfo_t *Info, void *Context) {
  const int SavedErrno = errno;
  SegvChain *Chain = Installed.load(std::memory_order_acquire);
  if (!Chain)
    return; // cannot happen: the handler is installed with its chain
  FaultClaimer *Claimer = Chain->claimer();
  if (Claimer && Info && Info->si_code == SEGV_ACCERR) {
    const auto Address = reinterpret_cast<std::uintptr_t>(Info->si_addr);
    switch (Claimer->onFault(Info->si_addr)) {
    case FaultVerdict::Handled:
      RetriedAddress = 0;
      errno = SavedErrno;
      return;
    case FaultVerdict::WasOurs:
      if (RetriedAddress != Address) {
        RetriedAddress = Address;
        errno = SavedErrno;
        return;
      }
      break;
    case FaultVerdict::NotOurs:
      break;
    }
  }
  RetriedAddress = 0;
  errno = SavedErrno;
  Chain->passOn(Signal, Info, Context);
}

} // namespace

int libcSignalMask(int How, const sigset_t *Set, sigset_t *Old) noexcept {
  SigmaskFn Real = nextSymbol(RealSigmask, "pthread_sigmask");
  return Real ? Real(How, Set, Old) : -1;
}

SegvChain::~SegvChain() {
  SegvChain *Self = this;
  Installed.compare_exchange_strong(Self, nullptr);
  if (State.load() != On)
    return;
  struct sigaction App = Actions[Current.load()];
  State.store(Off);
  realSigaction(SIGSEGV, &App, nullptr);
}

bool SegvChain::install(FaultClaimer &Claiming) noexcept {
  int Expected = Off;
  if (!State.compare_exchange_strong(Expected, Installing)) {
    waitWhileInstalling();
    return State.load() == On;
  }
  Claimer.store(&Claiming, std::memory_order_release);
  // The first chain installed answers every fault (a later one's action reaches the same
  // handler), as long as it lives.
  SegvChain *None = nullptr;
  Installed.compare_exchange_strong(None, this);
  // Resolved now, not in the handler: dlsym is not async-signal-safe.
  nextSymbol(RealSigmask, "pthread_sigmask");
  struct sigaction Ours = {};
  Ours.sa_sigaction = onSegv;
  // No other signal may interrupt the handler: a signal handler writing to a page the
  // interrupted handler is preserving would wait for it forever. SA_ONSTACK: an app with an
  // alternate stack for stack overflows keeps it.
  sigfillset(&Ours.sa_mask);
  Ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  struct sigaction Previous = {};
  if (realSigaction(SIGSEGV, &Ours, &Previous) != 0) {
    State.store(Failed);
    return false;
  }
  Actions[0] = Previous;
  Current.store(0);
  State.store(On, std::memory_order_release);
  return true;
}

void SegvChain::waitWhileInstalling() const noexcept {
  while (State.load(std::memory_order_acquire) == Installing)
    sched_yield();
}

int SegvChain::appAction(const struct sigaction *Act, struct sigaction *Old) noexcept {
  waitWhileInstalling();
  while (Writing.test_and_set(std::memory_order_acquire))
    sched_yield();
  const int Now = Current.load(std::memory_order_relaxed);
  if (Old)
    *Old = Actions[Now];
  if (Act) {
    Actions[1 - Now] = *Act;
    Current.store(1 - Now, std::memory_order_release);
  }
  Writing.clear(std::memory_order_release);
  return 0;
}

void SegvChain::passOn(int Signal, siginfo_t *Info, void *Context) noexcept {
  const struct sigaction App = Actions[Current.load(std::memory_order_acquire)];
  const bool WithInfo = App.sa_flags & SA_SIGINFO;
  const bool FromFault = Info && Info->si_code > 0; // sent by the kernel for an access
  const bool Default = WithInfo ? App.sa_sigaction == nullptr : App.sa_handler == SIG_DFL;
  const bool Ignored = !WithInfo && App.sa_handler == SIG_IGN;
  if (Ignored && !FromFault)
    return; // a SIGSEGV sent with kill() that the app ignores
  if (Default || Ignored) {
    // Without libsplit the kernel would apply the default action (it does for an ignored
    // fault too): restore it. A fault happens again when the access is retried; a sent signal
    // is raised again, and delivered once this handler returns.
    struct sigaction Dfl = {};
    Dfl.sa_handler = SIG_DFL;
    State.store(Off, std::memory_order_release);
    realSigaction(SIGSEGV, &Dfl, nullptr);
    if (!FromFault)
      raise(Signal);
    return;
  }
  if (App.sa_flags & SA_RESETHAND) {
    struct sigaction Dfl = {};
    Dfl.sa_handler = SIG_DFL;
    appAction(&Dfl, nullptr);
  }
  // The mask the app's handler would have run with: the interrupted code's, plus its sa_mask,
  // plus SIGSEGV itself unless SA_NODEFER.
  sigset_t Mask;
  if (Context)
    Mask = static_cast<ucontext_t *>(Context)->uc_sigmask;
  else
    sigemptyset(&Mask);
  for (int S = 1; S < NSIG; ++S)
    if (sigismember(&App.sa_mask, S) == 1)
      sigaddset(&Mask, S);
  if (!(App.sa_flags & SA_NODEFER))
    sigaddset(&Mask, Signal);
  sigset_t Saved;
  libcSignalMask(SIG_SETMASK, &Mask, &Saved);
  if (WithInfo)
    App.sa_sigaction(Signal, Info, Context);
  else
    App.sa_handler(Signal);
  libcSignalMask(SIG_SETMASK, &Saved, nullptr);
}

} // namespace libsplit
