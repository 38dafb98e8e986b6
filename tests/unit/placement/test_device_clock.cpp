#include "device_clock.hpp"

#include <catch2/catch.hpp>

using libsplit::HostSpan;
using libsplit::onHostClock;

TEST_CASE("a device's profiling times on the host's clock") {
  // The device's clock runs from another origin: 1e15 ns where the host reads 5e12.
  const std::uint64_t Enqueued = 5'000'000'000'000, Queued = 1'000'000'000'000'000;
  const HostSpan S = onHostClock(Enqueued, Queued, Queued + 40'000, Queued + 340'000, 0);
  CHECK(S.Start == Enqueued + 40'000); // started 40 us after its enqueueing, as the device says
  CHECK(S.End - S.Start == 300'000);   // the device's own duration
}

TEST_CASE("a device's start never before what the host saw of the command") {
  // The enqueue call took longer than the device's queueing stamp suggests: the shifted start
  // falls before the command's submission on the host, which bounds it; the duration stays.
  const HostSpan S = onHostClock(1'000, 500, 510, 1'510, 2'000);
  CHECK(S.Start == 2'000);
  CHECK(S.End == 3'000);
}

TEST_CASE("a device's end before its start gives no duration") {
  const HostSpan S = onHostClock(1'000, 1'000, 1'200, 1'100, 0);
  CHECK(S.Start == 1'200);
  CHECK(S.End == 1'200);
}
