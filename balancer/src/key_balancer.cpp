//===- key_balancer.cpp - Balancing state of one launch key --------------===//
#include "key_balancer.hpp"
#include "simplex.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace libsplit::balancer {

// A timer that reports 0 for real work would make a device look infinitely fast.
static constexpr double MinSeconds = 1e-9;
// Launches held before the single-device option is first measured: a few samples of the split's
// makespan to compare with.
static constexpr unsigned SingleProbeDelay = 4;
// Two launches whose slices of a device differ by at most this fraction measure its noise.
static constexpr double NoiseSameSlice = 0.02;
// Samples of a time before their own variance is trusted over the noise estimate.
static constexpr std::uint64_t MinSamplesForVariance = 3;
// Devices whose cost per group at the split is within this fraction of the fastest's (or three
// noise widths, if wider) are measured alone before the split is compared with one device.
static constexpr double SingleCandidateBand = 0.25;
// A device that runs this much faster alone than its cost at the split predicts was slowed by
// the others (devices that share hardware: two CPU runtimes on one CPU); the costs at the split
// then rank nothing, and every device up to this factor of the fastest's cost is measured.
static constexpr double SharedHardwareBand = 4.0;
// Once the devices proved independent, a device is not measured alone when its kernel time at
// the split, scaled to every group, exceeds the held makespan by this factor (below 2, so that
// two equal devices are not measured again).
static constexpr double ClearLossRatio = 1.75;
// Launches a device held alone runs before they are compared with what it replaced: a probe
// alone tells its kernel, not the data its neighbours keep writing elsewhere (a stencil's three
// kernels split, one of them alone: each of its launches gathers its input back, and the next
// kernel sends it out again).
static constexpr unsigned AloneCheckLaunches = 4;

KeyBalancer::KeyBalancer(const BalancerConfig &Config, std::size_t DeviceCount,
                         std::uint64_t NumGroups, const std::vector<double> *WarmShares,
                         const std::vector<double> *FirstWeights, bool SeparateHardware)
    : Config(Config), NumGroups(NumGroups), Devices(DeviceCount),
      Shares(Eigen::VectorXd::Constant(static_cast<Eigen::Index>(DeviceCount),
                                       DeviceCount ? 1.0 / static_cast<double>(DeviceCount) : 0)),
      Damping(Config.PingPongRatio), SingleInterval(SingleProbeDelay),
      SeparateHardware(SeparateHardware), CostsPredictAlone(SeparateHardware) {
  for (Device &D : Devices)
    D.ProbeInterval = Config.ProbeInterval;
  switch (Config.Kind) {
  case Strategy::Uniform:
    State = Phase::Fixed;
    break;
  case Strategy::Static:
    State = Phase::Fixed;
    // The runtime resolves the shares for its devices (a mismatch is its one-line error); with
    // any other count, uniform is the only split that means something.
    if (Config.StaticShares.size() == DeviceCount)
      Shares = Eigen::Map<const Eigen::VectorXd>(Config.StaticShares.data(),
                                                 static_cast<Eigen::Index>(DeviceCount));
    break;
  case Strategy::FixedPoint:
    Solver = makeFixedPointSolver();
    break;
  case Strategy::Broyden:
    Solver = makeBroydenSolver();
    break;
  }
  // Nothing to balance: keep the state machine (and its probes) out of the way.
  if (DeviceCount < 2 || NumGroups == 0)
    State = Phase::Fixed;
  auto startFrom = [&](const std::vector<double> *Given) {
    if (State == Phase::Fixed || !Given || Given->size() != DeviceCount)
      return false;
    Eigen::VectorXd Start =
        Eigen::Map<const Eigen::VectorXd>(Given->data(), static_cast<Eigen::Index>(DeviceCount));
    if (!Start.allFinite() || Start.minCoeff() < 0.0 || !(Start.sum() > 0.0))
      return false;
    Start /= Start.sum();
    // A device whose share rounds to no work-group is not measured: it starts dropped, and the
    // probes of dropped devices bring it in if it pays.
    Split Rounded =
        roundShares(std::vector<double>(Start.data(), Start.data() + Start.size()), NumGroups);
    for (std::size_t I = 0; I < DeviceCount; ++I)
      if (Rounded.Slices[I].Groups == 0)
        Start[static_cast<Eigen::Index>(I)] = 0.0;
    if (!(Start.sum() > 0.0))
      return false;
    Shares = Start / Start.sum();
    for (std::size_t I = 0; I < DeviceCount; ++I)
      Devices[I].Active = Shares[static_cast<Eigen::Index>(I)] > 0.0;
    return true;
  };
  if (!startFrom(WarmShares))
    startFrom(FirstWeights);
  BestShares = Shares;
  BestMakespan = std::numeric_limits<double>::infinity();
  if (State != Phase::Fixed && activeDevices().size() <= 1)
    enterHold(Shares, nullptr);
  prepare();
}

std::vector<std::size_t> KeyBalancer::activeDevices() const {
  std::vector<std::size_t> Active;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    if (Devices[I].Active)
      Active.push_back(I);
  return Active;
}

double KeyBalancer::costOf(std::size_t Device) const {
  if (Devices[Device].Cost > 0.0)
    return Devices[Device].Cost;
  // Never measured (its share rounded to zero groups so far): assume an average device.
  double Sum = 0.0;
  unsigned Known = 0;
  for (const struct Device &D : Devices)
    if (D.Active && D.Cost > 0.0) {
      Sum += D.Cost;
      ++Known;
    }
  return Known ? Sum / Known : 1.0;
}

double KeyBalancer::heldMakespan() const {
  return MakespanWindow.count() ? MakespanWindow.mean() : LastMakespan;
}

double KeyBalancer::dropThreshold() const {
  // Below half a work-group the share rounds to nothing anyway.
  return std::max(Config.DropShare,
                  0.5 / static_cast<double>(std::max<std::uint64_t>(NumGroups, 1)));
}

double KeyBalancer::stopThreshold() const {
  return std::max(Config.StopSpread, Config.NoiseWidth * SpreadNoise.value());
}

double KeyBalancer::resumeThreshold() const {
  // Widening with the noise keeps the ratio of the two thresholds, i.e. the hysteresis band.
  double Ratio = Config.StopSpread > 0.0 ? Config.ResumeSpread / Config.StopSpread : 1.0;
  return std::max(Config.ResumeSpread, Ratio * stopThreshold());
}

double KeyBalancer::spread(const Eigen::VectorXd &Values, const Launch &L) const {
  double Min = std::numeric_limits<double>::infinity();
  double Max = 0.0;
  double Sum = 0.0;
  unsigned Count = 0;
  for (std::size_t I = 0; I < Devices.size(); ++I) {
    if (!Devices[I].Active || L.Groups[I] == 0)
      continue;
    double Value = Values[static_cast<Eigen::Index>(I)];
    Min = std::min(Min, Value);
    Max = std::max(Max, Value);
    Sum += Value;
    ++Count;
  }
  if (Count < 2 || !(Sum > 0.0))
    return -1.0;
  return (Max - Min) / (Sum / Count);
}

ObserveStatus KeyBalancer::observe(const std::vector<DeviceMeasurement> &Measurements,
                                   bool ChosenByCaller) {
  if (Measurements.size() != Devices.size())
    return ObserveStatus::Malformed;
  std::uint64_t Total = 0;
  for (const DeviceMeasurement &M : Measurements) {
    if (!std::isfinite(M.KernelSeconds) || !std::isfinite(M.TransferSeconds) ||
        M.KernelSeconds < 0.0 || M.TransferSeconds < 0.0)
      return ObserveStatus::Malformed;
    Total += M.Groups;
  }
  if (Total != NumGroups)
    return ObserveStatus::Malformed;

  auto Count = static_cast<Eigen::Index>(Devices.size());
  Launch L;
  L.Seconds = Eigen::VectorXd::Zero(Count);
  L.Transfers = Eigen::VectorXd::Zero(Count);
  L.Shares = Eigen::VectorXd::Zero(Count);
  L.Groups.resize(Devices.size());
  bool Matches = true;
  for (std::size_t I = 0; I < Devices.size(); ++I) {
    const DeviceMeasurement &M = Measurements[I];
    Device &D = Devices[I];
    auto E = static_cast<Eigen::Index>(I);
    D.LastKernel = M.KernelSeconds;
    D.LastTransfer = M.TransferSeconds;
    D.LastBytes = M.BytesMoved;
    L.Groups[I] = M.Groups;
    L.Shares[E] = NumGroups ? static_cast<double>(M.Groups) / static_cast<double>(NumGroups) : 0;
    const double Transfer = chargedTransfer(D, M);
    if (M.Groups > 0) {
      L.Seconds[E] = std::max(M.KernelSeconds + Transfer, MinSeconds);
      L.Transfers[E] = Transfer;
      D.KernelCost = std::max(M.KernelSeconds, MinSeconds) / static_cast<double>(M.Groups);
      sampleNoise(I, L.Seconds[E] / static_cast<double>(M.Groups), M.Groups);
    }
    Matches = Matches && M.Groups == Next.Slices[I].Groups &&
              (M.Groups == 0 || M.FirstGroup == Next.Slices[I].FirstGroup);
  }
  L.Makespan = L.Seconds.size() ? L.Seconds.maxCoeff() : 0.0;
  ProbeCredit += Config.ProbeBudget * L.Makespan;
  relativeTimes(L);
  sampleSpreadNoise(L);
  ++Launches;
  LastSpread = std::max(0.0, spread(L.Seconds, L));
  if (State == Phase::Fixed)
    return Matches ? ObserveStatus::Accepted : ObserveStatus::Mismatch;
  if (!Matches) {
    if (!ChosenByCaller || NextPurpose != LaunchPurpose::Balance)
      return ObserveStatus::Mismatch;
    // The caller keeps the cut where its data is: proposing another would only make it price
    // that cut against its own again at every launch. The split that ran is held, and judged as
    // any held split is (a drift resumes the search).
    for (std::size_t I = 0; I < Devices.size(); ++I)
      if (L.Groups[I] > 0)
        Devices[I].Active = true;
    ++Adoptions;
    enterHold(L.Shares, &L);
    Adopted = true;
    AdoptedSpread = std::max(0.0, spread(L.Seconds, L));
    prepare();
    return ObserveStatus::Accepted;
  }

  LaunchPurpose Purpose = NextPurpose;
  NextPurpose = LaunchPurpose::Balance;
  switch (Purpose) {
  case LaunchPurpose::ProbeDevice:
    afterDeviceProbe(L);
    break;
  case LaunchPurpose::ProbeSingle:
    afterSingleProbe(L);
    break;
  case LaunchPurpose::Balance:
    if (State == Phase::Search)
      searchStep(L);
    else
      holdStep(L);
    break;
  }
  prepare();
  return ObserveStatus::Accepted;
}

void KeyBalancer::enterSearch() {
  State = Phase::Search;
  Adopted = false;
  AdoptedSpread = 0.0;
  Iterations = 0;
  Solver->reset();
  Damping.reset(0);
  BestMakespan = std::numeric_limits<double>::infinity();
  BestShares = Shares;
  OverCount = 0;
  // Times measured alone belong to the comparison with the split that was held.
  for (Device &D : Devices)
    D.Single.clear();
  SingleRound.clear();
  ComparedHeld.clear();
  HeldBeforeAlone.clear();
}

void KeyBalancer::searchStep(const Launch &L) {
  if (L.Makespan < BestMakespan) {
    BestMakespan = L.Makespan;
    BestShares = L.Shares;
  }
  std::vector<std::size_t> Active = activeDevices();
  if (Active.size() <= 1) {
    enterHold(L.Shares, &L);
    return;
  }
  double Spread = spread(L.Seconds, L);
  if (Spread >= 0.0 && Spread < stopThreshold()) {
    enterHold(L.Shares, &L);
    return;
  }
  if (Iterations >= Config.MaxSearchSteps) {
    for (std::size_t I = 0; I < Devices.size(); ++I)
      Devices[I].Active = BestShares[static_cast<Eigen::Index>(I)] > 0.0;
    enterHold(BestShares, nullptr);
    return;
  }

  if (CostModelChanged) {
    Solver->reset();
    CostModelChanged = false;
  }
  auto Used = static_cast<Eigen::Index>(Active.size());
  Eigen::VectorXd X(Used);
  Eigen::VectorXd Cost(Used);
  for (Eigen::Index K = 0; K < Used; ++K) {
    X[K] = L.Shares[static_cast<Eigen::Index>(Active[K])];
    Cost[K] = costOf(Active[K]);
  }
  X /= X.sum() > 0.0 ? X.sum() : 1.0;
  Eigen::VectorXd Target = Solver->step(X, Cost);
  Eigen::VectorXd Moved = projectOntoSimplex(X + Damping.apply(Target - X));
  ++Iterations;

  Eigen::VectorXd Proposed = Eigen::VectorXd::Zero(Shares.size());
  for (Eigen::Index K = 0; K < Used; ++K)
    Proposed[static_cast<Eigen::Index>(Active[K])] = Moved[K];
  if (dropSmallShares(Proposed)) {
    Solver->reset();
    Damping.reset(0);
  }
  if (activeDevices().size() <= 1) {
    enterHold(Proposed, nullptr);
    return;
  }
  // The step no longer changes a single work-group: nothing left to gain from searching.
  std::vector<double> ProposedShares(Proposed.data(), Proposed.data() + Proposed.size());
  Split Rounded = roundShares(ProposedShares, NumGroups);
  bool Same = true;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    Same = Same && Rounded.Slices[I].Groups == L.Groups[I];
  if (Same) {
    enterHold(L.Shares, &L);
    return;
  }
  Shares = Proposed;
}

bool KeyBalancer::dropSmallShares(Eigen::VectorXd &Proposed) {
  double Threshold = dropThreshold();
  Eigen::Index Largest = 0;
  Proposed.maxCoeff(&Largest);
  // The share each active device would have if all finished together at their measured cost
  // per work-group: a step that overshoots (a secant step on a load that drifts sent a GPU of
  // eight from a ninth of the groups to none) does not drop a device that this says is worth
  // its share; it keeps that share instead (dropped, only probes could bring it back).
  double Speed = 0.0;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    if (Devices[I].Active && Devices[I].Cost > 0.0)
      Speed += 1.0 / Devices[I].Cost;
  bool Dropped = false;
  for (std::size_t I = 0; I < Devices.size(); ++I) {
    auto E = static_cast<Eigen::Index>(I);
    if (!Devices[I].Active || E == Largest || Proposed[E] >= Threshold)
      continue;
    const double Deserved =
        Devices[I].Cost > 0.0 && Speed > 0.0 ? 1.0 / Devices[I].Cost / Speed : 0.0;
    if (Deserved >= 2.0 * Threshold) {
      Proposed[E] = Deserved;
      continue;
    }
    Proposed[E] = 0.0;
    Devices[I].Active = false;
    Devices[I].SinceProbe = 0;
    Dropped = true;
  }
  Proposed /= Proposed.sum();
  return Dropped;
}

void KeyBalancer::enterHold(const Eigen::VectorXd &Held, const Launch *Measured) {
  State = Phase::Hold;
  Adopted = false;
  AdoptedSpread = 0.0;
  Shares = Held;
  MakespanWindow.clear();
  HeldTransfers.clear();
  for (Device &D : Devices)
    D.Window.clear();
  OverCount = 0;
  RefineWindowRestarted = false;
  if (Measured)
    feedWindow(*Measured);
}

double KeyBalancer::chargedTransfer(Device &D, const DeviceMeasurement &M) {
  if (M.Groups == 0)
    return M.TransferSeconds;
  if (!D.HasRun) {
    D.HasRun = true;
    D.TransferHidden = M.TransferSeconds > 0.0;
    // The first slice a device runs brings it its initial data, whatever the split: charged, it
    // makes the device that got the most data look the slowest (AES on a GPU and a CPU: 2 GiB
    // sent to the GPU at the first launch pushed the split towards the CPU).
    return 0.0;
  }
  if (D.TransferHidden) {
    // From now on this device's times include its transfers: what the solver learnt from the
    // earlier times no longer describes them.
    D.TransferHidden = false;
    CostModelChanged = true;
  }
  return M.TransferSeconds;
}

void KeyBalancer::sampleNoise(std::size_t I, double Cost, std::uint64_t Groups) {
  Device &D = Devices[I];
  if (D.Cost > 0.0 && sameSlice(Groups, D.CostGroups))
    Noise.add(std::fabs(std::log(Cost / D.Cost)));
  D.Cost = Cost;
  D.CostGroups = Groups;
}

bool KeyBalancer::sameSlice(std::uint64_t Groups, std::uint64_t Before) {
  auto Was = static_cast<double>(Before);
  return std::fabs(static_cast<double>(Groups) - Was) <= NoiseSameSlice * Was;
}

void KeyBalancer::relativeTimes(Launch &L) const {
  L.Relative = Eigen::VectorXd::Zero(L.Seconds.size());
  double Sum = 0.0;
  unsigned Ran = 0;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    if (L.Groups[I] > 0) {
      Sum += L.Seconds[static_cast<Eigen::Index>(I)];
      ++Ran;
    }
  if (Ran < 2)
    return;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    if (L.Groups[I] > 0)
      L.Relative[static_cast<Eigen::Index>(I)] =
          L.Seconds[static_cast<Eigen::Index>(I)] * Ran / Sum;
}

void KeyBalancer::sampleSpreadNoise(const Launch &L) {
  unsigned Ran = 0;
  for (std::uint64_t Groups : L.Groups)
    Ran += Groups > 0;
  for (std::size_t I = 0; I < Devices.size(); ++I) {
    Device &D = Devices[I];
    double Relative = L.Relative[static_cast<Eigen::Index>(I)];
    if (Relative > 0.0 && D.Relative > 0.0 && sameSlice(L.Groups[I], D.RelativeGroups))
      // Dividing by the launch's mean removes load that slows all devices alike, and 1/n of
      // each device's own noise: scaled back, independent noise reads as it did per device.
      SpreadNoise.add(std::fabs(std::log(Relative / D.Relative)) /
                      std::sqrt(1.0 - 1.0 / static_cast<double>(Ran)));
    D.Relative = Relative;
    D.RelativeGroups = L.Groups[I];
  }
}

void KeyBalancer::feedWindow(const Launch &L) {
  MakespanWindow.add(L.Makespan);
  ComparedHeld.add(L.Makespan);
  HeldTransfers.add(L.Transfers.sum());
  LastMakespan = L.Makespan;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    if (Devices[I].Active && L.Groups[I] > 0)
      Devices[I].Window.add(L.Relative[static_cast<Eigen::Index>(I)]);
}

void KeyBalancer::holdStep(const Launch &L) {
  if (AfterFailedProbe) {
    AfterFailedProbe = false;
    budgetProbe(ProbeTarget, FailedProbeExcess + std::max(0.0, L.Makespan - heldMakespan()));
    scheduleProbes();
    return;
  }
  feedWindow(L);
  if (HeldBeforeAlone.count()) {
    TransfersAlone.add(L.Transfers.sum());
    if (revertIfAloneLost())
      return;
  }
  if (activeDevices().size() >= 2) {
    recompareIfHeldSlowed();
    if (driftDetected(L)) {
      ++Resumes;
      enterSearch();
      searchStep(L);
      return;
    }
    if (!Adopted)
      refineIfSignificant();
  }
  scheduleProbes();
}

void KeyBalancer::recompareIfHeldSlowed() {
  if (!(HeldAtVerdict > 0.0) || ComparedHeld.count() < Config.RefineMinLaunches)
    return;
  const double Held = ComparedHeld.typical();
  if (!(Held > candidateRatio() * HeldAtVerdict) &&
      !(SingleAtVerdict > 0.0 && Held > SingleAtVerdict))
    return;
  HeldAtVerdict = SingleAtVerdict = 0.0;
  CostsPredictAlone = SeparateHardware;
  SingleRound.clear();
  SingleInterval = SingleProbeDelay;
  SinceSingleProbe = SingleInterval;
}

bool KeyBalancer::driftDetected(const Launch &L) {
  Eigen::Index Slowest = 0;
  L.Seconds.maxCoeff(&Slowest);
  // The threshold is above the noise band; noise also makes a random device the slowest, while
  // a real drift keeps the same one slow.
  // An adopted split's own imbalance widens the band by as much, and by the resume threshold's
  // share of it (the spread of one launch it was measured from is as noisy as any).
  if (spread(L.Seconds, L) > resumeThreshold() + AdoptedSpread * (1.0 + resumeThreshold()))
    OverCount = static_cast<std::size_t>(Slowest) == LastSlowest ? OverCount + 1 : 1;
  else
    OverCount = 0;
  LastSlowest = static_cast<std::size_t>(Slowest);
  return OverCount >= Config.ResumeLaunches;
}

void KeyBalancer::refineIfSignificant() {
  std::vector<std::size_t> Active = activeDevices();
  std::size_t Slow = Active.front();
  std::size_t Fast = Active.front();
  double Sum = 0.0;
  // Tested only when the window reaches RefineMinLaunches, then twice, four times as many up to
  // RefineMaxLaunches: testing after every launch would, sooner or later, find a noisy window
  // that passes. The window then starts over and is tested each time it is full again, so that
  // an imbalance that appears late is judged on launches that show it, not diluted by a long
  // balanced past.
  std::uint64_t Count = Devices[Active.front()].Window.count();
  std::uint64_t First =
      std::max(1u, RefineWindowRestarted ? Config.RefineMaxLaunches : Config.RefineMinLaunches);
  if (Count < First || Count % First != 0 || ((Count / First) & (Count / First - 1)) != 0)
    return;
  for (std::size_t I : Active) {
    const RunningStats &W = Devices[I].Window;
    if (W.count() != Count)
      return;
    Sum += W.mean();
    if (W.mean() > Devices[Slow].Window.mean())
      Slow = I;
    if (W.mean() < Devices[Fast].Window.mean())
      Fast = I;
  }
  const RunningStats &S = Devices[Slow].Window;
  const RunningStats &F = Devices[Fast].Window;
  // StopSpread, not the noise-widened threshold: with enough launches the means are precise
  // even when single launches are not, and the confidence test accounts for the noise. The
  // windows hold times relative to each launch's mean (load common to all devices cancels), so
  // the two are correlated: the sum of their errors bounds the error of the gap.
  double Gap = S.mean() - F.mean();
  double Error = S.standardError() + F.standardError();
  if (Gap <= Config.StopSpread * Sum / static_cast<double>(Active.size()) ||
      Gap <= Config.Confidence * Error) {
    if (Count >= Config.RefineMaxLaunches) {
      for (std::size_t I : Active)
        Devices[I].Window.clear();
      RefineWindowRestarted = true;
    }
    return;
  }

  // Means over many launches at one split: a fixed-point step from them is not chasing noise.
  auto Used = static_cast<Eigen::Index>(Active.size());
  Eigen::VectorXd Cost(Used);
  for (Eigen::Index K = 0; K < Used; ++K) {
    // Next is still the split these launches ran (prepare has not replaced it yet).
    auto Groups = static_cast<double>(std::max<std::uint64_t>(Next.Slices[Active[K]].Groups, 1));
    Cost[K] = Devices[Active[K]].Window.mean() / Groups;
  }
  Eigen::VectorXd Target = proportionalShares(Cost);
  Eigen::VectorXd Proposed = Eigen::VectorXd::Zero(Shares.size());
  for (Eigen::Index K = 0; K < Used; ++K)
    Proposed[static_cast<Eigen::Index>(Active[K])] = Target[K];
  dropSmallShares(Proposed);
  ++Refinements;
  enterHold(Proposed, nullptr);
}

void KeyBalancer::scheduleProbes() {
  for (std::size_t I = 0; I < Devices.size(); ++I) {
    Device &D = Devices[I];
    if (D.Active || ++D.SinceProbe < D.ProbeInterval || NextPurpose != LaunchPurpose::Balance)
      continue;
    D.SinceProbe = 0;
    NextPurpose = LaunchPurpose::ProbeDevice;
    ProbeTarget = I;
  }
  if (++SinceSingleProbe < SingleInterval || NextPurpose != LaunchPurpose::Balance)
    return;
  // Chosen when a comparison starts: a device's cost per group changes once it ran alone.
  if (SingleRound.empty()) {
    SingleRound = singleCandidates();
    RoundSplitCosts.resize(Devices.size());
    RoundSplitKernelCosts.resize(Devices.size());
    for (std::size_t I = 0; I < Devices.size(); ++I) {
      RoundSplitCosts[I] = costOf(I);
      RoundSplitKernelCosts[I] = Devices[I].KernelCost;
    }
  }
  const std::vector<std::size_t> &Candidates = SingleRound;
  if (Candidates.empty()) {
    // Every device alone would clearly lose: as if the split had been measured faster.
    HeldAtVerdict = heldMakespan();
    SingleAtVerdict = 0.0;
    ComparedHeld.clear();
    SingleInterval =
        std::min(std::max(2 * SingleInterval, Config.ProbeInterval), Config.MaxProbeInterval);
    SinceSingleProbe = 0;
    return;
  }
  // Every candidate is measured once before any is measured again; then the best so far is
  // re-measured until the comparison is decided.
  std::size_t Target = Candidates.front();
  for (std::size_t I : Candidates) {
    const TimeSamples &Mine = Devices[I].Single;
    const TimeSamples &Best = Devices[Target].Single;
    if (Mine.count() == 0 ? Best.count() != 0 || costOf(I) < costOf(Target)
                          : Best.count() != 0 && Mine.stats().mean() < Best.stats().mean())
      Target = I;
  }
  NextPurpose = LaunchPurpose::ProbeSingle;
  ProbeTarget = Target;
}

double KeyBalancer::candidateRatio() const {
  return 1.0 + std::max(SingleCandidateBand, 3.0 * Noise.value());
}

std::vector<std::size_t> KeyBalancer::singleCandidates() const {
  std::vector<std::size_t> Active = activeDevices();
  std::vector<std::size_t> Candidates;
  // Running alone: goSingle kept the rest of the comparison that chose this device (a noisy
  // comparison may have picked the slower of two close devices); nothing new to compare.
  if (Active.size() < 2)
    return Candidates;
  // Measured, not predicted: a cost per work-group seen at the held split says little about a
  // device running every group (granularity, merges of unknown regions, devices that share
  // cores). The costs only rule out devices clearly slower than the fastest.
  double Fastest = std::numeric_limits<double>::infinity();
  for (std::size_t I : Active)
    Fastest = std::min(Fastest, costOf(I));
  // A device whose kernels alone would take far longer than the held split, even by its cost
  // at the split, is not worth measuring: moving every byte to it for the probe (and back
  // after) is what costs most when the kernel is memory-bound.
  // Only once a measurement showed that the devices do not slow each other down (their kernel
  // costs alone matched their costs at the split): then the costs predict a device alone.
  for (std::size_t I : Active)
    if (costOf(I) <= candidateRatio() * Fastest &&
        !(CostsPredictAlone &&
          Devices[I].KernelCost * static_cast<double>(NumGroups) > ClearLossRatio * heldMakespan()))
      Candidates.push_back(I);
  return Candidates;
}
void KeyBalancer::afterDeviceProbe(const Launch &L) {
  Device &Probed = Devices[ProbeTarget];
  std::vector<std::size_t> Candidates = activeDevices();
  Candidates.push_back(ProbeTarget);
  auto Used = static_cast<Eigen::Index>(Candidates.size());
  Eigen::VectorXd Cost(Used);
  for (Eigen::Index K = 0; K < Used; ++K)
    Cost[K] = costOf(Candidates[K]);
  Eigen::VectorXd Predicted = proportionalShares(Cost);
  // Paper: with shares proportional to speed every device takes N / sum(1 / cost).
  double PredictedMakespan = static_cast<double>(NumGroups) / Cost.cwiseInverse().sum();
  bool Ran = L.Groups[ProbeTarget] > 0;
  if (Ran && Predicted[Used - 1] >= 2.0 * dropThreshold() &&
      PredictedMakespan < heldMakespan() * (1.0 - Config.ProbeGain)) {
    // Held on one device, the held launches are that device's time alone: the split the probe
    // leads to must beat them, as measured. (The prediction comes from a small slice, and devices
    // that share cores slow each other down at the split; one unlucky new sample alone then kept
    // a losing split for dozens of launches.)
    const bool WasSingle = Candidates.size() == 2;
    const std::size_t Alone = Candidates.front();
    const TimeSamples AloneTimes =
        ComparedHeld.count() ? ComparedHeld : TimeSamples(MakespanWindow);
    Probed.Active = true;
    Shares.setZero();
    for (Eigen::Index K = 0; K < Used; ++K)
      Shares[static_cast<Eigen::Index>(Candidates[K])] = Predicted[K];
    ++Resumes;
    enterSearch();
    if (WasSingle) {
      Devices[Alone].Single = AloneTimes;
      SingleInterval = SingleProbeDelay;
      SinceSingleProbe = 0;
    }
    return;
  }
  Probed.ProbeInterval = std::min(2 * Probed.ProbeInterval, Config.MaxProbeInterval);
  Probed.SinceProbe = 0;
  AfterFailedProbe = true;
  FailedProbeExcess = std::max(0.0, L.Makespan - heldMakespan());
  budgetProbe(ProbeTarget, FailedProbeExcess);
}

bool KeyBalancer::postponeProbe(double Seconds) {
  if (NextPurpose == LaunchPurpose::Balance || State == Phase::Fixed || !(Seconds > 0.0) ||
      !(Config.ProbeBudget > 0.0))
    return false;
  if (Seconds <= ProbeCredit) {
    ProbeCredit -= Seconds;
    return false;
  }
  // The launches whose budget pays the rest at the held makespan; until then the probe's
  // schedule waits (a device probe's interval, or the single-device comparison's).
  constexpr double LongestInterval = 1 << 20;
  const double Held = heldMakespan();
  const double Needed =
      Held > 0.0 ? std::min(std::ceil((Seconds - ProbeCredit) / (Config.ProbeBudget * Held)),
                            LongestInterval)
                 : LongestInterval;
  const auto Launches = static_cast<unsigned>(std::max(1.0, Needed));
  if (NextPurpose == LaunchPurpose::ProbeDevice) {
    Device &D = Devices[ProbeTarget];
    D.ProbeInterval = std::max(D.ProbeInterval, Launches);
    D.SinceProbe = 0;
  } else {
    SingleInterval = std::max(SingleInterval, Launches);
    SinceSingleProbe = 0;
  }
  NextPurpose = LaunchPurpose::Balance;
  ++PostponedProbes;
  prepare();
  return true;
}

void KeyBalancer::budgetProbe(std::size_t Probed, double Excess) {
  const double Held = heldMakespan();
  if (!(Held > 0.0) || !(Config.ProbeBudget > 0.0))
    return;
  // Past this, a device is as good as dropped for the run; the cap keeps the arithmetic finite.
  constexpr double LongestInterval = 1 << 20;
  const double Needed = std::min(std::ceil(Excess / (Config.ProbeBudget * Held)), LongestInterval);
  Device &D = Devices[Probed];
  D.ProbeInterval = std::max(D.ProbeInterval, static_cast<unsigned>(Needed));
}

void KeyBalancer::afterSingleProbe(const Launch &L) {
  // The probe brought the device every byte the other devices held: a one-off move, not what it
  // would pay per launch once alone. That is at most what the held configuration moves per
  // launch (data the host rewrites; halos that disappear alone). Charged in full, AES on PoCL's
  // basic + pthread measured pthread alone slower than the split, and kept a split that ran
  // slower per launch than pthread alone.
  const auto E = static_cast<Eigen::Index>(ProbeTarget);
  // Once a device was held alone, what its launches then moved is known: that, not the split's,
  // is what it would pay again.
  const double Steady =
      std::max(HeldTransfers.count() ? HeldTransfers.mean() : L.Transfers[E], AloneTransfer);
  const double AloneTime = L.Seconds[E] - L.Transfers[E] + std::min(L.Transfers[E], Steady);
  Devices[ProbeTarget].Single.add(std::max(AloneTime, MinSeconds));
  bool Alone = activeDevices().size() == 1;
  if (!Alone && Devices[ProbeTarget].Single.count() == 1)
    widenIfSlowedAtSplit();
  const std::vector<std::size_t> Candidates = SingleRound;
  std::size_t Best = ProbeTarget;
  // Every candidate is measured, even after a first one that was much slower than the split:
  // devices that share cores (PoCL's basic and pthread) cost the same per group at the split and
  // differ by 2x alone.
  for (std::size_t I : Candidates) {
    if (Devices[I].Single.count() == 0) {
      // Compare only once every candidate has been measured: probe the next one soon.
      SinceSingleProbe = SingleInterval - std::min(SingleInterval, 1u);
      return;
    }
    if (Devices[I].Single.count() > 0 &&
        Devices[I].Single.stats().mean() < Devices[Best].Single.stats().mean())
      Best = I;
  }
  const TimeSamples &Single = Devices[Best].Single;
  const TimeSamples Held = ComparedHeld.count() ? ComparedHeld : TimeSamples(MakespanWindow);
  double HeldTime = Held.count() ? Held.typical() : LastMakespan;
  double SingleTime = Single.typical();
  auto Samples = static_cast<double>(std::max<std::uint64_t>(Held.count(), 1));
  auto SingleSamples = static_cast<double>(Single.count());
  // Positive: what is held (a split, or another device alone) does not beat this device alone
  // by the gain that a split or a switch must bring.
  double Margin = HeldTime - SingleTime * (1.0 - Config.SplitGain);
  // Each side's spread from its own samples once there are a few (a device alone is often far
  // steadier than a split whose devices share cores), else from the noise estimate.
  auto Variance = [this](const RunningStats &Stats, double Mean) {
    if (Stats.count() >= MinSamplesForVariance)
      return Stats.variance();
    return Noise.value() * Noise.value() * Mean * Mean;
  };
  double Error =
      Config.Confidence * std::sqrt(Variance(Held.stats(), HeldTime) / Samples +
                                    Variance(Single.stats(), SingleTime) / SingleSamples);
  // After enough samples on both sides a difference still inside the noise is too small to
  // matter: decide. (Both: a device alone held for dozens of launches, then a split resumed by a
  // device probe and measured over a few lucky launches, kept a split slower than it.)
  if (Single.count() >= Config.RefineMinLaunches && Held.count() >= Config.RefineMinLaunches)
    Error = 0.0;
  if (Margin > Error) {
    goSingle(Best, Held);
    return;
  }
  if (Margin <= -Error) {
    // What is held was measured faster beyond the noise: keep it. Inside the noise the single
    // device is measured again (below), as it is when it measured faster: on devices that share
    // cores a held split's launches are bimodal, and a few of them decided either way by luck.
    if (!Alone) {
      for (std::size_t I : activeDevices())
        Devices[I].ProbeInterval = Config.ProbeInterval;
      CostsPredictAlone = SeparateHardware || kernelCostsMatched(Candidates);
    }
    keepHeld(HeldTime, SingleTime);
    return;
  }
  // Too close to call through the noise: measure the best again soon, the samples accumulate.
  SinceSingleProbe = SingleInterval - std::min(SingleInterval, SingleProbeDelay);
}

bool KeyBalancer::kernelCostsMatched(const std::vector<std::size_t> &Measured) const {
  for (std::size_t I : Measured) {
    double Split = RoundSplitKernelCosts[I];
    double Alone = Devices[I].KernelCost;
    if (Devices[I].Single.count() == 0 || !(Split > 0.0) ||
        std::fabs(std::log(Alone / Split)) > std::log(candidateRatio()))
      return false;
  }
  return true;
}

void KeyBalancer::widenIfSlowedAtSplit() {
  double Alone = Devices[ProbeTarget].Single.typical();
  double Predicted = RoundSplitCosts[ProbeTarget] * static_cast<double>(NumGroups);
  if (!(Alone * candidateRatio() < Predicted))
    return;
  double Fastest = std::numeric_limits<double>::infinity();
  for (std::size_t I : activeDevices())
    Fastest = std::min(Fastest, RoundSplitCosts[I]);
  for (std::size_t I : activeDevices())
    if (RoundSplitCosts[I] <= SharedHardwareBand * Fastest &&
        std::find(SingleRound.begin(), SingleRound.end(), I) == SingleRound.end())
      SingleRound.push_back(I);
}

void KeyBalancer::goSingle(std::size_t Kept, const TimeSamples &Before) {
  HeldBeforeAlone = Before;
  SharesBeforeAlone = Shares;
  ActiveBeforeAlone.clear();
  for (const Device &D : Devices)
    ActiveBeforeAlone.push_back(D.Active);
  TransfersAlone.clear();
  CostsPredictAlone = SeparateHardware;
  HeldAtVerdict = SingleAtVerdict = 0.0;
  Eigen::VectorXd Alone = Eigen::VectorXd::Zero(Shares.size());
  Alone[static_cast<Eigen::Index>(Kept)] = 1.0;
  for (std::size_t I = 0; I < Devices.size(); ++I) {
    if (I == Kept || !Devices[I].Active)
      continue;
    // A split that was tried and lost: wait longer before trying this device again.
    Devices[I].Active = false;
    Devices[I].SinceProbe = 0;
    Devices[I].ProbeInterval = std::min(2 * Devices[I].ProbeInterval, Config.MaxProbeInterval);
  }
  Devices[Kept].Active = true;
  Devices[Kept].Single.clear();
  SingleRound.erase(std::remove(SingleRound.begin(), SingleRound.end(), Kept), SingleRound.end());
  // Should a probe bring a device back, the split it converges to is checked early again; the
  // other devices measured alone are compared with this one as early.
  SingleInterval = SingleProbeDelay;
  SinceSingleProbe = 0;
  ComparedHeld.clear();
  enterHold(Alone, nullptr);
}

void KeyBalancer::keepHeld(double HeldTime, double SingleTime) {
  HeldAtVerdict = HeldTime;
  SingleAtVerdict = SingleTime;
  SingleInterval =
      std::min(std::max(2 * SingleInterval, Config.ProbeInterval), Config.MaxProbeInterval);
  SinceSingleProbe = 0;
  for (Device &D : Devices)
    D.Single.clear();
  SingleRound.clear();
  ComparedHeld.clear();
}

bool KeyBalancer::revertIfAloneLost() {
  if (ComparedHeld.count() < AloneCheckLaunches)
    return false;
  const TimeSamples Before = HeldBeforeAlone;
  HeldBeforeAlone.clear();
  const std::vector<std::size_t> Alone = activeDevices();
  if (Alone.size() != 1)
    return false;
  AloneTransfer = TransfersAlone.typical();
  const double AloneTime = ComparedHeld.typical();
  const double BeforeTime = Before.count() ? Before.typical() : 0.0;
  if (!(BeforeTime > 0.0) || AloneTime <= BeforeTime)
    return false;
  // Measured alone, the device lost to what it replaced: back to that, as if the comparison had
  // kept it, and the device alone is measured again later (charged what it moved alone).
  for (std::size_t I = 0; I < Devices.size(); ++I)
    Devices[I].Active = ActiveBeforeAlone[I];
  ++AloneReversals;
  CostsPredictAlone = SeparateHardware;
  keepHeld(BeforeTime, AloneTime);
  enterHold(SharesBeforeAlone, nullptr);
  return true;
}

void KeyBalancer::prepare() {
  std::vector<double> Planned(Shares.data(), Shares.data() + Shares.size());
  auto N = static_cast<double>(std::max<std::uint64_t>(NumGroups, 1));
  if (NextPurpose == LaunchPurpose::ProbeDevice) {
    // Small enough not to stretch the launch past the held makespan, if its cost is known,
    // and at least one work-group; one work-group for a device never measured (dropped from the
    // start: a CPU beside a GPU may be thousands of times slower per group).
    double Probe = Config.ProbeShare;
    if (Devices[ProbeTarget].Cost > 0.0)
      Probe = std::min(Probe, heldMakespan() / (Devices[ProbeTarget].Cost * N));
    else if (!Devices[ProbeTarget].HasRun)
      Probe = 0.0;
    Probe = std::max(Probe, 1.0 / N);
    for (double &Share : Planned)
      Share *= 1.0 - Probe;
    Planned[ProbeTarget] += Probe;
  } else if (NextPurpose == LaunchPurpose::ProbeSingle) {
    std::fill(Planned.begin(), Planned.end(), 0.0);
    Planned[ProbeTarget] = 1.0;
  }
  Next = roundShares(Planned, NumGroups);
  Next.Purpose = NextPurpose;
}

KeyStatus KeyBalancer::status() const {
  KeyStatus S;
  if (State == Phase::Fixed)
    S.Next = KeyState::Fixed;
  else if (NextPurpose == LaunchPurpose::ProbeDevice)
    S.Next = KeyState::ProbeDevice;
  else if (NextPurpose == LaunchPurpose::ProbeSingle)
    S.Next = KeyState::ProbeSingle;
  else if (State == Phase::Search)
    S.Next = Launches == 0 ? KeyState::Initial : KeyState::Search;
  else
    S.Next = activeDevices().size() <= 1 ? KeyState::Single : KeyState::Converged;
  S.Converged = State != Phase::Search;
  return S;
}

KeyTrace KeyBalancer::trace() const {
  KeyTrace T;
  const KeyStatus S = status();
  T.Next = S.Next;
  T.State = stateName(T.Next);
  T.Converged = S.Converged;
  T.Shares.assign(Shares.data(), Shares.data() + Shares.size());
  for (const Device &D : Devices) {
    T.Active.push_back(D.Active);
    T.LastSeconds.push_back(D.LastKernel + D.LastTransfer);
    T.LastKernelSeconds.push_back(D.LastKernel);
    T.LastTransferSeconds.push_back(D.LastTransfer);
    T.LastBytesMoved.push_back(D.LastBytes);
  }
  T.Iterations = Iterations;
  T.Launches = Launches;
  T.Resumes = Resumes;
  T.Refinements = Refinements;
  T.PostponedProbes = PostponedProbes;
  T.Adoptions = Adoptions;
  T.AloneReversals = AloneReversals;
  T.LastSpread = LastSpread;
  T.NoiseEstimate = Noise.value();
  T.SpreadNoiseEstimate = SpreadNoise.value();
  return T;
}

bool KeyBalancer::heldShares(std::vector<double> &Held) const {
  if (State != Phase::Hold)
    return false;
  Held.assign(Shares.data(), Shares.data() + Shares.size());
  return true;
}

} // namespace libsplit::balancer
