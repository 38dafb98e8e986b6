#include "launch_report.hpp"

#include <algorithm>

namespace libsplit {

namespace {

const char *purposeName(balancer::LaunchPurpose P) {
  switch (P) {
  case balancer::LaunchPurpose::Balance:
    return "balance";
  case balancer::LaunchPurpose::ProbeDevice:
    return "probe-device";
  case balancer::LaunchPurpose::ProbeSingle:
    return "probe-single";
  }
  return "?";
}

// LIBSPLIT_SIMULATED_SHARES: each slice takes what a device of speed Shares[D] would take, plus
// SplitSeconds where the launch runs on two devices or more, transfers nothing; returns the
// launch's makespan under those times.
double simulateTimes(std::vector<Slice> &Slices, const std::vector<ExecDevice *> &Devices,
                     const std::vector<double> &Shares, double SplitSeconds) {
  // A share of 0 is a device far slower than the others, not one that takes forever.
  constexpr double SecondsPerGroup = 10e-6, SlowestShare = 1e-3;
  double Makespan = 0.0;
  for (Slice &S : Slices) {
    const auto At = std::find(Devices.begin(), Devices.end(), S.Device);
    const size_t Index = static_cast<size_t>(At - Devices.begin());
    const double Share = std::max(Index < Shares.size() ? Shares[Index] : 0.0, SlowestShare);
    S.KernelSeconds = static_cast<double>(S.EndGroup - S.FirstGroup) * SecondsPerGroup / Share +
                      (Slices.size() >= 2 ? SplitSeconds : 0.0);
    S.TransferSeconds = 0.0;
    Makespan = std::max(Makespan, S.KernelSeconds);
  }
  return Makespan;
}

} // namespace

void SplitReport::operator()(double Makespan, const std::vector<double> &Kernels) {
  LaunchServices &S = *Services;
  for (size_t I = 0; I < Kernels.size() && I < Slices.size(); ++I)
    Slices[I].KernelSeconds = Kernels[I];
  if (!S.Settings.SimulatedShares.empty()) {
    std::vector<std::string> Names;
    for (const ExecDevice *D : Devices)
      Names.push_back(D->Name);
    if (std::vector<double> Simulated = S.Balancer.simulatedShares(Names); !Simulated.empty()) {
      Makespan = simulateTimes(Slices, Devices, Simulated, S.Settings.SimulatedSplitUs * 1e-6);
      GatherSeconds = 0.0;
    }
  }
  std::uint64_t AllBytesIn = 0;
  for (const Slice &S : Slices)
    AllBytesIn += S.BytesIn;
  std::vector<balancer::DeviceMeasurement> Measured(Devices.size());
  for (size_t D = 0; D < Devices.size(); ++D)
    Measured[D].FirstGroup = D < Proposal.Slices.size() ? Proposal.Slices[D].FirstGroup : 0;
  for (Slice &S : Slices)
    if (AllBytesIn)
      S.TransferSeconds +=
          GatherSeconds * static_cast<double>(S.BytesIn) / static_cast<double>(AllBytesIn);
  for (size_t D = 0, SliceIndex = 0; D < Devices.size(); ++D) {
    if (SliceIndex < Slices.size() && Slices[SliceIndex].Device == Devices[D]) {
      const Slice &S = Slices[SliceIndex++];
      Measured[D].Groups = S.EndGroup - S.FirstGroup;
      Measured[D].FirstGroup = S.FirstGroup;
      Measured[D].KernelSeconds = S.KernelSeconds;
      Measured[D].TransferSeconds = S.TransferSeconds;
      Measured[D].BytesMoved = S.BytesIn + S.BytesOut;
    }
  }
  // Slices other than the proposal's: the cut that keeps the data where it is (cut_choice.hpp).
  bool Chosen = false;
  for (size_t D = 0; D < Devices.size() && D < Proposal.Slices.size(); ++D)
    Chosen = Chosen || Measured[D].Groups != Proposal.Slices[D].Groups ||
             (Measured[D].Groups > 0 && Measured[D].FirstGroup != Proposal.Slices[D].FirstGroup);
  S.Balancer.observe(Key, Measured, Chosen);
  if (Rates)
    for (const Slice &S : Slices) {
      Rates->observe(S.Device->Index, S.KernelSeconds, S.EndGroup - S.FirstGroup);
      Rates->observeTransfer(S.Device->Index, S.TransferSeconds, S.BytesIn);
    }
  if (Note) {
    Note->Guard->observe(Note->Launch, Note->Work, Makespan);
    // Devices that share no hardware: the app's device's slice tells its time alone.
    for (const Slice &S : Slices)
      if (SeparateHardware && S.Device == Home && S.EndGroup > S.FirstGroup)
        Note->Guard->observeInferredWhole(Note->Work,
                                          S.KernelSeconds * static_cast<double>(Groups) /
                                              static_cast<double>(S.EndGroup - S.FirstGroup));
  }

  // Nothing asked for the totals or the trace: no record to build (KeyTrace's noise estimates
  // are the dearest part of a split launch's bookkeeping).
  if (!S.Recorder.wanted())
    return;
  LaunchRecord Rec = Base;
  Rec.Split = true;
  Rec.SplitDim = Dim;
  Rec.Purpose = purposeName(Proposal.Purpose);
  Rec.Merged = Merged;
  Rec.Combined = Combined;
  Rec.MakespanSeconds = Makespan;
  if (auto State = S.Balancer.trace(Key)) {
    Rec.BalancerState = std::string(State->State);
    Rec.Converged = State->Converged;
    Rec.Spread = State->LastSpread;
    Rec.Noise = State->NoiseEstimate;
    Rec.SpreadNoise = State->SpreadNoiseEstimate;
  }
  for (const Slice &S : Slices) {
    DeviceRecord D;
    D.Name = S.Device->Name;
    D.Share = S.Share;
    D.FirstGroup = S.FirstGroup;
    D.Groups = S.EndGroup - S.FirstGroup;
    D.KernelSeconds = S.KernelSeconds;
    D.TransferSeconds = S.TransferSeconds;
    D.BytesIn = S.BytesIn;
    D.BytesOut = S.BytesOut;
    D.EarlyGroups = S.EarlyGroups;
    Rec.Devices.push_back(D);
  }
  S.Recorder.record(Rec);
}

} // namespace libsplit
