// Preloaded after libsplit by e2e.jacobi2d.sigchld-ignored: the app ignores SIGCHLD, as servers
// and some launchers do, so that the kernel compiler's exit status is reaped by the kernel before
// libsplit can wait for it.
#include <csignal>

namespace {
__attribute__((constructor)) void ignoreChildren() { std::signal(SIGCHLD, SIG_IGN); }
} // namespace
