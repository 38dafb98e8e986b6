// The real commands of a device's jobs that libsplit times or waits for: its kernels (on the
// device's real queue, or its profiling twin), the waits for their events and for its queue.
#pragma once

#include "exec_device.hpp"
#include "opencl.hpp"
#include "timeline.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace libsplit {

// The real clEnqueueNDRangeKernel of a device's job (no wait list), under the device's
// KernelEnqueueLock; learns from Done whether the device's enqueue runs the kernel: three kernels
// in a row complete when it returns make it one, any other answer one whose does not. Done may
// be null (no event: nothing learnt, and the kernel runs on RealQueue); with Done, on the
// device's TimingQueue where it has one, so that its profiling times can be read.
cl_int enqueueRealKernel(ExecDevice &Device, cl_kernel Kernel, cl_uint WorkDim,
                         const size_t *Offset, const size_t *Global, const size_t *Local,
                         cl_event *Done);

// Waits for a real command's event on Device and releases it; returns the status it ended with.
cl_int awaitEnd(const ExecDevice &Device, cl_event Done);

// A real command's profiling times, in the device's clock (zero where unknown).
struct RealTimes {
  cl_ulong Queued = 0, Start = 0, End = 0;
};

// Waits for a real kernel's event on Device, releases it, and returns its profiled duration in
// Seconds; SinceQueued, when given, gets the seconds from its enqueueing to its start (0 if
// unknown); Times, when given, its profiling times.
cl_int awaitKernel(const ExecDevice &Device, cl_event Done, double &Seconds,
                   double *SinceQueued = nullptr, RealTimes *Times = nullptr);
// A kernel left running on Device, enqueued at Enqueued: waits for it, shows it on the timeline
// (the device's track, Name, an arrow from the app's call Called) from its own profiling (the
// wait may end long after the kernel did: the next command ran first), and returns its duration
// in Seconds.
cl_int awaitPipelined(const ExecDevice &Device, cl_event Running,
                      std::chrono::steady_clock::time_point Enqueued, const std::string &Name,
                      double &Seconds, const std::optional<Timeline::Call> &Called = std::nullopt,
                      RealTimes *Times = nullptr);

// Waits until everything enqueued so far on the device's real queue has ended (its clFinish:
// cheaper than a marker's event with NVIDIA's driver), kernels timed on its twin included (the
// real queue's barrier waits for each).
void awaitRealQueue(ExecDevice &Device);
// Waits for the commands enqueued on the device's real queue so far, not for those enqueued
// meanwhile (a marker's event; the queue's clFinish where the marker fails); Quietly: asleep until
// the marker's callback (waitQuietly), for a thread that waits while the app launches.
void awaitRealQueueSoFar(ExecDevice &Device, bool Quietly = false);

} // namespace libsplit
