#include "libsplit/balancer/config.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::balancer;

TEST_CASE("each strategy name parses; empty means broyden", "[config]") {
  CHECK(parseBalancerConfig("uniform").Config.Kind == Strategy::Uniform);
  CHECK(parseBalancerConfig("fixedpoint").Config.Kind == Strategy::FixedPoint);
  CHECK(parseBalancerConfig("broyden").Config.Kind == Strategy::Broyden);
  CHECK(parseBalancerConfig(" broyden\n").ok());
  ParsedConfig Empty = parseBalancerConfig("");
  CHECK(Empty.ok());
  CHECK(Empty.Config.Kind == Strategy::Broyden);
  for (Strategy S : {Strategy::Uniform, Strategy::FixedPoint, Strategy::Broyden})
    CHECK(parseBalancerConfig(strategyName(S)).Config.Kind == S);
}

TEST_CASE("an unknown name is one line naming the variable and the accepted values", "[config]") {
  ParsedConfig P = parseBalancerConfig("broydn");
  CHECK_FALSE(P.ok());
  CHECK(
      P.Error ==
      "LIBSPLIT_BALANCER: unknown value 'broydn'; accepted: uniform, static, fixedpoint, broyden");
  CHECK(P.Error.find('\n') == std::string::npos);
  CHECK(parseBalancerConfig("Broyden").Error.find("unknown value 'Broyden'") != std::string::npos);
  CHECK(parseBalancerConfig("x", 0, "MY_VAR").Error.rfind("MY_VAR: ", 0) == 0);
}

TEST_CASE("static shares parse in device order", "[config]") {
  ParsedConfig P = parseBalancerConfig("static:0.6,0.3,0.1", 3);
  REQUIRE(P.ok());
  CHECK(P.Config.Kind == Strategy::Static);
  REQUIRE(P.Config.StaticShares.size() == 3);
  CHECK(P.Config.StaticShares[0] == 0.6);
  CHECK(P.Config.StaticShares[2] == 0.1);
  CHECK(parseBalancerConfig("static: 0.5 , 0.5 ", 2).ok());
  // Without a device count the count is left to the caller.
  CHECK(parseBalancerConfig("static:0.25,0.25,0.25,0.25").ok());
}

TEST_CASE("bad static shares say what is wrong", "[config]") {
  auto error = [](const char *Value, std::size_t Devices) {
    return parseBalancerConfig(Value, Devices).Error;
  };
  CHECK(error("static", 2) ==
        "LIBSPLIT_BALANCER: 'static' needs shares in device order, e.g. static:0.6,0.3,0.1");
  CHECK(error("static:", 2) == error("static", 2));
  CHECK(error("static:0.5,abc", 2) ==
        "LIBSPLIT_BALANCER: static: share 2 'abc' is not a number (in 'static:0.5,abc')");
  CHECK(error("static:0.5,,0.5", 3).find("share 2 '' is not a number") != std::string::npos);
  CHECK(error("static:0.5,0.5x", 2).find("share 2 '0.5x' is not a number") != std::string::npos);
  CHECK(error("static:0.6,0.4", 3) ==
        "LIBSPLIT_BALANCER: static: 2 shares given for 3 devices (in 'static:0.6,0.4')");
  CHECK(error("static:1.2,-0.2", 2) ==
        "LIBSPLIT_BALANCER: static: share 2 is negative (-0.2) (in 'static:1.2,-0.2')");
  CHECK(error("static:0.6,0.3", 2) ==
        "LIBSPLIT_BALANCER: static: shares sum to 0.9, not 1 (in 'static:0.6,0.3')");
  CHECK(error("static:inf,0", 2).find("is not a number") != std::string::npos);
}

TEST_CASE("the sum must be 1 within 1e-6", "[config]") {
  CHECK(parseBalancerConfig("static:0.5000005,0.5", 2).ok());
  CHECK_FALSE(parseBalancerConfig("static:0.500002,0.5", 2).ok());
}

TEST_CASE("names that take no argument refuse one", "[config]") {
  CHECK(parseBalancerConfig("broyden:0.5,0.5").Error ==
        "LIBSPLIT_BALANCER: 'broyden' takes no argument (in 'broyden:0.5,0.5')");
}

TEST_CASE("parseShares is usable on its own", "[config]") {
  std::vector<double> Shares;
  CHECK(parseShares("1", 1, Shares).empty());
  CHECK(Shares == std::vector<double>{1.0});
  CHECK(parseShares("", 1, Shares) == "no shares given");
}
