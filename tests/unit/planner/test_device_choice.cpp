// Which split devices a run opens by default: the app's kind where it has a peer of that kind.
#include "libsplit/planner/device_choice.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

namespace {
constexpr unsigned long Cpu = 2, Gpu = 4;
const DeviceKind AppGpu{Gpu, true, false}, OtherGpu{Gpu, false, false};
const DeviceKind AppCpu{Cpu, true, true}, OtherCpu{Cpu, false, true};
} // namespace

TEST_CASE("two GPUs and a CPU: the app's GPU and the other GPU open, the CPU does not",
          "[planner][devices]") {
  CHECK(openedByDefault({AppGpu, OtherGpu, OtherCpu}) == std::vector<bool>{true, true, false});
  CHECK(openedByDefault({OtherCpu, OtherGpu, AppGpu}) == std::vector<bool>{false, true, true});
}

TEST_CASE("one GPU and a CPU: both open (the CPU is the only other device)", "[planner][devices]") {
  CHECK(openedByDefault({AppGpu, OtherCpu}) == std::vector<bool>{true, true});
}

TEST_CASE("an app on the CPU: every device opens", "[planner][devices]") {
  CHECK(openedByDefault({AppCpu, OtherGpu}) == std::vector<bool>{true, true});
  CHECK(openedByDefault({OtherCpu, AppCpu}) == std::vector<bool>{true, true});
  // Beside a second CPU runtime (on the same cores) and a GPU: the GPU is what can help it.
  CHECK(openedByDefault({AppCpu, OtherCpu, OtherGpu}) == std::vector<bool>{true, true, true});
}

TEST_CASE("no app device among the split devices: every device opens", "[planner][devices]") {
  CHECK(openedByDefault({OtherGpu, OtherCpu}) == std::vector<bool>{true, true});
}

TEST_CASE("a platform of two GPUs suffices: the other platforms' devices are not asked for",
          "[planner][devices]") {
  CHECK(platformSuffices({OtherGpu, OtherGpu}));
  CHECK(platformSuffices({OtherGpu, OtherGpu, OtherGpu, OtherGpu}));
}

TEST_CASE("a platform with a device without a peer, or on the host's cores, does not suffice",
          "[planner][devices]") {
  // One GPU: the CPU of another platform opens beside it.
  CHECK_FALSE(platformSuffices({OtherGpu}));
  // Two GPUs and a CPU there: an app on the CPU opens every device, other platforms' too.
  CHECK_FALSE(platformSuffices({OtherGpu, OtherGpu, OtherCpu}));
  // Two CPU devices (PoCL's basic and pthread): an app on either opens every device.
  CHECK_FALSE(platformSuffices({OtherCpu, OtherCpu}));
  CHECK_FALSE(platformSuffices({}));
}
