#include "guarded_entry.hpp"

#include "runtime.hpp"

#include <cxxabi.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace libsplit {

namespace {

void say(const char *Entry, const char *What) noexcept {
  try {
    runtime().log().once(std::string("escaped:") + Entry, config::LogLevel::Warn, Entry,
                         " failed inside libsplit (", What,
                         "): it returns the error of a host out of resources");
  } catch (...) {
    // The runtime itself could not be made or could not log: stderr, as a last resort.
    std::fprintf(stderr, "libsplit: %s failed inside libsplit (%s)\n", Entry, What);
  }
}

} // namespace

cl_int escapedError(const char *Entry) {
  try {
    throw;
  } catch (abi::__forced_unwind &) {
    throw; // a cancelled thread unwinds on
  } catch (const std::bad_alloc &) {
    say(Entry, "out of host memory");
    return CL_OUT_OF_HOST_MEMORY;
  } catch (const std::exception &Escaped) {
    say(Entry, Escaped.what());
  } catch (...) {
    say(Entry, "an unknown exception");
  }
  return CL_OUT_OF_RESOURCES;
}

} // namespace libsplit
