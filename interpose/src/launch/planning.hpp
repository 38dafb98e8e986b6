// The runtime's side of the planner: one SplitGuard per kernel (its source, name and the app's
// device), behind a lock, since launches are decided on executor threads and measured on
// whichever thread completes them.
#pragma once

#include "config/config.hpp"
#include "config/log.hpp"
#include "libsplit/planner/split_guard.hpp"
#include "libsplit/planner/warm_start.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace libsplit {

// What the spreads of an app device's kernels may count beyond each kernel's own time since its
// last probe (planner::SplitGuard::creditExpectedRun): shared by those kernels and spent, for the
// run, by the first spread that needs it.
struct RunCredit {
  // How long an earlier run of the app waited for its device (the warm start): a run expected,
  // counted beside the kernel's own time.
  std::atomic<double> EarlierRun{0.0};
  // The work the app has queued on its device since it began, every kernel's, predicted: the run
  // so far and what of it is still to run, of which the kernel's own time is a part.
  std::atomic<double> Queued{0.0};
  std::atomic<bool> Spent{false};
  // The credit of a kernel whose own time since its last probe is KernelSeconds.
  double beyond(double KernelSeconds) const;
};

// One kernel's guard and its lock (launches decide on executor threads, and are measured on
// whichever thread completes them).
class GuardSlot {
public:
  // Alternate: LIBSPLIT_SPLIT=alternate, split and whole launches in turn instead of the guard.
  // Credit: the app device's RunCredit, or none.
  explicit GuardSlot(bool Alternate = false, std::shared_ptr<RunCredit> Credit = nullptr)
      : Alternate(Alternate), Credit(std::move(Credit)) {}
  bool needsPrice();
  planner::Decision decide(double Work, const std::optional<planner::PricedBytes> &Bytes);
  void observe(const planner::Ticket &Launch, double Work, double Seconds);
  void observeInferredWhole(double Work, double Seconds);
  void startFromWholeTime(double Work, double Seconds);
  bool settledWhole(double Work);
  planner::Decision decideWhole(double Work);
  void withdrawWhole(const planner::Decision &D, double Work);
  bool plansSplit();
  std::optional<planner::GuardRecord> record();
  void seed(const planner::GuardRecord &Record);
  // The spread probes (LaunchPlanner::spreadProbes) this kernel has looked at: the count it had
  // seen before, where Now differs from it (it has seen Now from then on).
  std::optional<std::uint64_t> catchUpSpreadProbes(std::uint64_t Now);
  void joinProbe();

private:
  std::atomic<std::uint64_t> SpreadProbesSeen{0};
  std::mutex Mutex;
  planner::SplitGuard Guard;
  bool Alternate;
  bool NextSplits = true;
  std::shared_ptr<RunCredit> Credit;
};

class LaunchPlanner {
public:
  explicit LaunchPlanner(const config::Config &Settings);

  // Whether the guard decides (LIBSPLIT_SPLIT=auto with shares that adapt, LIBSPLIT_CHUNK not
  // always); otherwise every launch that can split does.
  bool guarding() const { return Guarding; }
  // Whether the guard decides from costs (LIBSPLIT_SPLIT=auto): a kernel's first launch then
  // runs whole where the devices share hardware.
  bool decidesFromCosts() const { return Guarding && !Alternate; }
  // The same for a run with Settings, before its planner exists.
  static bool decidesFromCosts(const config::Config &Settings);
  // Probes that spread a kernel's data to the split devices (planner::Decision::Spreads), counted
  // over the process: a new one makes the kernels sharing its buffers probe with it.
  std::uint64_t spreadProbes() const { return SpreadProbes.load(std::memory_order_acquire); }
  std::uint64_t noteSpreadProbe() { return SpreadProbes.fetch_add(1) + 1; }
  // The guard of a kernel (its name and source) launched from an app device (an execution
  // device index): kernel objects made again for the same kernel share it.
  std::shared_ptr<GuardSlot> guardFor(const std::string &Kernel, std::size_t AppDevice);

  // Warm start (LIBSPLIT_TUNING): loads, once, what an earlier run's guards learnt on devices
  // described by Signature, from Directory ("" when off); guards made from then on start from
  // it. saveTuning (at exit) writes what this run's guards settled on (LIBSPLIT_TUNING=save).
  bool tuningStarted() const { return TuningStarted.load(std::memory_order_acquire); }
  void startTuning(const std::string &Directory, const std::string &Signature, config::Logger &Log);
  void saveTuning(config::Logger &Log);
  // Whether the warm start holds a kernel launched from AppDevice that an earlier run settled on
  // splitting: a run of that app is worth opening the split devices for at once.
  bool savedSplitFrom(std::size_t AppDevice);
  // How long an earlier run waited for AppDevice in all (0 when none saved it), and this run's
  // so far (the longest a context of it reports), saved at exit.
  // With it, how many kernel launches that run made, and whether a run that opened the split
  // devices at once for such a wait (rather than for a kernel that split) settled every kernel
  // of AppDevice on running whole (noteOpenedForWait: this run says so at exit where none of its
  // kernels settled on splitting).
  planner::SavedWait savedWaitFrom(std::size_t AppDevice);
  void noteWaited(std::size_t AppDevice, double Seconds, std::uint64_t Launches);
  void noteOpenedForWait(std::size_t AppDevice);
  // The work the app has queued on AppDevice since it began, predicted (RunCredit::Queued): the
  // run so far and to come, that its kernels' spreads may count where no spread spent the
  // credit in this run yet, and where the warm start does not say that an earlier run opened
  // the split devices for its wait and split nothing. Saved at exit with the wait
  // (planner::SavedWait::Queued).
  void creditQueuedWork(std::size_t AppDevice, double Seconds);
  // The seconds a spread of a kernel launched from AppDevice, with KernelSeconds of its own
  // since its last probe, may count now beyond them (0 once spent).
  double runCredit(std::size_t AppDevice, double KernelSeconds = 0.0);

private:
  std::mutex Mutex;
  bool Guarding;
  bool Alternate;
  bool SaveTuning;
  std::atomic<bool> TuningStarted{false};
  std::atomic<std::uint64_t> SpreadProbes{0};
  std::string TuningDirectory, DeviceSignature;
  std::map<std::pair<std::string, std::size_t>, planner::GuardRecord> Seeds;
  std::map<std::size_t, planner::SavedWait> SavedWaits, Waited; // by app device
  std::map<std::size_t, double> QueuedTotals;                   // by app device
  // By app device: its kernels' spreads' credit (GuardSlot); made with the first guard or credit.
  std::map<std::size_t, std::shared_ptr<RunCredit>> RunCredits;
  const std::shared_ptr<RunCredit> &runCreditLocked(std::size_t AppDevice);
  std::set<std::size_t> OpenedForWait;
  std::map<std::pair<std::string, std::size_t>, std::shared_ptr<GuardSlot>> Guards;
};

} // namespace libsplit
