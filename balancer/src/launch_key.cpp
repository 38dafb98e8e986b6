//===- launch_key.cpp - Hashing and naming launch keys -------------------===//
#include "libsplit/balancer/launch_key.hpp"

#include <functional>

namespace libsplit::balancer {

static void mix(std::size_t &Seed, std::size_t Value) {
  // boost::hash_combine's constant: spreads small integers that differ in few bits.
  Seed ^= Value + 0x9e3779b97f4a7c15ULL + (Seed << 6) + (Seed >> 2);
}

std::size_t LaunchKeyHash::operator()(const LaunchKey &Key) const noexcept {
  std::size_t Seed = std::hash<std::string>()(Key.Kernel);
  mix(Seed, Key.WorkDim);
  mix(Seed, Key.SplitDim);
  for (std::uint64_t Size : Key.Global)
    mix(Seed, std::hash<std::uint64_t>()(Size));
  for (std::uint64_t Size : Key.Local)
    mix(Seed, std::hash<std::uint64_t>()(Size));
  return Seed;
}

static std::string sizes(const std::array<std::uint64_t, 3> &Sizes, std::uint32_t WorkDim) {
  std::string Text;
  for (std::uint32_t D = 0; D < WorkDim && D < 3; ++D) {
    if (D != 0)
      Text += 'x';
    Text += std::to_string(Sizes[D]);
  }
  return Text;
}

std::string describe(const LaunchKey &Key) {
  return Key.Kernel + "[" + sizes(Key.Global, Key.WorkDim) + "/" + sizes(Key.Local, Key.WorkDim) +
         "@" + std::to_string(Key.SplitDim) + "]";
}

} // namespace libsplit::balancer
