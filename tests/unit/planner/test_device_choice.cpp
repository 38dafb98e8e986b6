// Which split devices a run opens by default: the app's kind where it has a peer of that kind.
#include "libsplit/planner/device_choice.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::planner;

namespace {
constexpr unsigned long Cpu = 2, Gpu = 4;
}

TEST_CASE("two GPUs and a CPU: the app's GPU and the other GPU open, the CPU does not",
          "[planner][devices]") {
  CHECK(openedByDefault({{Gpu, true}, {Gpu, false}, {Cpu, false}}) ==
        std::vector<bool>{true, true, false});
  CHECK(openedByDefault({{Cpu, false}, {Gpu, false}, {Gpu, true}}) ==
        std::vector<bool>{false, true, true});
}

TEST_CASE("one GPU and a CPU: both open (the CPU is the only other device)", "[planner][devices]") {
  CHECK(openedByDefault({{Gpu, true}, {Cpu, false}}) == std::vector<bool>{true, true});
}

TEST_CASE("an app on the CPU beside a GPU, and two CPU runtimes: every device opens",
          "[planner][devices]") {
  CHECK(openedByDefault({{Cpu, true}, {Gpu, false}}) == std::vector<bool>{true, true});
  CHECK(openedByDefault({{Cpu, false}, {Cpu, true}}) == std::vector<bool>{true, true});
  // The app on a CPU runtime with a second CPU runtime and a GPU: its peer is the other CPU
  // runtime, so the GPU is not opened by default.
  CHECK(openedByDefault({{Cpu, true}, {Cpu, false}, {Gpu, false}}) ==
        std::vector<bool>{true, true, false});
}

TEST_CASE("no app device among the split devices: every device opens", "[planner][devices]") {
  CHECK(openedByDefault({{Gpu, false}, {Cpu, false}}) == std::vector<bool>{true, true});
}
