//===- config.hpp - Which balancing strategy, with which parameters ------===//
//
// The runtime's controls table parses LIBSPLIT_BALANCER and LIBSPLIT_STATIC (the one parser of
// both) and fills Kind and StaticShares; every other field keeps its default unless the table
// sets it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace libsplit::balancer {

enum class Strategy {
  Uniform,    // the same number of work-groups per device, never changed
  Static,     // the user's shares, never changed
  FixedPoint, // x <- F(x)
  Broyden,    // Broyden's method on G(x) = x - F(x)
};

std::string_view strategyName(Strategy S);

struct BalancerConfig {
  Strategy Kind = Strategy::Broyden;
  std::vector<double> StaticShares; // Static only: one per device, sum 1

  // Stop rule with hysteresis, on the spread (max - min) / mean of the busy devices' times:
  // stop changing the split below StopSpread; resume once the spread stays above ResumeSpread
  // for ResumeLaunches launches in a row, the same device being the slowest. Both widen with
  // the measured noise.
  double StopSpread = 0.05;
  double ResumeSpread = 0.10;
  unsigned ResumeLaunches = 2;
  // The stop threshold is at least NoiseWidth times the measured noise (relative standard
  // deviation of a device's time); the resume threshold keeps its ratio to the stop threshold.
  double NoiseWidth = 2.0;
  // While holding, a split whose mean times differ by more than StopSpread with this many
  // standard errors of confidence gets one correcting step: the slow path that fixes small
  // imbalances hidden in the noise. Tested when the held launches reach RefineMinLaunches,
  // then 2, 4... times as many up to RefineMaxLaunches, where the means start over: a device
  // that turns slower for good while held is then seen within twice RefineMaxLaunches
  // launches, however long the split was held before.
  unsigned RefineMinLaunches = 8;
  unsigned RefineMaxLaunches = 64;
  double Confidence = 2.5;

  // Damping against ping-pong (STEPOCL's 1/Q): a share's step is divided by Q, and Q grows
  // when the share reverses direction with a step not smaller than PingPongRatio times the
  // previous one (a converging oscillation shrinks faster than that and is left alone).
  double PingPongRatio = 0.5;
  // The search gives up after this many steps and holds the best split it measured.
  unsigned MaxSearchSteps = 32;

  // A device whose share falls below DropShare is dropped (it only slows the others down).
  double DropShare = 0.005;
  // Dropped devices are probed with at most ProbeShare of the groups, first after
  // ProbeInterval launches, the interval doubling after every probe that did not pay, up to
  // MaxProbeInterval. A probe brings the device back when the model predicts the split with it
  // is at least ProbeGain faster.
  unsigned ProbeInterval = 16;
  unsigned MaxProbeInterval = 512;
  double ProbeShare = 0.05;
  double ProbeGain = 0.05;
  // What a probe that did not pay cost beyond the held makespan (its launch and the next one,
  // which brings the probed slice's data back), spread over the launches until the next probe of
  // that device, stays under ProbeBudget of their time: the interval grows past
  // MaxProbeInterval when it must (a memory-bound kernel on a GPU, a CPU hundreds of times
  // slower, the probe's data crossing twice).
  double ProbeBudget = 0.01;
  // Splitting must beat the best single device by SplitGain, else the balancer runs on that
  // device alone. The single-device option is measured by a probe launch some launches after
  // each convergence, then again at doubling intervals while the split keeps winning.
  double SplitGain = 0.01;

  // Keys beyond this many: the least recently used key's state is forgotten.
  std::size_t MaxKeys = 4096;
};

} // namespace libsplit::balancer
