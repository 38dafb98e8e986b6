//===- key_balancer.hpp - Balancing state of one launch key --------------===//
//
// A small state machine per key:
//
//   search --(spread under the stop threshold, or no step left)--> hold
//   hold   --(smoothed spread over the resume threshold, ResumeLaunches in a row)--> search
//   hold   --(mean times significantly apart)--> one correcting step, still hold
//   hold   --(a probe of a dropped device predicts a gain)--> search with that device
//   hold   --(measured single-device time beats the split)--> hold on that device alone
//
// Probes are single launches that test an alternative; the held split resumes after them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "damping.hpp"
#include "noise_estimator.hpp"
#include "running_stats.hpp"
#include "share_solver.hpp"
#include "time_samples.hpp"

#include "libsplit/balancer/balancer.hpp"

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace libsplit::balancer {

class KeyBalancer {
public:
  // The first split: WarmShares if given (a saved split), else FirstWeights (the runtime's
  // guess, see Balancer::propose), else equal shares.
  // SeparateHardware: see Balancer::propose.
  KeyBalancer(const BalancerConfig &Config, std::size_t DeviceCount, std::uint64_t NumGroups,
              const std::vector<double> *WarmShares, const std::vector<double> *FirstWeights,
              bool SeparateHardware = false);

  std::size_t deviceCount() const { return Devices.size(); }
  std::uint64_t numGroups() const { return NumGroups; }
  const Split &proposal() const { return Next; }
  ObserveStatus observe(const std::vector<DeviceMeasurement> &Measurements,
                        bool ChosenByCaller = false);
  // See Balancer::postponeProbe.
  bool postponeProbe(double Seconds);
  KeyTrace trace() const;
  KeyStatus status() const;
  // The held shares, or nothing while searching (or for the fixed strategies).
  bool heldShares(std::vector<double> &Shares) const;

private:
  enum class Phase { Fixed, Search, Hold };

  struct Device {
    bool Active = true;
    double LastKernel = 0.0;
    double LastTransfer = 0.0;
    std::uint64_t LastBytes = 0;
    bool HasRun = false;          // ran a slice of this key
    bool TransferHidden = false;  // its first run's transfers were not charged
    double Cost = 0.0;            // seconds per work-group when it last ran; 0: never ran
    double KernelCost = 0.0;      // the same without the transfers the launch caused
    std::uint64_t CostGroups = 0; // groups of the launch that measured Cost
    double Relative = 0.0;        // time / mean time of the devices, when it last ran split
    std::uint64_t RelativeGroups = 0;
    RunningStats Window; // relative times while holding the current split
    TimeSamples Single;  // times measured by single-device probes on this device
    unsigned ProbeInterval = 0;
    unsigned SinceProbe = 0;
  };

  struct Launch {
    Eigen::VectorXd Seconds;
    Eigen::VectorXd Transfers; // the part of Seconds charged for transfers
    Eigen::VectorXd Relative;  // Seconds / mean over the devices that ran; 0 when fewer than two
    Eigen::VectorXd Shares;
    std::vector<std::uint64_t> Groups;
    double Makespan = 0.0;
  };

  void searchStep(const Launch &L);
  void holdStep(const Launch &L);
  void afterDeviceProbe(const Launch &L);
  void afterSingleProbe(const Launch &L);
  // Spaces the probes of a device so that what they cost stays within Config.ProbeBudget.
  void budgetProbe(std::size_t Probed, double Excess);
  void enterHold(const Eigen::VectorXd &Shares, const Launch *Measured);
  void enterSearch();
  void feedWindow(const Launch &L);
  void sampleNoise(std::size_t Device, double Cost, std::uint64_t Groups);
  // The part of a measured transfer time charged to the split: all of it, except at the
  // device's first slice of the key.
  double chargedTransfer(Device &D, const DeviceMeasurement &M);
  void relativeTimes(Launch &L) const;
  void sampleSpreadNoise(const Launch &L);
  static bool sameSlice(std::uint64_t Groups, std::uint64_t Before);
  bool driftDetected(const Launch &L);
  // The held launches since the last comparison grew past what it saw (HeldAtVerdict,
  // SingleAtVerdict): the next launch compares the devices alone again.
  void recompareIfHeldSlowed();
  void refineIfSignificant();
  void scheduleProbes();
  void goSingle(std::size_t Device, const TimeSamples &Before);
  bool revertIfAloneLost();
  // The comparison with a device alone kept what is held (HeldTime against SingleTime): compared
  // again at a doubled interval, from new samples.
  void keepHeld(double HeldTime, double SingleTime);
  // The devices to measure alone, while split: the active devices not clearly slower than the
  // fastest.
  std::vector<std::size_t> singleCandidates() const;
  // How much slower than the fastest a candidate's cost per group may be.
  double candidateRatio() const;
  // After the first time alone of a candidate: when it ran much faster than its cost at the split
  // predicted, the others are measured too (they may be as slowed at the split).
  void widenIfSlowedAtSplit();
  // Whether each measured device's kernel cost alone matched its cost at the split.
  bool kernelCostsMatched(const std::vector<std::size_t> &Measured) const;
  bool dropSmallShares(Eigen::VectorXd &Shares);
  void prepare();

  std::vector<std::size_t> activeDevices() const;
  double costOf(std::size_t Device) const;
  double heldMakespan() const;
  double dropThreshold() const;
  double stopThreshold() const;
  double resumeThreshold() const;
  // (max - min) / mean of Values over Devices with work in L; negative when fewer than two.
  double spread(const Eigen::VectorXd &Values, const Launch &L) const;

  BalancerConfig Config;
  std::uint64_t NumGroups;
  std::vector<Device> Devices;
  Eigen::VectorXd Shares; // of the next balancing launch
  Phase State = Phase::Search;
  LaunchPurpose NextPurpose = LaunchPurpose::Balance;
  std::size_t ProbeTarget = 0;
  // The launch after a device probe that did not pay: its time beyond the held makespan is the
  // probe's too (the probed slice's data coming back), not a measure of the held split.
  bool AfterFailedProbe = false;
  double FailedProbeExcess = 0.0;
  // What probes may still cost before the caller's price postpones one (postponeProbe):
  // Config.ProbeBudget of every launch's makespan, less the prices of the probes that ran.
  double ProbeCredit = 0.0;
  unsigned PostponedProbes = 0;
  unsigned Adoptions = 0; // splits the caller chose instead of the proposal, held since
  // The held split is one the caller chose (its data affinity), imbalanced by this spread when it
  // did: only a spread beyond it is a drift, and no correcting step is proposed (the caller
  // would refuse it again).
  bool Adopted = false;
  double AdoptedSpread = 0.0;
  Split Next;

  std::unique_ptr<ShareSolver> Solver;
  ReversalDamping Damping;
  unsigned Iterations = 0;
  Eigen::VectorXd BestShares;
  double BestMakespan = 0.0;

  RunningStats MakespanWindow;
  // Makespans of the held configuration since a comparison with single devices last concluded:
  // unlike MakespanWindow, kept through refinements of a held split (each restarts the window),
  // so that a comparison on noisy devices gathers enough launches to conclude.
  TimeSamples ComparedHeld;
  // Transfer seconds per held launch, summed over its devices: what the held configuration moves
  // every launch (halos, data the host rewrites), as opposed to a one-off move of its data.
  RunningStats HeldTransfers;
  double LastMakespan = 0.0;
  unsigned OverCount = 0;
  std::size_t LastSlowest = 0;
  // The held devices' windows started over after reaching RefineMaxLaunches: from then on they
  // are tested only when full, so that a long hold is not tested more often than a short one.
  bool RefineWindowRestarted = false;
  // Noise of a device's time between launches that gave it almost the same slice, whatever the
  // phase: what a comparison of launches (the split against one device alone) must see through.
  NoiseEstimator Noise;
  // The same for times relative to their launch's mean: what the spread between devices within
  // a launch must see through (load that slows every device alike does not count).
  NoiseEstimator SpreadNoise;
  unsigned SinceSingleProbe = 0; // held launches since the single device was last measured
  unsigned SingleInterval = 0;
  std::vector<std::size_t> SingleRound; // candidates of the comparison under way
  std::vector<double> RoundSplitCosts;  // costs per group at the split when it started
  std::vector<double> RoundSplitKernelCosts;
  // A comparison measured the devices alone at the kernel costs they had at the split, or they
  // share no hardware: later comparisons may skip a device whose predicted time alone clearly
  // loses.
  bool SeparateHardware = false;
  bool CostsPredictAlone = false;
  // The held configuration's time when a comparison last kept it, and the best device alone
  // then (0: none measured, the costs ruled every device out). Held launches that grow past
  // either start a comparison at once: devices that share cores slow each other more at times,
  // and the costs at the split no longer say what a device alone takes.
  double HeldAtVerdict = 0.0;
  double SingleAtVerdict = 0.0;
  // What was held when a device went alone, until the launches alone confirm the choice.
  TimeSamples HeldBeforeAlone;
  Eigen::VectorXd SharesBeforeAlone;
  std::vector<bool> ActiveBeforeAlone;
  TimeSamples TransfersAlone;
  // Transfers per launch the last device held alone paid (0: none held alone yet): the data the
  // other devices kept writing, which any device alone would gather again.
  double AloneTransfer = 0.0;
  unsigned AloneReversals = 0;

  // Some device's times start to include transfers that were hidden so far (see chargedTransfer).
  bool CostModelChanged = false;

  std::uint64_t Launches = 0;
  unsigned Resumes = 0;
  unsigned Refinements = 0;
  double LastSpread = 0.0;
};

} // namespace libsplit::balancer
