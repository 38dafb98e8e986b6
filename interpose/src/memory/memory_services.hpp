// What buffers use of the rest of libsplit, handed to them by the place they live in (their
// context, from the process's runtime) rather than reached through a global: a unit test hands
// its own (a backend on host memory, its own timeline and recorder).
#pragma once

#include "deferred_writes.hpp"
#include "device_backend.hpp"
#include "live_memory.hpp"
#include "run_record.hpp"
#include "timeline.hpp"

#include "config/config.hpp"
#include "config/log.hpp"

namespace libsplit {

struct MemoryServices {
  DeviceBackend &Backend;   // the transfers themselves
  DeferredWrites &Deferred; // host writes left in the app's memory (LIBSPLIT_DEFER=mprotect)
  config::DeferMode Defer;  // what happens to a host write at the call
  LiveMemory &Live;         // every buffer registers itself there
  RunRecorder &Recorder;    // bytes written from the host, eagerly sent
  Timeline &Spans;          // transfers shown on the devices' tracks
  config::Logger &Log;
};

} // namespace libsplit
