#include "escaped_error.hpp"

#include "config/log.hpp"

#include <cxxabi.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace libsplit {

namespace {

void say(config::Logger *Log, const char *Where, const char *What) noexcept {
  try {
    if (Log) {
      Log->once(std::string("escaped:") + Where, config::LogLevel::Warn, Where,
                " failed inside libsplit (", What,
                "): it returns the error of a host out of resources");
      return;
    }
  } catch (...) {
    // Saying it needs memory too: stderr, as a last resort.
  }
  std::fprintf(stderr, "libsplit: %s failed inside libsplit (%s)\n", Where, What);
}

} // namespace

cl_int escapedError(config::Logger *Log, const char *Where) {
  try {
    throw;
  } catch (abi::__forced_unwind &) {
    throw; // a cancelled thread unwinds on
  } catch (const std::bad_alloc &) {
    say(Log, Where, "out of host memory");
    return CL_OUT_OF_HOST_MEMORY;
  } catch (const std::exception &Escaped) {
    say(Log, Where, Escaped.what());
  } catch (...) {
    say(Log, Where, "an unknown exception");
  }
  return CL_OUT_OF_RESOURCES;
}

} // namespace libsplit
