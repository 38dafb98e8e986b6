#include "libsplit/planner/split_guard.hpp"

#include <algorithm>
#include <cmath>

namespace libsplit::planner {

namespace {

int indexOf(Mode M) { return M == Mode::Split ? 0 : 1; }
Mode otherThan(Mode M) { return M == Mode::Split ? Mode::Whole : Mode::Split; }

} // namespace

const char *modeName(Mode M) { return M == Mode::Split ? "split" : "whole"; }

bool SplitGuard::needsPrice() const {
  if (Stage == Phase::First)
    return true;
  // A kernel that never split: price the split where the next decision may try it. A kernel
  // settled on its split: price the launch whole where the next decision may probe it (what
  // the app's device would gather; the split is planned in any case).
  if (Current == Mode::Split)
    return Stage == Phase::Settled && Planned.empty() && ProbeDue;
  return !Warm[0].samples() && !Cold[0].samples() && Planned.empty() &&
         (Stage == Phase::Exploring || ProbeDue);
}

std::optional<double> SplitGuard::predict(Mode M, double Work) const {
  const int I = indexOf(M);
  if (Warm[I].samples())
    return Warm[I].predict(Work);
  // Priced relative to the whole launch, so the price follows the whole launch's measurements.
  if (M == Mode::Split && !Cold[I].samples() && Priced)
    if (const std::optional<double> Whole = predict(Mode::Whole, Work))
      return *Whole * Priced->Share + Priced->ExtraSeconds;
  // A first whole launch after splits also gathers what the other devices wrote: the app's
  // device's own slice says more about its time alone.
  if (M == Mode::Whole && InferredWhole.samples())
    return InferredWhole.predict(Work);
  return Cold[I].predict(Work);
}

const SplitGuard::Predictions &SplitGuard::predictions(double Work) const {
  if (!Predicted || Predicted->Work != Work)
    Predicted = Predictions{Work, predict(Mode::Split, Work), predict(Mode::Whole, Work)};
  return *Predicted;
}

Mode SplitGuard::better(double Work, Mode Now) const {
  const auto &[At, Split, Whole] = predictions(Work);
  (void)At;
  if (!Split || !Whole)
    return Now;
  if (Now == Mode::Whole)
    return *Split < *Whole * (1.0 - Settings.SwitchGain) ? Mode::Split : Mode::Whole;
  return *Split > *Whole * (1.0 + Settings.KeepLoss) ? Mode::Whole : Mode::Split;
}

Decision SplitGuard::issue(Mode M, bool Settled, const char *Why, double Work) {
  Decision D;
  D.Launch.Run = M;
  D.Launch.Cold = Decided == 0 || M != LastIssued;
  D.Launch.First = Decided == 0;
  D.Launch.Settling = SettleNext && M == Mode::Split && !D.Launch.Cold;
  SettleNext = false;
  // A seeded guard's first split spreads the data: the split after it is its Settling one.
  if (SeededSplit && M == Mode::Split) {
    SeededSplit = false;
    SettleNext = true;
  }
  // A whole launch before the guard settles is not waited for either: the next decisions take
  // its time once it came (until then the guard keeps to running whole, and probes nothing), so
  // a short app's first launches queue behind each other as natively. Splits, and probes once
  // settled, are waited for: the next split or the comparison needs their times.
  D.Settled = Settled || (M == Mode::Whole && Stage != Phase::Settled);
  D.Why = Why;
  D.Period = Period;
  D.PredictedSplit = predictions(Work).Split;
  D.PredictedWhole = predictions(Work).Whole;
  // A settled whole launch between samples: counted at its predicted cost. Splits are always
  // measured (the balancer needs their slices' times anyway). While a measured launch has no
  // time yet, a settled whole one is not measured either: an app that queues short launches
  // faster than they run would otherwise measure every one until the first time came (each a
  // profiled launch through the queue's executor, the launches behind it queued there too).
  // A time that never comes (a launch that failed) holds sampling back this long at most.
  if (Unobserved > 0 && ++WaitedForTimes > 4 * Settings.MaxSettledSampleInterval)
    Unobserved = 0;
  if (Settled && M == Mode::Whole && Stage == Phase::Settled && !D.Launch.Cold &&
      (Unobserved > 0 ||
       (D.PredictedWhole &&
        ++UnmeasuredInRow < std::max(SampleInterval, Settings.SettledSampleInterval)))) {
    D.Launch.Measured = false;
    if (D.PredictedWhole)
      SecondsSinceProbe += *D.PredictedWhole;
  } else {
    UnmeasuredInRow = 0;
  }
  // Counted for the samples only: a settled whole launch is observed once it ran, wherever it
  // runs; a split or a probe is waited for before the next decision.
  if (D.Launch.Measured && M == Mode::Whole && Stage == Phase::Settled && Unobserved++ == 0)
    WaitedForTimes = 0;
  // A whole launch decided before any time came: counted once one has (its cost was real).
  if (M == Mode::Whole && Stage == Phase::Settled) {
    if (!D.PredictedWhole && !D.Launch.Measured) { // a measured one counts its time once come
      ++UncountedLaunches;
      UncountedWork += Work;
    } else if (UncountedLaunches > 0) {
      if (const std::optional<double> Each =
              predict(Mode::Whole, UncountedWork / UncountedLaunches))
        SecondsSinceProbe += UncountedLaunches * *Each;
      UncountedLaunches = 0;
      UncountedWork = 0.0;
    }
  }
  LastIssued = M;
  ++Decided;
  ++(M == Mode::Split ? SplitLaunches : WholeLaunches);
  return D;
}

Decision SplitGuard::decide(double Work, const std::optional<PricedBytes> &Bytes) {
  RunCreditSpent = false;
  if (Stage == Phase::First) {
    Stage = Phase::Exploring;
    const bool Cheap = !Bytes || (!Bytes->SharedHardware &&
                                  Bytes->Split <= Bytes->Whole + Settings.ColdSlackBytes);
    Current = Cheap ? Mode::Split : Mode::Whole;
    Planned = {Current}; // one more the same way: a measurement without first-launch costs
    return issue(Current, false,
                 Cheap ? "first launch: the split moves no more data than the launch whole"
                 : Bytes && Bytes->SharedHardware
                     ? "first launch: the devices share hardware, the app's alone runs it first"
                     : "first launch: the split would move more data than the launch whole",
                 Work);
  }
  // Seeded on splitting (warm start): the data starts where the app put it, so the first split
  // spreads it (cold, as any kernel's first launch) and the one after it still pays first uses
  // (Settling, marked by issue whenever that first split comes: launches may run whole first,
  // while the split devices' programs build), as after a spread probe: neither is the split's
  // warm cost. (Taken for it, a stencil's first halo sent the kernel back to whole, gathering
  // its grid, in a run after one that had split it.)
  if (SeededSplit && Decided == 0 && Current == Mode::Split)
    return issue(Mode::Split, true, "an earlier run settled on splitting", Work);
  // A first split far slower than the app's device alone would be is not measured again.
  if (Stage == Phase::Exploring && Decided == 1 && Current == Mode::Split && !Planned.empty()) {
    const std::optional<double> Split = predict(Mode::Split, Work);
    const std::optional<double> Alone =
        InferredWhole.samples() ? InferredWhole.predict(Work) : std::nullopt;
    if (Split && Alone && *Split > Settings.ColdGiveUp * *Alone)
      Planned.clear();
  }
  // A probe's second launch (the other way, warm) where its first, cold, took more than
  // ColdGiveUp times the current way and lost more than ColdGiveUp times the budget that let the
  // probe run: not run (a first split of an FFT's butterfly, chunked and merged, took three
  // thousand times its whole launch, thirty times its price; its repeat took more still). A
  // cold launch within a few times the current way (a first use's module load, the data's
  // first spread) is repeated warm, as a first split is.
  if (ProbeSpend && !Planned.empty() && Planned.front() != Current) {
    const std::optional<double> There = predict(Planned.front(), ProbeSpend->Work);
    if (There && *There > Settings.ColdGiveUp * ProbeSpend->Here &&
        *There - ProbeSpend->Here - ProbeSpend->Spread > Settings.ColdGiveUp * ProbeSpend->Allowed)
      Planned.clear();
  }
  ProbeSpend.reset();
  // Another kernel spread the data this one shares for its own probe: this one's split is
  // probed with it (joinProbe), its spread already paid.
  if (JoinProbe) {
    JoinProbe = false;
    // Once: a split measured already has its own models and probes.
    const bool SplitNeverRan = !Warm[0].samples() && !Cold[0].samples();
    if (Planned.empty() && Stage == Phase::Settled && Current == Mode::Whole && SplitNeverRan) {
      // Its first split may pay up to what its own spread was priced at (the split program's
      // first use on the other devices, the part of the data the spread did not move): that
      // spread was paid for this kernel's warm repeat too, and given up after its cold launch,
      // its launch whole would gather the data back from under the other kernel's split.
      const double OwnSpread = Priced && !Priced->Shared ? Priced->BytesSeconds : 0.0;
      if (const std::optional<double> Here = predict(Mode::Whole, Work))
        ProbeSpend = Spend{Work, *Here, Settings.ProbeBudget * SecondsSinceProbe, OwnSpread};
      LaunchesSinceProbe = 0;
      restartProbeClock();
      ProbeDue = false;
      // Its data just spread: the launch after the probe still pays first uses (Settling), the
      // one after that measures the split warm.
      Planned = {Mode::Split, Mode::Split};
      Decision D =
          issue(Mode::Split, false, "probing with a kernel that spread the data they share", Work);
      D.Joined = true;
      SettleNext = true;
      return D;
    }
  }
  if (!Planned.empty()) {
    const Mode M = Planned.front();
    Planned.pop_front();
    return issue(M, Planned.empty() && Stage == Phase::Settled && M == Current,
                 M == Current ? "measuring" : "measuring the other way", Work);
  }
  // A split never measured, priced from the whole launch's time.
  if (Bytes && Current == Mode::Whole && !Warm[0].samples() && !Cold[0].samples()) {
    if (const std::optional<double> Whole = predictions(Work).Whole) {
      const double BytesSeconds = Bytes->Split / Settings.LinkBytesPerSecond;
      const Price Now{Bytes->SharedHardware ? 1.0 : Bytes->LargestShare,
                      BytesSeconds + Settings.SplitFixedSeconds, BytesSeconds,
                      Bytes->SharedHardware};
      if (!Priced || Priced->Share != Now.Share || Priced->ExtraSeconds != Now.ExtraSeconds ||
          Priced->Shared != Now.Shared) {
        Priced = Now;
        Predicted.reset();
      }
      if (*predictions(Work).Split < *Whole * (1.0 - Settings.SwitchGain)) {
        Stage = Phase::Settled;
        ProbeInterval = NextProbeCheck = Settings.FirstProbeInterval;
        LaunchesSinceProbe = 0;
        restartProbeClock();
        ProbeDue = false;
        Planned = {Mode::Split};
        return issue(Mode::Split, false, "priced: the split should be the cheaper", Work);
      }
    }
  }
  if (Stage == Phase::Exploring) {
    if (Current == Mode::Split && !ClearWinChecked && !Warm[indexOf(Mode::Whole)].samples()) {
      ClearWinChecked = true;
      const std::optional<double> Split = predict(Mode::Split, Work);
      const std::optional<double> Alone =
          InferredWhole.samples() ? InferredWhole.predict(Work) : std::nullopt;
      if (!(Split && Alone && *Split <= Settings.ClearWin * *Alone)) {
        Planned = {Mode::Whole};
        return issue(Mode::Whole, false, "measuring the launch whole on the app's device", Work);
      }
    }
    Stage = Phase::Settled;
    ProbeInterval = NextProbeCheck = Settings.FirstProbeInterval;
    Current = better(Work, Current);
  }

  const Mode Best = better(Work, Current);
  if (Best != Current) {
    Current = Best;
    SampleInterval = 0;
    ProbeInterval = NextProbeCheck = Settings.FirstProbeInterval;
    LaunchesSinceProbe = 0;
    restartProbeClock();
  }
  if (++LaunchesSinceProbe > NextProbeCheck) {
    const Mode Other = otherThan(Current);
    const std::optional<double> Here = predictions(Work).of(Current),
                                There = predictions(Work).of(Other);
    // Two launches the other way, and coming back: a first launch after a switch gathers what
    // the other way left where it ran.
    double Loss = Here && There ? 2.0 * std::max(*There - *Here, 0.0) : 0.0;
    const bool SplitNeverRan = !Warm[0].samples() && !Cold[0].samples();
    if (Other == Mode::Split && Here && SplitNeverRan && Priced && Priced->Shared)
      Loss = std::max(Loss, 2.0 * *Here);
    if (Other == Mode::Split && SplitNeverRan && Bytes)
      Loss += Bytes->FirstSplitSeconds;
    // Each way's first launch after the other's pays what it measured paying then beyond its
    // warm launches: going (a split's data spread again, once a whole launch gathered it back)
    // and coming back. (Not the kernel's first launch's one-time costs: they do not recur.)
    double Switching = 0.0;
    for (const int Way : {indexOf(Other), indexOf(Current)})
      if (Switched[Way].samples() && Warm[Way].samples())
        Switching += std::max(*Switched[Way].predict(Work) - *Warm[Way].predict(Work), 0.0);
    // A probe of the launch whole gathers on the app's device what the split left on the others,
    // and the split after it spreads that again: priced from this launch's bytes where they are
    // (a kernel whose split another kernel's probe spread never paid either way itself; its
    // first whole probe gathered a stencil's grid from under the other kernel's split).
    if (Other == Mode::Whole && Bytes)
      Switching = std::max(Switching, 2.0 * Bytes->Whole / Settings.LinkBytesPerSecond);
    Loss += Switching;
    // A loss that cannot be priced yet is no loss known to be small: the launches of an app that
    // queues many at once are measured only once they ran, and a probe then was blind (a
    // 12-microsecond stencil's first split took 5 ms, an FFT's butterfly's a second).
    const bool Priceable = Here && There;
    const double Allowed = Settings.ProbeBudget * SecondsSinceProbe;
    bool Affordable = Priceable && Loss <= Allowed;
    double Spread = 0.0, SpreadLeft = 0.0;
    // A first spread of the data, priced apart (from this launch's bytes: a price from many
    // launches ago may predate the data's gathering back): the probe's loss without it within
    // the probe budget, the spread there and back (a split dropped gathers its slices back)
    // within SpreadBudget, and the split without it cheaper at the least fixed cost a split
    // launch has (priced high elsewhere, so that no guess splits a short kernel; the budgeted
    // probe measures it).
    // Where only the spread's budget is short: the launches until it covers the spread.
    std::optional<double> SpreadWaitsLaunches;
    if (Priceable && !Affordable && Bytes && Other == Mode::Split && SplitNeverRan && Priced &&
        !Priced->Shared && Priced->BytesSeconds > 0.0) {
      const double AtLeast = *Here * Priced->Share + Settings.LeastSplitFixedSeconds;
      // Such a probe runs three launches (the one after the spread still pays first uses): the
      // third's loss counted too, the spread in none of them.
      const double Third = std::max(*There - Priced->BytesSeconds - *Here, 0.0);
      const bool Otherwise = AtLeast < *Here * (1.0 - Settings.SwitchGain) &&
                             Loss + Third - 2.0 * Priced->BytesSeconds <= Allowed;
      const double Needed = 2.0 * Priced->BytesSeconds / Settings.SpreadBudget;
      const double Funding = SecondsSinceProbe + RunCredit;
      Affordable = Otherwise && Needed <= Funding;
      RunCreditSpent = Affordable && Needed > SecondsSinceProbe;
      if (RunCreditSpent)
        RunCredit = 0.0;
      if (Affordable) {
        Spread = Priced->BytesSeconds;
        // Its cold launch pays the spread at the real link's rate, which the price only guesses:
        // it may overrun that price by what the spread's budget left (funded by an earlier run's
        // time, the probe budget of this one's is nearly nothing: a spread 20% over its price
        // had its warm repeat dropped, and the grid gathered back).
        SpreadLeft = Settings.SpreadBudget * Funding - 2.0 * Spread;
      } else if (Otherwise && *Here > 0.0)
        SpreadWaitsLaunches = (Needed - SecondsSinceProbe - RunCredit) / *Here;
    }
    if (Affordable) {
      ProbeSpend = Spend{Work, *Here, std::max(Allowed, SpreadLeft), Spread};
      LaunchesSinceProbe = 0;
      restartProbeClock();
      ProbeDue = false; // not priced again before the probe's launches ran
      ProbeInterval = NextProbeCheck = std::min(ProbeInterval * 2, Settings.MaxProbeInterval);
      Planned = {Other};
      Decision D = issue(Other, false, "probing the other way", Work);
      D.Spreads = Spread > 0.0;
      // As a joined probe: one more launch before the warm one.
      if (D.Spreads) {
        Planned.push_back(Other);
        SettleNext = true;
      }
      return D;
    }
    // Not within the budget yet, or a time not come yet: asked again after a doubled interval
    // (each question may price a split, which costs that launch its full planning). A split
    // never priced, asked without its bytes (a settled kernel's launches skip them): priced at
    // the next launch (ProbeDue), then asked again.
    // So is a split whose spread rule above needs this launch's bytes (and only such a split:
    // pricing costs a launch its full planning).
    const bool SpreadUnpriced = Priced && !Priced->Shared && Priced->BytesSeconds > 0.0;
    const bool PriceNext = !Affordable && (!Priceable || SpreadUnpriced) && Here && !Bytes &&
                           Other == Mode::Split && SplitNeverRan;
    if (!PriceNext) {
      // A check blind to the current way's time (none came back yet: an app queues about a
      // second of launches ahead of NVIDIA's GPU) is no probe refused: its interval stays (a
      // 1000-step stencil's checks had backed off to a thousand launches by the first time).
      if (Here)
        ProbeInterval = std::min(ProbeInterval * 2, Settings.MaxProbeInterval);
      NextProbeCheck = LaunchesSinceProbe + ProbeInterval;
      // A spread waiting for its budget alone is asked again once the budget should cover it, not
      // a doubled interval later (up to a thousand launches: most of a stencil's run).
      if (SpreadWaitsLaunches)
        NextProbeCheck = LaunchesSinceProbe +
                         std::clamp(static_cast<unsigned>(std::ceil(*SpreadWaitsLaunches)) + 1, 1u,
                                    ProbeInterval);
    }
  }
  ProbeDue = LaunchesSinceProbe + 1 > NextProbeCheck;
  return issue(Current, true,
               Current == Mode::Split ? "the split is the cheaper" : RunsWholeCheaper, Work);
}

void SplitGuard::joinProbe() { JoinProbe = true; }

void SplitGuard::withdrawWhole(const Decision &D, double Work) {
  if (D.Launch.Run != Mode::Whole || !D.Settled || D.Launch.Measured || D.Period != Period)
    return;
  LaunchesSinceProbe -= LaunchesSinceProbe > 0;
  // While a sample's time is awaited, each decision counts toward giving up on it (issue): this
  // one no more (the wait was likely the same when it was decided).
  if (Unobserved > 0)
    WaitedForTimes -= WaitedForTimes > 0;
  else if (D.PredictedWhole) // nor toward the next sample
    UnmeasuredInRow -= UnmeasuredInRow > 0;
  if (D.PredictedWhole) {
    SecondsSinceProbe = std::max(SecondsSinceProbe - *D.PredictedWhole, 0.0);
  } else if (UncountedLaunches > 0) {
    --UncountedLaunches;
    UncountedWork = std::max(UncountedWork - Work, 0.0);
  }
}

bool SplitGuard::plansSplit() const {
  return JoinProbe || Current == Mode::Split ||
         std::find(Planned.begin(), Planned.end(), Mode::Split) != Planned.end();
}

bool SplitGuard::settledWhole(double Work) const {
  return Stage == Phase::Settled && Planned.empty() && Current == Mode::Whole && !needsPrice() &&
         !JoinProbe && LaunchesSinceProbe + 1 <= NextProbeCheck &&
         better(Work, Current) == Mode::Whole;
}

Decision SplitGuard::decideWhole(double Work) {
  ++LaunchesSinceProbe;
  return issue(Mode::Whole, true, RunsWholeCheaper, Work);
}

void SplitGuard::observe(const Ticket &Launch, double Work, double Seconds) {
  if (Launch.Measured && Launch.Run == Mode::Whole && Unobserved > 0)
    --Unobserved;
  // A settled whole launch's sample: the fewer the model's surprises, the rarer the samples.
  if (Launch.Measured && !Launch.Cold && Launch.Run == Mode::Whole && Stage == Phase::Settled &&
      Current == Mode::Whole)
    if (const std::optional<double> Expected = predict(Mode::Whole, Work)) {
      const bool AsExpected =
          std::abs(Seconds - *Expected) <=
          std::max(Settings.SampleTolerance * *Expected, Settings.SampleToleranceSeconds);
      SampleInterval = AsExpected
                           ? std::min(std::max(SampleInterval, Settings.SettledSampleInterval) * 2,
                                      Settings.MaxSettledSampleInterval)
                           : Settings.SettledSampleInterval;
    }
  std::optional<double> Best;
  for (Mode M : {Mode::Split, Mode::Whole})
    if (const std::optional<double> P = predict(M, Work))
      Best = Best ? std::min(*Best, *P) : *P;
  if (Best && predict(Mode::Split, Work) && predict(Mode::Whole, Work))
    Regret += std::max(Seconds - *Best, 0.0);
  (Launch.Cold || Launch.Settling ? Cold : Warm)[indexOf(Launch.Run)].observe(Work, Seconds);
  if (Launch.Cold && !Launch.First)
    Switched[indexOf(Launch.Run)].observe(Work, Seconds);
  Predicted.reset();
  if (Launch.Measured)
    SecondsSinceProbe += Seconds; // else counted when issued
}

std::optional<GuardRecord> SplitGuard::record() const {
  if (Stage != Phase::Settled || !Warm[indexOf(Current)].samples())
    return std::nullopt;
  return GuardRecord{Current, Warm[0].endpoints(), Warm[1].endpoints()};
}

void SplitGuard::seed(const GuardRecord &Record) {
  if (Stage != Phase::First)
    return; // only a guard that decided nothing yet
  Stage = Phase::Settled;
  Current = LastIssued = Record.Run;
  SeededSplit = Record.Run == Mode::Split;
  ProbeInterval = NextProbeCheck = Settings.FirstProbeInterval;
  for (const auto &[Work, Seconds] : Record.Split)
    Warm[0].observe(Work, Seconds);
  for (const auto &[Work, Seconds] : Record.Whole)
    Warm[1].observe(Work, Seconds);
  Predicted.reset();
}

void SplitGuard::observeInferredWhole(double Work, double Seconds) {
  InferredWhole.observe(Work, Seconds);
  Predicted.reset();
}

void SplitGuard::startFromWholeTime(double Work, double Seconds) {
  const int Whole = indexOf(Mode::Whole);
  if (Warm[Whole].samples() || Cold[Whole].samples() || InferredWhole.samples() || Seconds <= 0.0)
    return;
  observeInferredWhole(Work, Seconds);
}

} // namespace libsplit::planner
