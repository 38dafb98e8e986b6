// What happened at each launch, for the people who want to see why: one JSON Lines record per
// launch to LIBSPLIT_TRACE (format: docs/trace-format.md), and the per-kernel and per-device
// summary that LIBSPLIT_SUMMARY prints at exit.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace libsplit {

struct DeviceRecord {
  std::string Name;
  double Share = 0.0;
  std::uint64_t FirstGroup = 0;
  std::uint64_t Groups = 0;
  double KernelSeconds = 0.0;
  double TransferSeconds = 0.0;
  std::uint64_t BytesIn = 0;  // host to device before the kernel
  std::uint64_t BytesOut = 0; // device to host (gathers for others, merges)
  // Of Groups, those queued before the bytes it lacked arrived (LIBSPLIT_OVERLAP).
  std::uint64_t EarlyGroups = 0;
};

struct LaunchRecord {
  std::string Kernel;
  std::uint32_t WorkDim = 1;
  std::array<std::uint64_t, 3> Global = {1, 1, 1};
  std::array<std::uint64_t, 3> Local = {0, 0, 0}; // 0: the app passed NULL
  std::array<std::uint64_t, 3> Offset = {0, 0, 0};
  bool Split = false;
  std::string Unsplit; // why not, when not split
  std::uint32_t SplitDim = 0;
  std::string Purpose;       // balance, probe-device, probe-single
  std::string BalancerState; // the balancer's state name after this launch
  bool Converged = false;
  double Spread = 0.0; // (max - min) / mean of the devices' times, as the balancer saw it
  double Noise = 0.0;  // the balancer's noise estimates (see KeyTrace)
  double SpreadNoise = 0.0;
  bool Merged = false;   // written buffers merged by diff (regions unknown or overlapping)
  bool Combined = false; // atomically updated buffers combined from the devices' copies
  double MakespanSeconds = 0.0;
  std::vector<DeviceRecord> Devices;
};

class RunRecorder {
public:
  RunRecorder(const std::string &TracePath, bool Summary);
  ~RunRecorder();

  void record(const LaunchRecord &Launch);
  // Whether record() keeps anything (a summary or a trace was asked for): a launch need not
  // build its record otherwise.
  bool wanted() const { return WantSummary || Trace != nullptr; }
  // Whether every launch needs a record of its own, timed (a trace was asked for). The summary
  // alone does not: a launch that runs as natively (whole on the app's device, not waited for)
  // is only counted (countUntimed), so that asking for the summary leaves the run as it is.
  bool tracing() const { return Trace != nullptr; }
  bool summarizing() const { return WantSummary; }
  // A launch run whole on Device without a record: counted, not timed (summary only), with the
  // bytes it moved to Device before its kernel.
  void countUntimed(const std::string &Kernel, const std::string &Device, std::string_view Why,
                    std::uint64_t BytesIn = 0);
  // The same for a launch that ran so because the split devices were not open yet: the
  // summary says how far the run was from opening them (notOpenYet), formatted at exit rather
  // than at each launch.
  void countUntimedNotOpen(const std::string &Kernel, const std::string &Device,
                           double OpenAfterSeconds, double WaitedSeconds,
                           double QueuedSeconds = -1.0);
  // Why a launch ran whole while the split devices were planned but not open: they open once
  // the app has waited OpenAfterSeconds for its device (or, where QueuedSeconds is not
  // negative, once its launches queued are predicted to take that long), it had waited
  // WaitedSeconds and queued QueuedSeconds (the words of the summary and the trace; without the
  // numbers where the first two are negative).
  static std::string notOpenYet(double OpenAfterSeconds = -1.0, double WaitedSeconds = -1.0,
                                double QueuedSeconds = -1.0);

  // Host writes (clEnqueueWriteBuffer[Rect], CL_MEM_COPY_HOST_PTR) by what LIBSPLIT_DEFER did.
  // ToAppDevice: LIBSPLIT_UPLOAD sent it to the app's device, straight from the app's memory.
  // OnAppMemory: a buffer created on the app's memory (CL_MEM_USE_HOST_PTR), whose host copy
  // stays there.
  enum class HostWrite { Deferred, Copied, Eager, ToAppDevice, OnAppMemory };
  void countHostWrite(HostWrite Kind, std::uint64_t Bytes);
  // Bytes sent to devices at write time (LIBSPLIT_DEFER=off, LIBSPLIT_UPLOAD), all devices
  // together.
  void countEagerBytes(std::uint64_t Bytes);
  // The LIBSPLIT_SUMMARY text (empty when not asked for).
  std::string summary() const;
  void flush();

private:
  struct KernelTotals {
    std::uint64_t Launches = 0;
    std::uint64_t SplitLaunches = 0;   // through the split path, on one device or more
    std::uint64_t SharedLaunches = 0;  // of them, on two devices or more
    std::uint64_t ChunkedLaunches = 0; // launches run in chunks (LIBSPLIT_CHUNK), split or not
    std::string Unsplit;
    std::vector<std::string> Devices;
    std::vector<double> LastShares;
    double MakespanSum = 0.0;
    std::uint64_t Bytes = 0;
    std::uint64_t Untimed = 0; // of Launches, counted without a record (countUntimed)
    // Where the last launch was counted by countUntimedNotOpen (Unsplit then empty): the
    // opening's threshold and the app's waiting then.
    double NotOpenAfter = -1.0, NotOpenWaited = -1.0, NotOpenQueued = -1.0;
  };
  // One more untimed launch of Kernel on Device (Mutex held): its totals.
  KernelTotals &countUntimedLocked(const std::string &Kernel, const std::string &Device);

  mutable std::mutex Mutex;
  std::FILE *Trace = nullptr;
  bool WantSummary;
  std::uint64_t LaunchIndex = 0;
  std::map<std::string, KernelTotals> Kernels;
  std::map<std::string, double> DeviceBusy;
  std::uint64_t BytesInLaunches = 0; // host to devices before kernels, all launches
  std::uint64_t EagerBytes = 0;
  struct WriteCount {
    std::uint64_t Calls = 0;
    std::uint64_t Bytes = 0;
  };
  std::map<HostWrite, WriteCount> HostWrites;
};

} // namespace libsplit
