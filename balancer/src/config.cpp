//===- config.cpp - Parsing LIBSPLIT_BALANCER ----------------------------===//
#include "libsplit/balancer/config.hpp"

#include <charconv>
#include <cmath>

namespace libsplit::balancer {

std::string_view strategyName(Strategy S) {
  switch (S) {
  case Strategy::Uniform:
    return "uniform";
  case Strategy::Static:
    return "static";
  case Strategy::FixedPoint:
    return "fixedpoint";
  case Strategy::Broyden:
    return "broyden";
  }
  return "?";
}

static std::string_view trim(std::string_view Text) {
  const char *Blanks = " \t\r\n";
  std::size_t Begin = Text.find_first_not_of(Blanks);
  if (Begin == std::string_view::npos)
    return {};
  std::size_t End = Text.find_last_not_of(Blanks);
  return Text.substr(Begin, End - Begin + 1);
}

// Six significant digits, independent of the locale the application may have set.
static std::string number(double Value) {
  char Buffer[64];
  auto [End, Ec] =
      std::to_chars(Buffer, Buffer + sizeof(Buffer), Value, std::chars_format::general, 6);
  if (Ec != std::errc())
    return "?";
  return std::string(Buffer, End);
}

std::string parseShares(std::string_view Text, std::size_t DeviceCount,
                        std::vector<double> &Shares) {
  Shares.clear();
  Text = trim(Text);
  if (Text.empty())
    return "no shares given";
  std::size_t Position = 0;
  while (true) {
    std::size_t Comma = Text.find(',', Position);
    std::string_view Field = trim(Text.substr(
        Position, Comma == std::string_view::npos ? std::string_view::npos : Comma - Position));
    std::size_t Index = Shares.size() + 1;
    double Value = 0.0;
    // from_chars, unlike strtod, ignores the locale the application may have set.
    auto [End, Ec] = std::from_chars(Field.data(), Field.data() + Field.size(), Value);
    if (Field.empty() || Ec != std::errc() || End != Field.data() + Field.size() ||
        !std::isfinite(Value))
      return "share " + std::to_string(Index) + " '" + std::string(Field) + "' is not a number";
    if (Value < 0.0)
      return "share " + std::to_string(Index) + " is negative (" + std::string(Field) + ")";
    Shares.push_back(Value);
    if (Comma == std::string_view::npos)
      break;
    Position = Comma + 1;
  }
  if (DeviceCount != 0 && Shares.size() != DeviceCount)
    return std::to_string(Shares.size()) + " shares given for " + std::to_string(DeviceCount) +
           " devices";
  double Sum = 0.0;
  for (double Share : Shares)
    Sum += Share;
  if (std::fabs(Sum - 1.0) > 1e-6)
    return "shares sum to " + number(Sum) + ", not 1";
  return {};
}

ParsedConfig parseBalancerConfig(std::string_view Value, std::size_t DeviceCount,
                                 std::string_view VariableName) {
  ParsedConfig Result;
  std::string Prefix = std::string(VariableName) + ": ";
  std::string_view Text = trim(Value);
  std::string_view Name = Text.substr(0, Text.find(':'));
  bool HasArgument = Name.size() != Text.size();

  if (Name == "static") {
    if (!HasArgument || trim(Text.substr(Name.size() + 1)).empty()) {
      Result.Error = Prefix + "'static' needs shares in device order, e.g. static:0.6,0.3,0.1";
      return Result;
    }
    std::string Problem =
        parseShares(Text.substr(Name.size() + 1), DeviceCount, Result.Config.StaticShares);
    if (!Problem.empty())
      Result.Error = Prefix + "static: " + Problem + " (in '" + std::string(Text) + "')";
    Result.Config.Kind = Strategy::Static;
    return Result;
  }

  Strategy Kinds[] = {Strategy::Uniform, Strategy::FixedPoint, Strategy::Broyden};
  for (Strategy Kind : Kinds) {
    if (Name != strategyName(Kind) && !(Text.empty() && Kind == Strategy::Broyden))
      continue;
    if (HasArgument) {
      Result.Error =
          Prefix + "'" + std::string(Name) + "' takes no argument (in '" + std::string(Text) + "')";
      return Result;
    }
    Result.Config.Kind = Kind;
    return Result;
  }
  Result.Error = Prefix + "unknown value '" + std::string(Text) +
                 "'; accepted: uniform, static, fixedpoint, broyden";
  return Result;
}

} // namespace libsplit::balancer
