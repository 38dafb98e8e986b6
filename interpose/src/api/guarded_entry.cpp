#include "guarded_entry.hpp"

#include "runtime.hpp"

#include <cstdio>
#include <string>

namespace libsplit {

void noteEscapedException(const char *Entry, const char *What) noexcept {
  try {
    runtime().log().once(std::string("escaped:") + Entry, config::LogLevel::Warn, Entry,
                         " failed inside libsplit (", What,
                         "): it returns the error of a host out of resources");
  } catch (...) {
    // The runtime itself could not be made or could not log: stderr, as a last resort.
    std::fprintf(stderr, "libsplit: %s failed inside libsplit (%s)\n", Entry, What);
  }
}

} // namespace libsplit
