#include "libsplit/analysis/atomic_combine.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace libsplit::analysis {

namespace {

template <typename T> T load(const std::uint8_t *At) {
  T Value;
  std::memcpy(&Value, At, sizeof(T)); // devices' copies need not be aligned in host memory
  return Value;
}

template <typename T> void store(std::uint8_t *At, T Value) { std::memcpy(At, &Value, sizeof(T)); }

// One element. U is the unsigned type of the width (sums and bit operations wrap there), S its
// signed counterpart (for signed Min and Max).
template <typename U>
U combineElement(const Combine &How, U Snapshot, const U *Copies, std::size_t Count) {
  using S = std::make_signed_t<U>;
  U Out = Snapshot;
  switch (How.Op) {
  case CombineOp::Sum:
    for (std::size_t I = 0; I < Count; ++I)
      Out = static_cast<U>(Out + static_cast<U>(Copies[I] - Snapshot));
    break;
  case CombineOp::Min:
  case CombineOp::Max:
    for (std::size_t I = 0; I < Count; ++I) {
      const bool Less =
          How.Signed ? static_cast<S>(Copies[I]) < static_cast<S>(Out) : Copies[I] < Out;
      const bool Greater =
          How.Signed ? static_cast<S>(Copies[I]) > static_cast<S>(Out) : Copies[I] > Out;
      if (I == 0 || (How.Op == CombineOp::Min ? Less : Greater))
        Out = Copies[I];
    }
    break;
  case CombineOp::And:
    for (std::size_t I = 0; I < Count; ++I)
      Out = static_cast<U>(I == 0 ? Copies[I] : Out & Copies[I]);
    break;
  case CombineOp::Or:
    for (std::size_t I = 0; I < Count; ++I)
      Out = static_cast<U>(I == 0 ? Copies[I] : Out | Copies[I]);
    break;
  case CombineOp::Xor:
    for (std::size_t I = 0; I < Count; ++I)
      Out = static_cast<U>(Out ^ Copies[I] ^ Snapshot);
    break;
  }
  return Out;
}

template <typename U>
void combineAll(const Combine &How, std::uint8_t *Result,
                const std::vector<const std::uint8_t *> &Copies, std::size_t Bytes) {
  std::vector<U> Values(Copies.size());
  for (std::size_t At = 0; At + sizeof(U) <= Bytes; At += sizeof(U)) {
    for (std::size_t I = 0; I < Copies.size(); ++I)
      Values[I] = load<U>(Copies[I] + At);
    store<U>(Result + At,
             combineElement<U>(How, load<U>(Result + At), Values.data(), Values.size()));
  }
}

} // namespace

void combineCopies(const Combine &How, std::uint8_t *Result,
                   const std::vector<const std::uint8_t *> &Copies, std::size_t Bytes) {
  if (How.Width == 8)
    combineAll<std::uint64_t>(How, Result, Copies, Bytes);
  else
    combineAll<std::uint32_t>(How, Result, Copies, Bytes);
}

} // namespace libsplit::analysis
