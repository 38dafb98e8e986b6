#include "planning.hpp"

#include "libsplit/planner/warm_start.hpp"

#include <algorithm>
#include <filesystem>

namespace libsplit {

double RunCredit::beyond(double KernelSeconds) const {
  if (Spent.load(std::memory_order_relaxed))
    return 0.0;
  return std::max({EarlierRun.load(std::memory_order_relaxed),
                   Queued.load(std::memory_order_relaxed) - KernelSeconds, 0.0});
}

bool GuardSlot::needsPrice() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Alternate && Guard.needsPrice();
}

planner::Decision GuardSlot::decide(double Work, const std::optional<planner::PricedBytes> &Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Alternate) {
    if (!Credit)
      return Guard.decide(Work, Bytes);
    Guard.creditExpectedRun(Credit->beyond(Guard.secondsSinceProbe()));
    planner::Decision D = Guard.decide(Work, Bytes);
    if (Guard.spentRunCredit())
      Credit->Spent.store(true, std::memory_order_relaxed);
    return D;
  }
  planner::Decision D;
  D.Launch.Run = NextSplits ? planner::Mode::Split : planner::Mode::Whole;
  D.Why = "LIBSPLIT_SPLIT=alternate";
  NextSplits = !NextSplits;
  return D;
}

void GuardSlot::observe(const planner::Ticket &Launch, double Work, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guard.observe(Launch, Work, Seconds);
}

void GuardSlot::observeInferredWhole(double Work, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guard.observeInferredWhole(Work, Seconds);
}

void GuardSlot::startFromWholeTime(double Work, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guard.startFromWholeTime(Work, Seconds);
}

bool GuardSlot::settledWhole(double Work) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Alternate && Guard.settledWhole(Work);
}

planner::Decision GuardSlot::decideWhole(double Work) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Guard.decideWhole(Work);
}

std::optional<std::uint64_t> GuardSlot::catchUpSpreadProbes(std::uint64_t Now) {
  if (SpreadProbesSeen.load(std::memory_order_relaxed) == Now)
    return std::nullopt;
  const std::uint64_t Before = SpreadProbesSeen.exchange(Now);
  return Before == Now ? std::nullopt : std::optional(Before);
}

void GuardSlot::joinProbe() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Alternate)
    Guard.joinProbe();
}

void GuardSlot::withdrawWhole(const planner::Decision &D, double Work) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Alternate)
    Guard.withdrawWhole(D, Work);
}

bool GuardSlot::plansSplit() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Alternate && Guard.plansSplit();
}

std::optional<planner::GuardRecord> GuardSlot::record() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Alternate ? std::nullopt : Guard.record();
}

void GuardSlot::seed(const planner::GuardRecord &Record) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Alternate)
    Guard.seed(Record);
}

namespace {

bool guards(const config::Config &Settings) {
  return Settings.Split == config::SplitPolicy::Alternate ||
         (Settings.Split == config::SplitPolicy::Auto &&
          Settings.Chunk != config::ChunkPolicy::Always &&
          Settings.Balancer != config::BalancerKind::Uniform &&
          Settings.Balancer != config::BalancerKind::Static);
}

} // namespace

bool LaunchPlanner::decidesFromCosts(const config::Config &Settings) {
  return guards(Settings) && Settings.Split != config::SplitPolicy::Alternate;
}

LaunchPlanner::LaunchPlanner(const config::Config &Settings)
    : Guarding(guards(Settings)), Alternate(Settings.Split == config::SplitPolicy::Alternate),
      SaveTuning(Settings.Tuning == config::TuningMode::Save) {}

void LaunchPlanner::startTuning(const std::string &Directory, const std::string &Signature,
                                config::Logger &Log) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (TuningStarted.load(std::memory_order_relaxed))
    return;
  TuningDirectory = Directory;
  DeviceSignature = Signature;
  if (!Directory.empty()) {
    planner::GuardLoad Loaded = planner::loadGuards(Directory, Signature);
    if (!Loaded.Error.empty())
      Log.info("tuning file ignored: ", Loaded.Error);
    for (planner::SavedGuard &G : Loaded.Guards)
      Seeds[{G.Kernel, G.AppDevice}] = std::move(G.Record);
    for (const planner::SavedWait &W : Loaded.Waits) {
      SavedWaits[W.AppDevice] = W;
      // Not where a run that opened the split devices for such a wait split nothing.
      // (Spent, for this run: no work queued funds a spread either.)
      const std::shared_ptr<RunCredit> &Credit = runCreditLocked(W.AppDevice);
      Credit->EarlierRun.store(std::max(W.Seconds, 0.0), std::memory_order_relaxed);
      Credit->Spent.store(W.SplitNothing, std::memory_order_relaxed);
    }
    if (!Seeds.empty())
      Log.info("warm start: ", Seeds.size(), " kernels' split decisions from ", Directory);
  }
  TuningStarted.store(true, std::memory_order_release);
}

planner::SavedWait LaunchPlanner::savedWaitFrom(std::size_t AppDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Found = SavedWaits.find(AppDevice);
  return Found == SavedWaits.end() ? planner::SavedWait{AppDevice} : Found->second;
}

void LaunchPlanner::noteWaited(std::size_t AppDevice, double Seconds, std::uint64_t Launches) {
  std::lock_guard<std::mutex> Lock(Mutex);
  planner::SavedWait &Most = Waited[AppDevice];
  if (Seconds >= Most.Seconds) {
    Most.AppDevice = AppDevice;
    Most.Seconds = Seconds;
    Most.Launches = Launches;
  }
}

const std::shared_ptr<RunCredit> &LaunchPlanner::runCreditLocked(std::size_t AppDevice) {
  std::shared_ptr<RunCredit> &Credit = RunCredits[AppDevice];
  if (!Credit)
    Credit = std::make_shared<RunCredit>();
  return Credit;
}

void LaunchPlanner::creditQueuedWork(std::size_t AppDevice, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::atomic<double> &Queued = runCreditLocked(AppDevice)->Queued;
  if (Seconds > Queued.load(std::memory_order_relaxed))
    Queued.store(Seconds, std::memory_order_relaxed);
  double &Total = QueuedTotals[AppDevice];
  Total = std::max(Total, Seconds);
}

double LaunchPlanner::runCredit(std::size_t AppDevice, double KernelSeconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return runCreditLocked(AppDevice)->beyond(KernelSeconds);
}

void LaunchPlanner::noteOpenedForWait(std::size_t AppDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  OpenedForWait.insert(AppDevice);
}

bool LaunchPlanner::savedSplitFrom(std::size_t AppDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (const auto &[Key, Record] : Seeds)
    if (Key.second == AppDevice && Record.Run == planner::Mode::Split)
      return true;
  return false;
}

void LaunchPlanner::saveTuning(config::Logger &Log) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!TuningStarted.load(std::memory_order_relaxed) || TuningDirectory.empty() || !SaveTuning)
    return;
  // What this run settled on, and what it loaded for kernels it did not launch.
  std::map<std::pair<std::string, std::size_t>, planner::GuardRecord> Records = Seeds;
  for (const auto &[Key, Slot] : Guards)
    if (std::optional<planner::GuardRecord> Record = Slot->record())
      Records[Key] = *Record;
  // How long this run waited for each app device, else what an earlier run did. A run that
  // opened the split devices for its wait alone and split nothing: the next runs keep them
  // closed for such a wait (an earlier run's verdict stands until one splits).
  std::map<std::size_t, planner::SavedWait> Waits = SavedWaits;
  // (What an earlier run queued stays where this one's queued work never reached the opening's
  // threshold.)
  for (const auto &[AppDevice, Wait] : Waited) {
    const bool Before = Waits.count(AppDevice) && Waits[AppDevice].SplitNothing;
    const double QueuedBefore = Waits.count(AppDevice) ? Waits[AppDevice].Queued : -1.0;
    Waits[AppDevice] = Wait;
    Waits[AppDevice].SplitNothing = Before;
    Waits[AppDevice].Queued = QueuedBefore;
  }
  for (const auto &[AppDevice, Total] : QueuedTotals) {
    Waits[AppDevice].AppDevice = AppDevice;
    Waits[AppDevice].Queued = Total;
  }
  for (std::size_t AppDevice : OpenedForWait)
    Waits[AppDevice].SplitNothing = true;
  for (const auto &[Key, Record] : Records)
    if (Record.Run == planner::Mode::Split && Waits.count(Key.second))
      Waits[Key.second].SplitNothing = false;
  if (Records.empty() && Waits.empty())
    return;
  std::vector<planner::SavedGuard> Saved;
  for (auto &[Key, Record] : Records)
    Saved.push_back({Key.first, Key.second, std::move(Record)});
  std::vector<planner::SavedWait> SavedWaitList;
  for (auto &[AppDevice, Wait] : Waits) {
    Wait.AppDevice = AppDevice;
    SavedWaitList.push_back(Wait);
  }
  std::error_code Ignored;
  std::filesystem::create_directories(TuningDirectory, Ignored);
  const std::string Error =
      planner::saveGuards(TuningDirectory, DeviceSignature, Saved, SavedWaitList);
  if (!Error.empty())
    Log.warn("cannot save the planner's tuning: ", Error);
}

std::shared_ptr<GuardSlot> LaunchPlanner::guardFor(const std::string &Kernel,
                                                   std::size_t AppDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::shared_ptr<GuardSlot> &Slot = Guards[{Kernel, AppDevice}];
  if (!Slot) {
    Slot = std::make_shared<GuardSlot>(Alternate, runCreditLocked(AppDevice));
    if (auto Seed = Seeds.find({Kernel, AppDevice}); Seed != Seeds.end())
      Slot->seed(Seed->second);
  }
  return Slot;
}

} // namespace libsplit
