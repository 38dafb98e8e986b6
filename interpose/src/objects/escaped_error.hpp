// What an exception out of libsplit's own code becomes (host memory or threads exhausted:
// std::bad_alloc, std::system_error): the error a native implementation gives when it runs out
// of host resources, said once per place. Where it escapes decides what else must happen: an
// entry point returns the error (api/guarded_entry.hpp), a command ends with it (its event's
// status), a device job hands the exception to the thread that waits for it
// (DeviceWorker::runHere, runOnDevices), which must never leave a stack that other threads
// still use, and a chunk fails its launch (chunked_launch.cpp).
#pragma once

#include "opencl.hpp"

namespace libsplit {

namespace config {
class Logger;
}

// Inside a handler: the exception's error, said once for Where through Log (on stderr where Log
// is null or cannot log). A cancelled thread's forced unwinding is rethrown.
cl_int escapedError(config::Logger *Log, const char *Where);

} // namespace libsplit
