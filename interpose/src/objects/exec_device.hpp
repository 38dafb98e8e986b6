// A device libsplit executes on, below one of its contexts: the real device, its real context
// and in-order queue, its worker thread, and what it learnt of how the device runs kernels. And
// how jobs run on several of them at once.
#pragma once

#include "device_worker.hpp"
#include "opencl.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace libsplit {

class Context;
class Device;

struct ExecDevice {
  // The context it runs for: its real API and timeline, for the real calls on its queue (null in
  // unit tests, which make no real call).
  Context *Owner = nullptr;
  std::size_t Index = 0;
  std::string Name;  // told apart by a number where devices share a model ("... #2")
  std::string Model; // the device's own name: two of one model share it
  cl_device_id Real = nullptr;
  cl_context RealContext = nullptr; // owned by the Context
  cl_command_queue RealQueue = nullptr;
  // A profiling twin of RealQueue on an app's device whose RealQueue does not profile (a
  // profiling queue costs NVIDIA's driver at every command, the app's untimed launches and
  // transfers included): the kernels whose device times are read run there, ordered with
  // RealQueue's commands (enqueueRealKernel). Null where RealQueue profiles, or nothing is timed.
  cl_command_queue TimingQueue = nullptr;
  Device *Visible = nullptr; // the app's view of it, or the root device a sub-device came from
  bool Splits = false;       // takes part in split launches
  std::size_t MaxWorkGroupSize = 0;
  std::vector<std::size_t> MaxWorkItemSizes;
  cl_ulong LocalMemSize = 0;
  cl_uint ComputeUnits = 1;
  unsigned Version = 0; // OpenCL version of the device: 10 * major + minor
  cl_device_type Type = 0;
  std::unique_ptr<DeviceWorker> Worker;
  // Whether the real clEnqueueNDRangeKernel returns only once the kernel ran (PoCL's basic
  // device): -1 not known yet, 0 no, 1 yes. Learnt from the device's first kernels
  // (learnKernelEnqueue); read by any thread.
  std::atomic<int> KernelRunsInEnqueue{-1};
  int CompleteWhenQueued = 0; // kernels seen complete as their enqueue returned; jobs only
  std::mutex *KernelEnqueueLock = nullptr; // KernelEnqueueLocks::of(Real), shared by contexts
  // Its real context, queue and worker exist (the app's devices from the start, the others once
  // the context opens them): nothing else of a device that is not ready may be touched.
  std::atomic<bool> Ready{false};
  // Time spent in the real clEnqueueNDRangeKernel where the device runs the kernel there: the
  // app waits for the device inside its launch calls (Context::waitedSeconds).
  std::atomic<std::int64_t> RanInEnqueueNs{0};
  // Bytes per second between page-locked host memory and the device, measured once as it opened
  // (link_probe.hpp; a GPU opened for splits only): what a relay to or from it moves at. 0 where
  // not measured.
  std::atomic<double> PageLockedBytesPerSecond{0.0};
  // When its last pipelined launch part (a split's slice, a whole launch) ended, on its profiling
  // clock in nanoseconds (0: none): where the next one's cost starts (planner/pipelined_cost.hpp).
  std::atomic<cl_ulong> LastPipelinedEndNs{0};
};

// Runs each job on its device's worker, all at once, and waits for all of them. Returns the
// first error a job reported (jobs return CL_SUCCESS or a real OpenCL error).
struct DeviceJob {
  ExecDevice *Device;
  std::function<cl_int()> Run;
};
// Short: each job only queues work on its device (nothing to wait for): the caller runs them
// one after the other, which costs less than waking the workers, CPU devices first (PoCL's
// CPU takes several times a GPU's time to start a kernel: queued second, the CPU's slice
// started later still, and the app waited for it).
cl_int runOnDevices(std::vector<DeviceJob> Jobs, bool Short = false);

} // namespace libsplit
