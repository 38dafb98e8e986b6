// clEnqueueNDRangeKernel's command: decides whether and how to split, moves the data each
// device lacks, runs the slices in parallel and records which device holds what it wrote.
#pragma once

#include "kernel.hpp"
#include "queue.hpp"

#include <array>

namespace libsplit {

struct LaunchRequest {
  cl_uint WorkDim = 1;
  std::array<size_t, 3> Global = {1, 1, 1};
  std::array<size_t, 3> Local = {1, 1, 1};
  bool LocalGiven = false;
  std::array<size_t, 3> Offset = {0, 0, 0};
  std::vector<KernelArg> Args;
  // The app asked for the launch's event: it may wait for this launch alone, so the launch keeps
  // a real event of its own (a marker would also wait for the launches queued after it).
  bool EventWanted = false;
};

// Runs on the queue's executor thread, or on the app's (Queue::enqueue). WholeSettled: the launch
// was promised to run whole on the app's device (runsWholeNext said so at the call). A launch
// left running takes Request's arguments with it.
cl_int executeLaunch(Queue &Q, Kernel &K, LaunchRequest &Request, Event &Done,
                     bool WholeSettled = false);

// Whether the split guard has settled K's launches from Q on running whole on Q's device, with
// no probe or measurement due at this launch: it may then start on the app's thread behind
// unfinished launches, as where nothing splits.
bool runsWholeNext(Queue &Q, Kernel &K, const LaunchRequest &Request);

} // namespace libsplit
