// Placeholder until the interposer core (issue 4) lands: this libsplit.so intercepts no OpenCL
// call, so an app preloaded with it runs exactly as natively, on the one device it chose.
// It says so once at load, so that nobody mistakes a pass-through run for a split one.
#include <cstdio>

namespace {
__attribute__((constructor)) void announcePassThrough() {
  std::fprintf(stderr, "libsplit: warning: this build has no interposer yet; the app runs "
                       "pass-through, unsplit, on the device it chose\n");
}
} // namespace
