// What a kernel's split launches leave for the next ones (interpose/src/launch/slice_history.hpp):
// the shares a new NDRange size starts from, the rate its bytes are priced at.
#include "slice_history.hpp"

#include <catch2/catch.hpp>

using namespace libsplit;

TEST_CASE("a new NDRange size starts from shares inverse to the devices' seconds per work-group") {
  SliceHistory History;
  CHECK_FALSE(History.shares({0, 1}).has_value()); // nothing measured
  History.observe(0, 10e-3, 100);                  // 100 us a work-group
  CHECK_FALSE(History.shares({0, 1}).has_value()); // device 1 not measured yet
  History.observe(1, 10e-3, 300);                  // three times as fast
  const auto Shares = History.shares({0, 1});
  REQUIRE(Shares.has_value());
  CHECK((*Shares)[0] == Approx(0.25));
  CHECK((*Shares)[1] == Approx(0.75));
  // In the order asked for.
  CHECK((*History.shares({1, 0}))[0] == Approx(0.75));
  // A slice without work-groups or time tells nothing.
  History.observe(0, 0.0, 100);
  History.observe(0, 1.0, 0);
  CHECK((*History.shares({0, 1}))[0] == Approx(0.25));
}

TEST_CASE("bytes are priced at the slowest measured fetch rate of the devices, else the default") {
  SliceHistory History;
  CHECK(History.linkBytesPerSecond({0, 1}, 8e9) == 8e9);
  for (int I = 0; I < 3; ++I) {
    History.observeTransfer(0, 100e-6, 1 << 20); // about 10 GB/s
    History.observeTransfer(1, 1e-3, 1 << 20);   // about 1 GB/s
  }
  CHECK(History.linkBytesPerSecond({0}, 8e9) == 8e9); // faster than the default: the default
  CHECK(History.linkBytesPerSecond({0, 1}, 8e9) == Approx((1 << 20) / 1e-3));
}
