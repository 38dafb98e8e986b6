// Every entry point runs its body through guardedEntry. An exception out of libsplit's own code
// (host memory or threads exhausted: std::bad_alloc, std::system_error) must not unwind into
// the app's C frames, which would end the process: the call returns the error a native
// implementation gives when it runs out of host resources, and libsplit says why, once.
#pragma once

#include "opencl.hpp"

#include <cxxabi.h>

#include <exception>
#include <new>
#include <type_traits>

namespace libsplit {

// Says once which entry point an exception escaped from, and what it was (never throws).
void noteEscapedException(const char *Entry, const char *What) noexcept;

template <typename Result, typename Body>
Result guardedEntry(const char *Entry, cl_int *ErrorRet, Body &&Run) {
  cl_int Error = CL_OUT_OF_RESOURCES;
  try {
    return Run();
  } catch (abi::__forced_unwind &) {
    throw; // a cancelled thread unwinds on
  } catch (const std::bad_alloc &) {
    Error = CL_OUT_OF_HOST_MEMORY;
    noteEscapedException(Entry, "out of host memory");
  } catch (const std::exception &Escaped) {
    noteEscapedException(Entry, Escaped.what());
  } catch (...) {
    noteEscapedException(Entry, "an unknown exception");
  }
  if constexpr (std::is_same_v<Result, cl_int>) {
    return Error;
  } else if constexpr (std::is_void_v<Result>) {
    return;
  } else {
    if (ErrorRet)
      *ErrorRet = Error;
    return Result{};
  }
}

} // namespace libsplit
