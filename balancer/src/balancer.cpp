//===- balancer.cpp - Per-key states of every launch key -----------------===//
#include "libsplit/balancer/balancer.hpp"

#include "key_balancer.hpp"

#include <algorithm>

namespace libsplit::balancer {

Balancer::Balancer(BalancerConfig Config) : Config(std::move(Config)) {}
Balancer::~Balancer() = default;
Balancer::Balancer(Balancer &&) noexcept = default;
Balancer &Balancer::operator=(Balancer &&) noexcept = default;

Split Balancer::propose(const LaunchKey &Key, std::uint64_t NumGroups, std::size_t DeviceCount,
                        const std::vector<double> &FirstWeights, bool SeparateHardware) {
  ++Clock;
  auto It = Keys.find(Key);
  if (It != Keys.end() && (It->second.State->numGroups() != NumGroups ||
                           It->second.State->deviceCount() != DeviceCount)) {
    Keys.erase(It);
    It = Keys.end();
  }
  if (It == Keys.end()) {
    if (Keys.size() >= Config.MaxKeys && Config.MaxKeys > 0)
      evictLeastRecentlyUsed();
    auto Seed = Seeds.find(Key);
    const std::vector<double> *Warm = Seed == Seeds.end() ? nullptr : &Seed->second;
    Entry New;
    New.State = std::make_unique<KeyBalancer>(Config, DeviceCount, NumGroups, Warm,
                                              FirstWeights.empty() ? nullptr : &FirstWeights,
                                              SeparateHardware);
    It = Keys.emplace(Key, std::move(New)).first;
  }
  It->second.LastUse = Clock;
  return It->second.State->proposal();
}

bool Balancer::postponeProbe(const LaunchKey &Key, double Seconds) {
  auto It = Keys.find(Key);
  return It != Keys.end() && It->second.State->postponeProbe(Seconds);
}

ObserveStatus Balancer::observe(const LaunchKey &Key,
                                const std::vector<DeviceMeasurement> &Measurements,
                                bool ChosenByCaller) {
  auto It = Keys.find(Key);
  if (It == Keys.end())
    return ObserveStatus::UnknownKey;
  return It->second.State->observe(Measurements, ChosenByCaller);
}

std::optional<KeyTrace> Balancer::trace(const LaunchKey &Key) const {
  auto It = Keys.find(Key);
  if (It == Keys.end())
    return std::nullopt;
  return It->second.State->trace();
}

std::optional<KeyStatus> Balancer::status(const LaunchKey &Key) const {
  auto It = Keys.find(Key);
  if (It == Keys.end())
    return std::nullopt;
  return It->second.State->status();
}

bool Balancer::knows(const LaunchKey &Key) const {
  return Keys.count(Key) != 0 || Seeds.count(Key) != 0;
}

void Balancer::seed(const std::vector<WarmStartRecord> &Records) {
  for (const WarmStartRecord &Record : Records)
    Seeds[Record.Key] = Record.Shares;
}

std::vector<WarmStartRecord> Balancer::warmStartRecords() const {
  std::vector<WarmStartRecord> Records;
  for (const auto &[Key, Entry] : Keys) {
    WarmStartRecord Record;
    if (!Entry.State->heldShares(Record.Shares))
      continue;
    Record.Key = Key;
    Records.push_back(std::move(Record));
  }
  for (const auto &[Key, Shares] : Seeds)
    if (!Keys.count(Key))
      Records.push_back({Key, Shares});
  // Hash order would make the saved file differ from run to run for the same content.
  std::sort(Records.begin(), Records.end(), [](const WarmStartRecord &A, const WarmStartRecord &B) {
    return describe(A.Key) < describe(B.Key);
  });
  return Records;
}

void Balancer::evictLeastRecentlyUsed() {
  auto Oldest = std::min_element(Keys.begin(), Keys.end(), [](const auto &A, const auto &B) {
    return A.second.LastUse < B.second.LastUse;
  });
  if (Oldest != Keys.end())
    Keys.erase(Oldest);
}

} // namespace libsplit::balancer
