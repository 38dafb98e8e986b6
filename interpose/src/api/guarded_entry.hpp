// The entry points that create, query or set up objects are function-try-blocks whose handler
// returns escapedFrom. An exception out of libsplit's own code there (host memory or threads
// exhausted: std::bad_alloc, std::system_error) must not unwind into the app's C frames, which
// would end the process: the call returns the error a native implementation gives when it runs
// out of host resources, and libsplit says why, once. (A handler, not a wrapping lambda: the
// calls cost nothing more until something throws.) The entry points that queue, run, wait for
// or release commands are not: an exception there leaves a queue's state half done (its executor
// busy, an event running), and the app's next wait would hang where the process ends now.
#pragma once

#include "opencl.hpp"

#include <type_traits>

namespace libsplit {

// Inside a handler: the exception's error (rethrown where it is a cancelled thread's unwinding),
// said once for Entry.
cl_int escapedError(const char *Entry);

template <typename Result> Result escapedFrom(const char *Entry, cl_int *ErrorRet) {
  const cl_int Error = escapedError(Entry);
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
