// Loaded by test_loader_frames: records what mayRunUnderLoader says in its constructor, which the
// dynamic loader runs during dlopen, and answers again when called once loaded.
#include "loader_frames.hpp"

namespace {
int SaidInConstructor = -1;
__attribute__((constructor)) void probeAsLoaded() {
  SaidInConstructor = libsplit::mayRunUnderLoader() ? 1 : 0;
}
} // namespace

extern "C" {
__attribute__((visibility("default"))) int loaderProbeInConstructor() { return SaidInConstructor; }
__attribute__((visibility("default"))) int loaderProbeNow() {
  return libsplit::mayRunUnderLoader() ? 1 : 0;
}
}
