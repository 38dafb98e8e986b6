// Every entry point is a function-try-block whose handler returns escapedFrom. An exception out
// of libsplit's own code (host memory or threads exhausted: std::bad_alloc, std::system_error)
// must not unwind into the app's C frames, which would end the process: the call returns the
// error a native implementation gives when it runs out of host resources, and libsplit says
// why, once. (A handler, not a wrapping lambda: the calls cost nothing more until something
// throws.) A command's own work fails the same way where it runs (Queue::execute: its event ends
// with the error), and what a command left half done on the way is undone before the exception
// leaves it (the queue's executor given back, an event enqueued but not queued completed), so
// that the app's next wait does not hang.
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
