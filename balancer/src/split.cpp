//===- split.cpp - Largest-remainder rounding of shares ------------------===//
#include "libsplit/balancer/split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace libsplit::balancer {

Split roundShares(const std::vector<double> &Shares, std::uint64_t NumGroups) {
  std::size_t Count = Shares.size();
  Split Result;
  Result.Slices.resize(Count);
  Result.Shares.assign(Count, 0.0);
  if (Count == 0)
    return Result;

  double Total = 0.0;
  for (std::size_t I = 0; I < Count; ++I) {
    double Share = Shares[I];
    Result.Shares[I] = std::isfinite(Share) && Share > 0.0 ? Share : 0.0;
    Total += Result.Shares[I];
  }
  if (!(Total > 0.0) || !std::isfinite(Total)) {
    std::fill(Result.Shares.begin(), Result.Shares.end(), 1.0);
    Total = static_cast<double>(Count);
  }
  for (double &Share : Result.Shares)
    Share /= Total;

  std::vector<double> Remainders(Count);
  std::uint64_t Assigned = 0;
  for (std::size_t I = 0; I < Count; ++I) {
    double Exact = Result.Shares[I] * static_cast<double>(NumGroups);
    // Floating point can push a share of exactly 1 a hair above NumGroups.
    auto Whole = static_cast<std::uint64_t>(std::floor(Exact));
    Whole = std::min(Whole, NumGroups - Assigned);
    Result.Slices[I].Groups = Whole;
    Remainders[I] = Exact - static_cast<double>(Whole);
    Assigned += Whole;
  }

  std::vector<std::size_t> Order(Count);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](std::size_t A, std::size_t B) { return Remainders[A] > Remainders[B]; });
  // At most Count groups are left over, so one pass usually suffices; the loop guards the
  // pathological case where rounding left more than that.
  for (std::size_t K = 0; Assigned < NumGroups; K = (K + 1) % Count) {
    std::size_t I = Order[K];
    // A device with a zero share stays out unless every device has one.
    if (Result.Shares[I] == 0.0)
      continue;
    ++Result.Slices[I].Groups;
    ++Assigned;
  }

  std::uint64_t Offset = 0;
  for (DeviceSlice &Slice : Result.Slices) {
    Slice.FirstGroup = Offset;
    Offset += Slice.Groups;
  }
  return Result;
}

std::vector<double> weightsByKind(const std::vector<unsigned long> &Kinds, unsigned long AppKind) {
  std::vector<double> Weights;
  bool AnyLike = false;
  for (unsigned long Kind : Kinds) {
    const bool Like = (Kind & AppKind) != 0;
    AnyLike = AnyLike || Like;
    Weights.push_back(Like ? 1.0 : UnlikeWeight);
  }
  if (!AnyLike)
    Weights.assign(Kinds.size(), 1.0);
  return Weights;
}

} // namespace libsplit::balancer
