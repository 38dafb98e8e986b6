#include "libsplit/planner/chunking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace libsplit::planner {

std::size_t nextChunkGroups(std::size_t Remaining, double Rate, double TotalRate,
                            const ChunkSettings &Settings, std::size_t MinGroups) {
  if (Remaining == 0)
    return 0;
  if (!(Rate > 0.0) || !(TotalRate > 0.0) || !std::isfinite(Rate) || !std::isfinite(TotalRate))
    return Remaining;
  const double Part = std::min(1.0, Rate / TotalRate);
  const double Guided =
      std::ceil(static_cast<double>(Remaining) * Part / std::max(1.0, Settings.Divisor));
  const double Floor = std::ceil(Settings.FloorSeconds * Rate);
  const double Groups = std::max({Guided, Floor, static_cast<double>(MinGroups), 1.0});
  return Groups >= static_cast<double>(Remaining) ? Remaining : static_cast<std::size_t>(Groups);
}

double restSecondsAtLeast(std::size_t Remaining, std::size_t ChunkGroups, double Elapsed) {
  if (ChunkGroups == 0 || !(Elapsed > 0.0))
    return 0.0;
  return static_cast<double>(Remaining) * Elapsed / static_cast<double>(ChunkGroups);
}

std::size_t saturatingGroups(std::size_t Resident, const std::vector<ChunkSample> &AppChunks) {
  if (AppChunks.size() < 2)
    return Resident;
  const ChunkSample &First = AppChunks[0], &Second = AppChunks[1];
  const double FirstGroups = static_cast<double>(First.End - First.First);
  const double SecondGroups = static_cast<double>(Second.End - Second.First);
  if (!(First.Seconds > 0.0) || !(FirstGroups > 0.0) || !(SecondGroups > FirstGroups))
    return Resident;
  const bool Throughput = Second.Seconds / First.Seconds >= 0.5 * SecondGroups / FirstGroups;
  return Throughput ? std::min(Resident, First.End - First.First) : Resident;
}

bool firstLaunchInChunks(double SecondsAhead, bool AppThreadWaits, const ChunkSettings &Settings) {
  if (!AppThreadWaits)
    return std::isfinite(SecondsAhead); // NaN (unknown) too: not in chunks
  return SecondsAhead <= Settings.MostSecondsAhead;
}

std::size_t firstChunkGroups(std::size_t Groups, const ChunkSettings &Settings) {
  return std::clamp<std::size_t>(Groups / std::max<std::size_t>(Settings.FirstChunkDivisor, 1), 1,
                                 std::max<std::size_t>(Groups, 1));
}

double residentItems(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup) {
  const double Units = static_cast<double>(std::max(ComputeUnits, 1u));
  return Gpu ? Units * 2048.0
             : Units * static_cast<double>(std::max<std::size_t>(ItemsPerGroup, 1));
}

std::size_t residentGroups(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup) {
  const double PerGroup = static_cast<double>(std::max<std::size_t>(ItemsPerGroup, 1));
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(
                                      residentItems(Gpu, ComputeUnits, ItemsPerGroup) / PerGroup)));
}

bool fillsDevice(bool Gpu, unsigned ComputeUnits, std::size_t ItemsPerGroup, double WorkItems) {
  // Any launch fills a CPU's cores well enough: a work-group per core.
  return !Gpu || WorkItems * 4.0 >= residentItems(Gpu, ComputeUnits, ItemsPerGroup);
}

ChunkCost ChunkCost::fit(const std::vector<ChunkSample> &Samples) {
  // Per-group time against the chunk's centre, weighted by the chunk's groups.
  double W = 0.0, Wx = 0.0, Wy = 0.0, Wxx = 0.0, Wxy = 0.0, Least = 0.0;
  for (const ChunkSample &C : Samples) {
    if (C.End <= C.First || !(C.Seconds > 0.0) || !std::isfinite(C.Seconds))
      continue;
    const double N = static_cast<double>(C.End - C.First);
    const double X = 0.5 * static_cast<double>(C.First + C.End);
    const double Y = C.Seconds / N;
    Least = W == 0.0 ? Y : std::min(Least, Y);
    W += N;
    Wx += N * X;
    Wy += N * Y;
    Wxx += N * X * X;
    Wxy += N * X * Y;
  }
  ChunkCost Cost;
  if (W == 0.0)
    return Cost;
  Cost.Known = true;
  Cost.Least = Least / 4.0;
  const double Spread = Wxx - Wx * Wx / W;
  // Chunks that all sit at one place say nothing of a slope.
  if (Spread > 1e-9 * std::max(1.0, Wxx)) {
    Cost.Slope = (Wxy - Wx * Wy / W) / Spread;
    Cost.Intercept = (Wy - Cost.Slope * Wx) / W;
  } else {
    Cost.Intercept = Wy / W;
  }
  return Cost;
}

double ChunkCost::perGroup(double Group) const {
  return std::max(Least, Intercept + Slope * Group);
}

double ChunkCost::seconds(std::size_t First, std::size_t End) const {
  if (!Known || End <= First)
    return 0.0;
  const double A = static_cast<double>(First), B = static_cast<double>(End);
  // The line, clamped from below at Least: split where it crosses Least.
  auto linear = [&](double From, double To) { return (To - From) * perGroup(0.5 * (From + To)); };
  if (Slope != 0.0) {
    const double Cross = (Least - Intercept) / Slope;
    if (Cross > A && Cross < B)
      return linear(A, Cross) + linear(Cross, B);
  }
  return linear(A, B);
}

std::size_t ChunkCost::groupsWithin(std::size_t Lo, std::size_t Hi, bool FromLow,
                                    double Seconds) const {
  if (Hi <= Lo)
    return 0;
  if (!Known || !(Seconds > 0.0))
    return 0;
  std::size_t Low = 0, High = Hi - Lo; // the answer lies in [Low, High]
  while (Low < High) {
    const std::size_t Mid = Low + (High - Low + 1) / 2;
    const double Took = FromLow ? seconds(Lo, Lo + Mid) : seconds(Hi - Mid, Hi);
    if (Took <= Seconds)
      Low = Mid;
    else
      High = Mid - 1;
  }
  return Low;
}

double finishTogetherSeconds(double Remaining, double Rate, const std::vector<ChunkPeer> &Others) {
  std::vector<std::pair<double, double>> Busy; // (busy for, rate) of peers that run
  for (const ChunkPeer &P : Others)
    if (P.Rate > 0.0 && std::isfinite(P.Rate))
      Busy.emplace_back(std::max(0.0, P.BusyFor), P.Rate);
  std::sort(Busy.begin(), Busy.end());
  // f(T) = Active * T - Offset between breakpoints; the first segment where its root lies
  // before the next peer frees up holds the answer.
  double Active = Rate > 0.0 && std::isfinite(Rate) ? Rate : 0.0, Offset = 0.0;
  for (const auto &[From, PeerRate] : Busy) {
    if (Active > 0.0 && (Remaining + Offset) / Active <= From)
      return (Remaining + Offset) / Active;
    Active += PeerRate;
    Offset += PeerRate * From;
  }
  return Active > 0.0 ? (Remaining + Offset) / Active : std::numeric_limits<double>::infinity();
}

namespace {

// chunkFor's guided chunk sized from when the devices would finish together.
std::size_t finishingChunk(const ChunkTaker &Taker, const ChunkRound &Round,
                           const ChunkSettings &Settings) {
  const double Rate = Taker.Rate;
  if (!(Rate > 0.0) || !std::isfinite(Rate))
    return Round.Remaining;
  const double Remaining = static_cast<double>(Round.Remaining);
  const double Until = finishTogetherSeconds(Remaining, Rate, Round.Others);
  if (!std::isfinite(Until))
    return Round.Remaining;
  double Share = Taker.Cost && Taker.Cost->known()
                     ? static_cast<double>(Taker.Cost->groupsWithin(
                           Round.Lo, Round.Lo + Round.Remaining, Taker.AppDevice, Until))
                     : Rate * Until;
  Share = std::clamp(Share, 1.0, Remaining);
  // Guided, no less than the device runs at once unless its whole share is less (its last).
  const double Full = static_cast<double>(std::max<std::size_t>(Taker.Resident, 1));
  double Chunk =
      std::max(std::ceil(Share / std::max(1.0, Settings.Divisor)), std::min(Share, Full));
  // A GPU runs a sliver of work-groups in about the time of its slowest work-item, as long as
  // a far larger chunk there: no chunk below an eighth of what it runs at once, and no such
  // remainder left behind.
  const double Sliver = std::floor(Full / 8.0);
  Chunk = std::max({Chunk, std::ceil(Settings.FloorSeconds * Rate), Sliver, 1.0});
  // Unless another device is free before this one would end its share: it takes the remainder
  // meanwhile. (Taken here, a triangular kernel's last work-groups, heavy ones, made one GPU end
  // long after the other had run out of work.)
  const bool Taken = std::any_of(Round.Others.begin(), Round.Others.end(),
                                 [Until](const ChunkPeer &P) { return P.BusyFor < Until; });
  if (Remaining - Chunk < Sliver && !Taken)
    Chunk = Remaining;
  return Chunk >= Remaining ? Round.Remaining : static_cast<std::size_t>(Chunk);
}

} // namespace

std::size_t chunkFor(const ChunkTaker &Taker, const ChunkRound &Round,
                     const ChunkSettings &Settings) {
  if (Round.Remaining == 0)
    return 0;
  if (Round.Forced)
    return Round.Active == 1 && !Round.MoreComing
               ? Round.Remaining
               : nextChunkGroups(Round.Remaining, Taker.Rate, Round.TotalRate, Settings);
  const bool Measuring = Taker.ChunksDone == 0 && (!Taker.AppDevice || !(Taker.Rate > 0.0));
  if (Measuring) {
    if (!Taker.SameTypeAsApp)
      return nextChunkGroups(Round.Remaining, Taker.Rate, std::numeric_limits<double>::max(),
                             Settings);
    const std::size_t First =
        std::max(firstChunkGroups(Round.Groups, Settings),
                 Taker.AppDevice ? std::max<std::size_t>(Taker.Resident / 4, 1)
                                 : std::max<std::size_t>(Taker.Resident, 1));
    return std::min(First, Round.Remaining);
  }
  if (Taker.Remeasure && Taker.FirstGroups > 0)
    return std::min(Taker.FirstGroups, Round.Remaining);
  if (Round.Active == 1 && !Round.MoreComing)
    return Round.Remaining;
  if (!Round.Others.empty())
    return finishingChunk(Taker, Round, Settings);
  return nextChunkGroups(Round.Remaining, Taker.Rate, Round.TotalRate, Settings,
                         std::max<std::size_t>(Taker.Resident, 1));
}

bool chunkPays(double ArriveSeconds, double ChunkSeconds, double OthersFinishSeconds) {
  return ArriveSeconds + ChunkSeconds < OthersFinishSeconds;
}

} // namespace libsplit::planner
