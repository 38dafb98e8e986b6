#include "guarded_entry.hpp"

#include "escaped_error.hpp"
#include "runtime.hpp"

namespace libsplit {

cl_int escapedError(const char *Entry) {
  config::Logger *Log = nullptr;
  try {
    Log = &runtime().log();
  } catch (...) {
    // The runtime itself could not be made: said on stderr.
  }
  return escapedError(Log, Entry);
}

} // namespace libsplit
