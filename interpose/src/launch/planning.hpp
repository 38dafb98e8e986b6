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

// One kernel's guard and its lock (launches decide on executor threads, and are measured on
// whichever thread completes them).
class GuardSlot {
public:
  // Alternate: LIBSPLIT_SPLIT=alternate, split and whole launches in turn instead of the guard.
  // RunCredit: the seconds of run that the app's kernels' spreads may count beyond the run so
  // far (planner::SplitGuard::creditExpectedRun): an earlier run's, or the work this run has
  // queued ahead of its device; shared by them and spent, for the run, by the first that needs
  // it (then negative).
  explicit GuardSlot(bool Alternate = false,
                     std::shared_ptr<std::atomic<double>> RunCredit = nullptr)
      : Alternate(Alternate), RunCredit(std::move(RunCredit)) {}
  bool needsPrice();
  planner::Decision decide(double Work, const std::optional<planner::PricedBytes> &Bytes);
  void observe(const planner::Ticket &Launch, double Work, double Seconds);
  void observeInferredWhole(double Work, double Seconds);
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
  std::shared_ptr<std::atomic<double>> RunCredit;
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
  // The work the app has queued on AppDevice and that has not run yet, predicted: seconds the
  // run lasts at least, that its kernels' spreads may count (GuardSlot's RunCredit) where no
  // spread spent such a credit in this run yet, and where the warm start does not say that an
  // earlier run opened the split devices for its wait and split nothing.
  void creditCommittedWork(std::size_t AppDevice, double Seconds);
  // The seconds a spread of a kernel launched from AppDevice may count now (0 once spent).
  double runCredit(std::size_t AppDevice);

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
  // By app device: what an earlier run waited for it, or the work queued ahead of it, for its
  // kernels' spreads (GuardSlot); made with the first guard or credit.
  std::map<std::size_t, std::shared_ptr<std::atomic<double>>> RunCredits;
  std::shared_ptr<std::atomic<double>> &runCreditLocked(std::size_t AppDevice);
  std::set<std::size_t> OpenedForWait;
  std::map<std::pair<std::string, std::size_t>, std::shared_ptr<GuardSlot>> Guards;
};

} // namespace libsplit
