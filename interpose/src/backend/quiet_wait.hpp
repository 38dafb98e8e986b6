// Waiting for real events without spinning, for the threads of libsplit's own that wait while
// the app keeps launching (a queue's executor completing what its launches left running).
#pragma once

#include "opencl.hpp"

#include <vector>

namespace libsplit {

// Waits until every event in Events has ended (completed or failed). An event of a GPU's queue
// is polled, asleep in between (a few tens of microseconds at first, then at most a fifth of a
// millisecond): NVIDIA's clWaitForEvents, and the thread behind its event callbacks, spin in
// loops that take the driver's locks, and the app thread's launches on the same queue waited for
// them (a launch's host time grew by half). Other events are waited for in clWaitForEvents
// (PoCL's sleeps, and a poll's wake-ups would take the cores its CPU devices run on). Each
// event's queue is flushed first.
void waitQuietly(const std::vector<cl_event> &Events);

} // namespace libsplit
