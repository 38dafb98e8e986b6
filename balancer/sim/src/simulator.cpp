//===- simulator.cpp - Simulated devices for exercising the balancer -----===//
#include "libsplit/balancer/sim/simulator.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <random>

namespace libsplit::balancer::sim {

static double deviceTime(const SimDevice &D, std::uint64_t Groups, std::uint64_t First,
                         std::uint64_t Launch) {
  if (Groups == 0)
    return 0.0;
  double Time = D.Kernel(Groups, First, Launch);
  if (D.Transfer)
    Time += D.Transfer(Groups, First, Launch);
  return Time;
}

double makespan(const Scenario &S, const std::vector<std::uint64_t> &Groups, std::uint64_t Launch) {
  double Worst = 0.0;
  std::uint64_t First = 0;
  for (std::size_t I = 0; I < S.Devices.size(); ++I) {
    Worst = std::max(Worst, deviceTime(S.Devices[I], Groups[I], First, Launch));
    First += Groups[I];
  }
  return Worst;
}

Optimum optimumExhaustive(const Scenario &S, std::uint64_t Launch) {
  std::uint64_t N = S.NumGroups;
  std::size_t Count = S.Devices.size();
  Optimum Best;
  Best.Makespan = std::numeric_limits<double>::infinity();
  std::vector<std::uint64_t> Groups(Count, 0);
  auto consider = [&] {
    double Time = makespan(S, Groups, Launch);
    if (Time < Best.Makespan) {
      Best.Makespan = Time;
      Best.Groups = Groups;
    }
  };
  if (Count > 3)
    return optimumByBisection(S, Launch);
  if (Count == 1) {
    Groups[0] = N;
    consider();
  } else if (Count == 2) {
    for (std::uint64_t A = 0; A <= N; ++A) {
      Groups = {A, N - A};
      consider();
    }
  } else {
    for (std::uint64_t A = 0; A <= N; ++A)
      for (std::uint64_t B = 0; A + B <= N; ++B) {
        Groups = {A, B, N - A - B};
        consider();
      }
  }
  return Best;
}

// Most groups device I can run from First within Limit seconds (times grow with groups).
static std::uint64_t fill(const Scenario &S, std::size_t I, std::uint64_t First, std::uint64_t Left,
                          double Limit, std::uint64_t Launch) {
  std::uint64_t Low = 0;
  std::uint64_t High = Left;
  while (Low < High) {
    std::uint64_t Mid = Low + (High - Low + 1) / 2;
    if (deviceTime(S.Devices[I], Mid, First, Launch) <= Limit)
      Low = Mid;
    else
      High = Mid - 1;
  }
  return Low;
}

Optimum optimumByBisection(const Scenario &S, std::uint64_t Launch) {
  std::vector<std::uint64_t> Groups(S.Devices.size(), 0);
  auto feasible = [&](double Limit) {
    std::uint64_t First = 0;
    for (std::size_t I = 0; I < S.Devices.size(); ++I) {
      Groups[I] = fill(S, I, First, S.NumGroups - First, Limit, Launch);
      First += Groups[I];
    }
    return First == S.NumGroups;
  };
  double Low = 0.0;
  double High = bestSingle(S, Launch).Makespan;
  for (int Step = 0; Step < 60; ++Step) {
    double Mid = 0.5 * (Low + High);
    (feasible(Mid) ? High : Low) = Mid;
  }
  feasible(High);
  return {makespan(S, Groups, Launch), Groups};
}

Optimum optimum(const Scenario &S, std::uint64_t Launch) {
  return S.Devices.size() <= 3 ? optimumExhaustive(S, Launch) : optimumByBisection(S, Launch);
}

Optimum bestSingle(const Scenario &S, std::uint64_t Launch) {
  Optimum Best;
  Best.Makespan = std::numeric_limits<double>::infinity();
  for (std::size_t I = 0; I < S.Devices.size(); ++I) {
    std::vector<std::uint64_t> Groups(S.Devices.size(), 0);
    Groups[I] = S.NumGroups;
    double Time = makespan(S, Groups, Launch);
    if (Time < Best.Makespan)
      Best = {Time, Groups};
  }
  return Best;
}

double aloneMakespan(const Scenario &S, std::size_t Device, std::uint64_t Launch) {
  std::vector<std::uint64_t> Groups(S.Devices.size(), 0);
  Groups[Device] = S.NumGroups;
  return makespan(S, Groups, Launch);
}

double idealMakespan(const Scenario &S, std::uint64_t Launch) {
  double Rate = 0.0;
  for (std::size_t I = 0; I < S.Devices.size(); ++I)
    Rate += 1.0 / aloneMakespan(S, I, Launch);
  return 1.0 / Rate;
}

static std::uint64_t missingGroups(const std::vector<std::vector<bool>> &Holds, const Split &P) {
  std::uint64_t Missing = 0;
  for (std::size_t I = 0; I < P.Slices.size() && I < Holds.size(); ++I)
    for (std::uint64_t G = P.Slices[I].FirstGroup;
         G < P.Slices[I].FirstGroup + P.Slices[I].Groups && G < Holds[I].size(); ++G)
      Missing += !Holds[I][G];
  return Missing;
}

double probePrice(const Scenario &S, const std::vector<std::vector<bool>> &Holds,
                  const Split &Probe, const Split &Held) {
  const double Probed = static_cast<double>(missingGroups(Holds, Probe));
  const double Kept = static_cast<double>(missingGroups(Holds, Held));
  return 2.0 * std::max(0.0, Probed - Kept) * S.MigrationPerGroup;
}

Run simulate(const Scenario &S, Balancer &B, unsigned Launches) {
  Run R;
  std::mt19937 Random(S.Seed);
  std::uniform_real_distribution<double> Noise(-S.Noise, S.Noise);
  std::uniform_real_distribution<double> Unit01(0.0, 1.0);
  LaunchKey Key;
  Key.Kernel = "sim." + S.Name;
  Key.Global = {S.NumGroups, 1, 1};
  std::optional<Optimum> Best;
  std::optional<Optimum> Single;
  // Holds[device][group]: the device has the group's data (see Scenario::MigrationPerGroup).
  std::vector<std::vector<bool>> Holds(
      S.Devices.size(), std::vector<bool>(S.MigrationPerGroup > 0.0 ? S.NumGroups : 0, false));
  for (unsigned L = 0; L < Launches; ++L) {
    Split P = B.propose(Key, S.NumGroups, S.Devices.size(), S.FirstWeights, S.SeparateHardware);
    if (S.PriceProbes && S.MigrationPerGroup > 0.0 && P.Purpose != LaunchPurpose::Balance) {
      const Split Held = roundShares(B.trace(Key)->Shares, S.NumGroups);
      if (B.postponeProbe(Key, probePrice(S, Holds, P, Held)))
        P = B.propose(Key, S.NumGroups, S.Devices.size(), S.FirstWeights, S.SeparateHardware);
    }
    LaunchRecord Record;
    Record.Launch = L;
    Record.Purpose = P.Purpose;
    Record.State = std::string(B.trace(Key)->State);
    std::uint64_t Next = 0;
    std::vector<DeviceMeasurement> Measured(S.Devices.size());
    // Drawn only when asked for, so that the other scenarios keep their sequences.
    double Shared = S.SharedNoise > 0.0 ? 1.0 + S.SharedNoise * (2.0 * Unit01(Random) - 1.0) : 1.0;
    for (std::size_t I = 0; I < S.Devices.size(); ++I) {
      const DeviceSlice &Slice = P.Slices[I];
      R.SlicesContiguous = R.SlicesContiguous && Slice.FirstGroup == Next;
      Next += Slice.Groups;
      Record.Groups.push_back(Slice.Groups);
      // Drawn for every device every launch, so the noise does not depend on the split.
      double Factor = Shared * (1.0 + Noise(Random));
      DeviceMeasurement &M = Measured[I];
      M.Groups = Slice.Groups;
      M.FirstGroup = Slice.FirstGroup;
      if (Slice.Groups == 0)
        continue;
      M.KernelSeconds = Factor * S.Devices[I].Kernel(Slice.Groups, Slice.FirstGroup, L);
      if (S.Devices[I].Transfer)
        M.TransferSeconds = Factor * S.Devices[I].Transfer(Slice.Groups, Slice.FirstGroup, L);
      if (S.MigrationPerGroup > 0.0) {
        std::uint64_t Missing = 0;
        for (std::uint64_t G = Slice.FirstGroup; G < Slice.FirstGroup + Slice.Groups; ++G) {
          Missing += !Holds[I][G];
          Holds[I][G] = true;
          if (S.WritesMoveData)
            for (std::size_t J = 0; J < S.Devices.size(); ++J)
              Holds[J][G] = J == I;
        }
        M.TransferSeconds += Factor * static_cast<double>(Missing) * S.MigrationPerGroup;
      }
      // As if over an 8 GB/s link: only the trace looks at bytes.
      M.BytesMoved = static_cast<std::uint64_t>(M.TransferSeconds * 8e9);
      Record.MeasuredMakespan = std::max(Record.MeasuredMakespan, M.seconds());
    }
    R.GroupsAlwaysSummed = R.GroupsAlwaysSummed && Next == S.NumGroups;
    B.observe(Key, Measured);
    if (!Best || S.TimeVarying) {
      Best = optimum(S, L);
      Single = bestSingle(S, L);
    }
    Record.TrueMakespan = makespan(S, Record.Groups, L);
    Record.OptimalMakespan = Best->Makespan;
    Record.SingleMakespan = Single->Makespan;
    R.Launches.push_back(std::move(Record));
  }
  return R;
}

static bool within(const LaunchRecord &Record, double Tolerance) {
  return Record.TrueMakespan <= (1.0 + Tolerance) * Record.OptimalMakespan;
}

std::optional<unsigned> launchesToConverge(const Run &R, double Tolerance, unsigned Hold,
                                           unsigned From) {
  const std::vector<LaunchRecord> &Ls = R.Launches;
  for (std::size_t Start = From; Start < Ls.size(); ++Start) {
    if (Ls[Start].Purpose != LaunchPurpose::Balance || !within(Ls[Start], Tolerance))
      continue;
    unsigned Seen = 0;
    bool Stays = true;
    for (std::size_t K = Start + 1; K < Ls.size() && Seen < Hold; ++K) {
      if (Ls[K].Purpose != LaunchPurpose::Balance)
        continue;
      ++Seen;
      Stays = Stays && within(Ls[K], Tolerance);
    }
    if (Stays)
      return static_cast<unsigned>(Start + 1);
  }
  return std::nullopt;
}

unsigned splitChanges(const Run &R, unsigned From, unsigned To) {
  unsigned Changes = 0;
  const std::vector<std::uint64_t> *Previous = nullptr;
  for (std::size_t K = 0; K < R.Launches.size() && K < To; ++K) {
    const LaunchRecord &Record = R.Launches[K];
    if (Record.Purpose != LaunchPurpose::Balance)
      continue;
    if (K >= From && Previous && *Previous != Record.Groups)
      ++Changes;
    Previous = &Record.Groups;
  }
  return Changes;
}

unsigned probes(const Run &R, unsigned From, unsigned To) {
  unsigned Count = 0;
  for (std::size_t K = From; K < R.Launches.size() && K < To; ++K)
    Count += R.Launches[K].Purpose != LaunchPurpose::Balance;
  return Count;
}

template <typename Reference>
static double meanRatio(const Run &R, unsigned From, unsigned To, Reference Of) {
  double Sum = 0.0;
  unsigned Count = 0;
  for (std::size_t K = From; K < R.Launches.size() && K < To; ++K) {
    Sum += R.Launches[K].TrueMakespan / Of(R.Launches[K]);
    ++Count;
  }
  return Count ? Sum / Count : 0.0;
}

double meanOverOptimum(const Run &R, unsigned From, unsigned To) {
  return meanRatio(R, From, To, [](const LaunchRecord &L) { return L.OptimalMakespan; });
}

double meanOverSingle(const Run &R, unsigned From, unsigned To) {
  return meanRatio(R, From, To, [](const LaunchRecord &L) { return L.SingleMakespan; });
}

ScalingFigures scalingFigures(const Scenario &S, const Run &R, std::size_t Reference, unsigned From,
                              unsigned To, double Tolerance) {
  double ReferenceSum = 0.0;
  double IdealSum = 0.0;
  double MakespanSum = 0.0;
  double OverIdealSum = 0.0;
  unsigned Within = 0;
  unsigned Count = 0;
  for (std::size_t K = From; K < R.Launches.size() && K < To; ++K) {
    const LaunchRecord &Record = R.Launches[K];
    double Ideal = idealMakespan(S, Record.Launch);
    ReferenceSum += aloneMakespan(S, Reference, Record.Launch);
    IdealSum += Ideal;
    MakespanSum += Record.TrueMakespan;
    OverIdealSum += Record.TrueMakespan / Ideal;
    Within += within(Record, Tolerance);
    ++Count;
  }
  ScalingFigures Figures;
  if (Count == 0)
    return Figures;
  Figures.MeanOverIdeal = OverIdealSum / Count;
  Figures.Speedup = ReferenceSum / MakespanSum;
  Figures.Capacity = ReferenceSum / IdealSum;
  Figures.Efficiency = Figures.Speedup / Figures.Capacity;
  Figures.WithinTolerance = static_cast<double>(Within) / Count;
  return Figures;
}

} // namespace libsplit::balancer::sim
