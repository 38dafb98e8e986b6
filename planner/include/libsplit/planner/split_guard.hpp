//===- split_guard.hpp - Whether a kernel's launches split at all --------===//
//
// One per kernel (all its NDRange sizes): decides, launch by launch, whether the launch splits
// (the balancer then says how) or runs whole on the app's device as it would natively. The
// choice is the cheaper of the two by their measured costs: each way of running keeps a
// CostModel of whole launch costs (host preparation, transfers, kernels, merge), so a split that
// makes data travel or adds synchronisation is seen as what it costs, and a kernel whose NDRange
// changes every launch decides from all its launches.
//
// A kernel's first launch has no measurement: it splits unless the split would move more bytes
// than running whole on the app's device (PricedBytes, from the regions and the validity
// state), or the devices share hardware. A kernel that ran whole and never split is priced: the
// whole launch's time shared out, plus the bytes the split would move over an assumed link; it
// splits when that is cheaper (a compute-bound kernel whose first launch ran whole because its
// outputs' old contents lay on the app's device only), and from then on its measurements decide.
// One more launch the same way gives a measurement that leaves out first-launch costs (compilation
// inside the first launch on PoCL, data moving once). A split that clearly beats what the app's
// device alone would take (inferred from its own slice, on devices that share no hardware) is kept;
// otherwise two launches run whole, and from then on the cheaper way runs. The other way is
// measured again (two launches) after 16, 32, ... 1024 launches, and only when what it is predicted
// to lose fits in ProbeBudget of the time since the last probe; a split never measured whose
// price is mostly bytes to move may also spend SpreadBudget of that time on them, there and back.
// A probe's predicted loss counts what each way's first launch after the other measured paying
// beyond its warm launches (a split's data spread again), going and coming back.
//
// Pure: no OpenCL, no clock. Thread safety: none inside; the caller serializes calls.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/planner/cost_model.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

namespace libsplit::planner {

enum class Mode { Split, Whole };
const char *modeName(Mode M);

// What a launch would move, in bytes, by the validity state before it.
struct PricedBytes {
  // The most that one device of the split receives, plus what it sends back to be merged;
  // bytes that only another device holds count twice (they travel through the host).
  double Split = 0.0;
  // What the app's device lacks to run the launch whole (counted the same way).
  double Whole = 0.0;
  // The largest slice's part of the work (its kernel time, at the whole launch's rate).
  double LargestShare = 1.0;
  // The devices share hardware (two CPU runtimes on the same cores): a split cannot be expected
  // to run faster than the app's device alone, only measured to. A kernel's first launch then
  // runs whole, as natively, and a split is priced at the whole launch's time.
  bool SharedHardware = false;
  // What the first split costs once, beyond its price: the build of the kernel's
  // partition-ready program still to come, on cores that the app's device shares (the build
  // takes them from the app). A probe of a split never measured counts it in its loss.
  double FirstSplitSeconds = 0.0;
};

struct GuardSettings {
  double SwitchGain = 0.05;        // a split must be predicted this much faster to be chosen
  double KeepLoss = 0.01;          // ... and is dropped once predicted this much slower
  double ClearWin = 0.75;          // split / whole-inferred below this: no whole launch to compare
  double ColdGiveUp = 4.0;         // a first split this many times the inferred whole: not repeated
  double ColdSlackBytes = 1 << 20; // bytes a first split may move beyond the whole launch's
  // Pricing a split never measured, from the whole launch's time: its largest slice's part of
  // it, the bytes over an assumed host link (pageable copies through the host), and a fixed cost
  // of a split launch (two devices' enqueues and waits, halos through the host) on the high
  // side of what both machines measured, so that kernels of less than about a millisecond are
  // not split on a guess. The split's own measurements replace the price once it ran.
  double LinkBytesPerSecond = 8e9;
  double SplitFixedSeconds = 0.5e-3;
  unsigned FirstProbeInterval = 16;
  unsigned MaxProbeInterval = 1024;
  double ProbeBudget = 0.01;
  // A split never measured whose price is mostly bytes to move (a stencil's grid, held by the
  // app's device alone when the split devices opened mid-run): they may travel once, later
  // splits moving only what their slices share. Its probe may spend this part of the time since
  // the last probe on them, there and back (a split dropped gathers its slices back), where the
  // split without them is priced cheaper; its warm repeat, measured, says whether they were a
  // spread or move every launch.
  double SpreadBudget = 0.03;
  // ... and where its kernels' saving, its largest slice's part of the whole launch, passes at
  // least this fixed cost of a split launch (the least measured: two GPUs of one platform): a
  // short kernel's split is not probed sooner for its data.
  double LeastSplitFixedSeconds = 0.1e-3;
  // Settled on running whole, one launch in this many is measured; the others count at the
  // model's prediction (toward the probe budget): measuring a launch costs the host a profiled
  // event, which NVIDIA's driver charges like a second launch. Each sample the model predicted
  // within SampleTolerance doubles the interval, up to MaxSettledSampleInterval (a stream of
  // short launches would otherwise pay that event every eighth launch for ever); one it did
  // not predict brings it back.
  unsigned SettledSampleInterval = 8;
  unsigned MaxSettledSampleInterval = 256;
  double SampleTolerance = 0.15;
  // ... or within this many seconds: a tenth of a split's fixed cost, less than any decision
  // can turn on. A kernel of a few microseconds varies by more than SampleTolerance from launch
  // to launch, and its samples (each a profiled launch through the queue's executor, which the
  // launches behind it wait for) cost more than the kernel.
  double SampleToleranceSeconds = 50e-6;
};

// One launch's way of running, as decided; handed back with its measurement.
struct Ticket {
  Mode Run = Mode::Whole;
  bool Cold = false;    // the first launch this way since the other way ran (or ever)
  bool Measured = true; // false: need not be observed (counted at its predicted cost)
  bool First = false;   // the kernel's first launch (its one-time costs: a build, a first upload)
  // The split's second launch after its data was spread for it (a spread or joined probe): still
  // paying first uses (a stencil's first halo through host memory took milliseconds), so
  // counted with the cold launches, not as a warm one nor as switching's cost.
  bool Settling = false;
};

// What a run learnt of a kernel, for the next run (warm start): the way it settled on and each
// way's cost model as its end points (CostModel::endpoints).
struct GuardRecord {
  Mode Run = Mode::Whole;
  std::vector<std::pair<double, double>> Split, Whole;
};

// Decision::Why of a settled decision to run whole (with or without a split priced).
inline constexpr const char *RunsWholeCheaper = "running whole is the cheaper";

struct Decision {
  Ticket Launch;
  // False while the next decision needs this launch's measurement (first launches, probes): the
  // caller then observes it before deciding again instead of queueing launches ahead.
  bool Settled = true;
  const char *Why = "";
  std::optional<double> PredictedSplit, PredictedWhole; // seconds, when known
  // A probe of a split never measured whose data must first spread to the other devices (let
  // spend SpreadBudget): it runs as a split of its own, all its devices taking their data, not
  // in chunks, which a device joins only where its bytes would arrive in time (a grid's spread
  // never does within one short launch, and the probe would measure the app's device alone).
  bool Spreads = false;
  // A probe joined to another kernel's spread probe (joinProbe): also a split of its own, so that
  // its cut keeps to where that probe left the data.
  bool Joined = false;
  // The probe period it was decided in (withdrawWhole takes back only a decision of the current
  // one).
  std::uint64_t Period = 0;
};

class SplitGuard {
public:
  explicit SplitGuard(GuardSettings Settings = {}) : Settings(Settings) {}

  // Whether the next decision needs the launch's bytes priced (only a kernel's first launch).
  bool needsPrice() const;
  // Mode of the next launch of Work work-items. Bytes is required when needsPrice().
  Decision decide(double Work, const std::optional<PricedBytes> &Bytes);
  // Another kernel sharing this one's buffers has just spread them for a probe of its split
  // (Decision::Spreads): where this kernel runs whole, settled, and its split never ran, its next
  // decision probes its split too, with no spread of its own to pay (the data lies as a split
  // needs it). Alone, the first
  // kernel's warm repeat would find its data gathered back by this one's whole launches (a
  // two-kernel stencil step: each kernel's split then moves half the grid every launch).
  void joinProbe();
  // Whether the next launch of Work work-items runs whole with nothing left to measure or probe
  // (the caller may then start it where a split could not start: on the app's thread behind
  // unfinished launches). The state may change before that launch is decided (a measurement
  // arrives): decideWhole then keeps the promise.
  bool settledWhole(double Work) const;
  // A settled whole launch, decided by settledWhole's answer.
  Decision decideWhole(double Work);
  // Takes back such a launch's decision (of Work work-items), not run that way: the caller
  // decides it again. The probe clock and the sampling cadence forget it.
  void withdrawWhole(const Decision &D, double Work);
  // Whether the guard now plans a split for its next launches, or a probe joined to another
  // kernel's (a launch decided whole before then is worth deciding again).
  bool plansSplit() const;
  // What a decided launch cost, host preparation to its end (seconds). Required for tickets
  // Measured; for the others it only refines the model.
  void observe(const Ticket &Launch, double Work, double Seconds);
  // A split launch's estimate of what the app's device alone would have taken (its slice's
  // kernel time scaled to the whole launch), where the devices share no hardware.
  void observeInferredWhole(double Work, double Seconds);
  // What the launch whole took on the app's device before the guard decided anything (a first
  // launch run in chunks there alone while the split devices opened), where it knows no whole
  // time yet: an app that queues its launches far ahead of its device has none come back before
  // the end of its run, and a probe check blind to the current way's time can spread nothing.
  void startFromWholeTime(double Work, double Seconds);

  std::optional<double> predict(Mode M, double Work) const;

  // Warm start: record() once the guard has settled (and measured the way it settled on);
  // seed() makes a fresh guard start settled from a record, without first launches to learn.
  std::optional<GuardRecord> record() const;
  void seed(const GuardRecord &Record);
  // Warm start: Seconds an earlier run of the app waited for its device in all, a run this one
  // is expected to repeat. A spread probe may count them beside the time since the last probe
  // (its spread there and back within SpreadBudget of the run expected, not only of the run so
  // far), once: spentRunCredit() says whether the last decision's spread needed them (the
  // caller's pool of it, shared by the app's kernels, is then spent).
  void creditExpectedRun(double Seconds) { RunCredit = Seconds; }
  bool spentRunCredit() const { return RunCreditSpent; }
  // The predicted seconds of this kernel's launches since its last probe (or switch): the run
  // so far that its probes' budgets are fractions of.
  double secondsSinceProbe() const { return SecondsSinceProbe; }
  std::uint64_t launches(Mode M) const { return M == Mode::Split ? SplitLaunches : WholeLaunches; }
  // Seconds the launches of this kernel took beyond what the cheaper way was predicted to take
  // (probes and first launches included): the cost of deciding.
  double regret() const { return Regret; }

private:
  enum class Phase { First, Exploring, Settled };
  Decision issue(Mode M, bool Settled, const char *Why, double Work);
  Mode better(double Work, Mode Current) const;
  // Both ways' predictions at Work, kept until a model changes: a settled kernel's launches ask
  // for the same ones two or three times each, at the same size launch after launch.
  struct Predictions {
    double Work = 0.0;
    std::optional<double> Split, Whole;
    std::optional<double> of(Mode M) const { return M == Mode::Split ? Split : Whole; }
  };
  const Predictions &predictions(double Work) const;
  mutable std::optional<Predictions> Predicted;

  GuardSettings Settings;
  Phase Stage = Phase::First;
  std::deque<Mode> Planned; // launches still to run before the next choice
  Mode Current = Mode::Whole;
  Mode LastIssued = Mode::Whole;
  bool ClearWinChecked = false;
  std::uint64_t Decided = 0;
  std::uint64_t SplitLaunches = 0, WholeLaunches = 0;
  unsigned ProbeInterval = 0;
  std::uint64_t LaunchesSinceProbe = 0;
  std::uint64_t NextProbeCheck = 0; // LaunchesSinceProbe at which a probe is considered
  double SecondsSinceProbe = 0.0;
  // Launches since the last probe decided before any whole launch's time had come (an app that
  // queues a second of launches ahead of its device): counted into SecondsSinceProbe at the
  // first prediction, as launches of that cost, their work-items' mean.
  unsigned UncountedLaunches = 0;
  double UncountedWork = 0.0;
  std::uint64_t Period = 0; // probe periods begun (restartProbeClock)
  void restartProbeClock() {
    ++Period;
    SecondsSinceProbe = 0.0;
    UncountedLaunches = 0;
    UncountedWork = 0.0;
  }
  unsigned UnmeasuredInRow = 0; // settled whole launches since the last one measured
  unsigned Unobserved = 0;      // measured launches issued whose times have not come yet
  unsigned WaitedForTimes = 0;  // decisions since Unobserved last rose from 0
  unsigned SampleInterval = 0;  // one settled whole launch in this many is measured
  double Regret = 0.0;
  CostModel Warm[2], Cold[2];
  // Cold launches after a switch (the kernel's first launch left out, with its one-time costs):
  // what going one way or the other costs beyond its warm launches, which a probe pays again.
  CostModel Switched[2];
  CostModel InferredWhole;
  // A split's price while no split was measured: the whole launch's time times Share, plus
  // ExtraSeconds (its bytes over the assumed link, the fixed cost of a split launch).
  struct Price {
    double Share = 1.0;
    double ExtraSeconds = 0.0;
    double BytesSeconds = 0.0; // of ExtraSeconds: the bytes over the assumed link
    // Priced for devices that share hardware: a guess that may be far off (contention), so a
    // probe is budgeted as if the split took the launch's time twice over.
    bool Shared = false;
  };
  std::optional<Price> Priced;
  bool ProbeDue = false;    // the next settled launch may probe: price it
  bool JoinProbe = false;   // joinProbe: the next launch probes the split
  bool SettleNext = false;  // the next split launch is a spread probe's Settling one
  bool SeededSplit = false; // seeded on splitting (warm start), no split issued yet
  double RunCredit = 0.0;   // creditExpectedRun
  bool RunCreditSpent = false;
  // While a probe's first launch runs: its work-items, the current way's time for them, and
  // what the probe budget allowed it to lose.
  struct Spend {
    double Work = 0.0;
    double Here = 0.0;
    double Allowed = 0.0;
    double Spread = 0.0; // the data's first spread it was let spend beyond Allowed
  };
  std::optional<Spend> ProbeSpend;
};

} // namespace libsplit::planner
