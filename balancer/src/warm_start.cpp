//===- warm_start.cpp - Converged shares saved across runs ---------------===//
#include "libsplit/balancer/warm_start.hpp"

#include "libsplit/support/text.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <locale>
#include <sstream>
#include <system_error>

namespace libsplit::balancer {

static constexpr std::string_view Magic = "libsplit-balancer-warm-start 1";

static bool mustEscape(char C) {
  return C == '%' || C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == ',';
}

static std::string escape(std::string_view Text) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Out = "=";
  for (char C : Text) {
    if (!mustEscape(C)) {
      Out += C;
      continue;
    }
    auto Byte = static_cast<unsigned char>(C);
    Out += '%';
    Out += Hex[Byte >> 4];
    Out += Hex[Byte & 15];
  }
  return Out;
}

static bool unescape(std::string_view Field, std::string &Out) {
  if (Field.empty() || Field.front() != '=')
    return false;
  Out.clear();
  for (std::size_t I = 1; I < Field.size(); ++I) {
    if (Field[I] != '%') {
      Out += Field[I];
      continue;
    }
    unsigned Byte = 0;
    if (I + 2 >= Field.size())
      return false;
    auto [End, Ec] = std::from_chars(Field.data() + I + 1, Field.data() + I + 3, Byte, 16);
    if (Ec != std::errc() || End != Field.data() + I + 3)
      return false;
    Out += static_cast<char>(Byte);
    I += 2;
  }
  return true;
}

static std::string triple(const std::array<std::uint64_t, 3> &Values) {
  return std::to_string(Values[0]) + "," + std::to_string(Values[1]) + "," +
         std::to_string(Values[2]);
}

std::string formatWarmStart(std::string_view DeviceSignature,
                            const std::vector<WarmStartRecord> &Records) {
  std::string Text = std::string(Magic) + "\ndevices " + escape(DeviceSignature) + "\n";
  for (const WarmStartRecord &R : Records) {
    const LaunchKey &K = R.Key;
    Text += "key " + escape(K.Kernel) + " " + std::to_string(K.WorkDim) + " " + triple(K.Global) +
            " " + triple(K.Local) + " " + std::to_string(K.SplitDim) + " ";
    for (std::size_t I = 0; I < R.Shares.size(); ++I)
      Text += (I ? "," : "") + support::formatNumber(R.Shares[I]);
    Text += "\n";
  }
  return Text;
}

static std::vector<std::string_view> split(std::string_view Text, char Separator) {
  std::vector<std::string_view> Parts;
  std::size_t Start = 0;
  while (true) {
    std::size_t At = Text.find(Separator, Start);
    Parts.push_back(Text.substr(Start, At == std::string_view::npos ? At : At - Start));
    if (At == std::string_view::npos)
      return Parts;
    Start = At + 1;
  }
}

template <typename T> static bool parseWhole(std::string_view Text, T &Value) {
  auto [End, Ec] = std::from_chars(Text.data(), Text.data() + Text.size(), Value);
  return !Text.empty() && Ec == std::errc() && End == Text.data() + Text.size();
}

static bool parseTriple(std::string_view Text, std::array<std::uint64_t, 3> &Values) {
  std::vector<std::string_view> Parts = split(Text, ',');
  if (Parts.size() != 3)
    return false;
  for (std::size_t I = 0; I < 3; ++I)
    if (!parseWhole(Parts[I], Values[I]) || Values[I] == 0)
      return false;
  return true;
}

// Returns an error message, empty when the line is a valid record.
static std::string parseRecord(std::string_view Line, WarmStartRecord &Record) {
  std::vector<std::string_view> Fields = split(Line, ' ');
  if (Fields.size() != 7 || Fields[0] != "key")
    return "expected 'key <kernel> <workdim> <global> <local> <splitdim> <shares>'";
  LaunchKey &K = Record.Key;
  if (!unescape(Fields[1], K.Kernel))
    return "bad kernel name";
  if (!parseWhole(Fields[2], K.WorkDim) || K.WorkDim < 1 || K.WorkDim > 3)
    return "work dimension must be 1, 2 or 3";
  if (!parseTriple(Fields[3], K.Global) || !parseTriple(Fields[4], K.Local))
    return "sizes must be three positive integers";
  if (!parseWhole(Fields[5], K.SplitDim) || K.SplitDim >= K.WorkDim)
    return "split dimension out of range";
  Record.Shares.clear();
  double Sum = 0.0;
  for (std::string_view Part : split(Fields[6], ',')) {
    double Share = 0.0;
    if (!parseWhole(Part, Share) || !std::isfinite(Share) || Share < 0.0)
      return "shares must be non-negative numbers";
    Record.Shares.push_back(Share);
    Sum += Share;
  }
  if (std::fabs(Sum - 1.0) > 1e-6)
    return "shares do not sum to 1";
  return {};
}

WarmStartLoad parseWarmStart(std::string_view Text, std::string_view DeviceSignature,
                             std::string_view Origin) {
  WarmStartLoad Result;
  Result.Found = true;
  std::vector<std::string_view> Lines = split(Text, '\n');
  std::size_t Number = 0;
  bool SawMagic = false;
  bool SawDevices = false;
  auto fail = [&](const std::string &Why) {
    Result.Records.clear();
    Result.Error =
        std::string(Origin) + ":" + std::to_string(Number) + ": " + Why + "; warm start ignored";
    return Result;
  };
  for (std::string_view Line : Lines) {
    ++Number;
    if (!Line.empty() && Line.back() == '\r')
      Line.remove_suffix(1);
    if (Line.empty() || Line.front() == '#')
      continue;
    if (!SawMagic) {
      if (Line != Magic)
        return fail("not a libsplit balancer warm-start file (version 1)");
      SawMagic = true;
      continue;
    }
    if (!SawDevices) {
      std::string Signature;
      if (Line.substr(0, 8) != "devices " || !unescape(Line.substr(8), Signature))
        return fail("expected 'devices <signature>'");
      if (Signature != DeviceSignature)
        return fail("recorded for other devices ('" + Signature + "')");
      SawDevices = true;
      continue;
    }
    WarmStartRecord Record;
    std::string Problem = parseRecord(Line, Record);
    if (!Problem.empty())
      return fail(Problem);
    Result.Records.push_back(std::move(Record));
  }
  if (!SawDevices)
    return fail("file ends before the 'devices' line");
  return Result;
}

std::string saveWarmStart(const std::filesystem::path &Directory, std::string_view DeviceSignature,
                          const std::vector<WarmStartRecord> &Records) {
  std::filesystem::path Final = Directory / WarmStartFileName;
  // Unique per save so that two processes saving at once never write the same temporary file;
  // the last rename wins and readers only ever see a complete file.
  auto Stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  std::ostringstream Suffix;
  Suffix.imbue(std::locale::classic());
  Suffix << ".tmp-" << std::hex << Stamp << "-" << reinterpret_cast<std::uintptr_t>(&Records);
  std::filesystem::path Temporary = Final;
  Temporary += Suffix.str();
  {
    std::ofstream Out(Temporary, std::ios::binary | std::ios::trunc);
    if (!Out)
      return "cannot create " + Temporary.string();
    Out << formatWarmStart(DeviceSignature, Records);
    Out.close();
    if (!Out) {
      std::error_code Ignored;
      std::filesystem::remove(Temporary, Ignored);
      return "cannot write " + Temporary.string();
    }
  }
  std::error_code Ec;
  std::filesystem::rename(Temporary, Final, Ec);
  if (Ec) {
    std::error_code Ignored;
    std::filesystem::remove(Temporary, Ignored);
    return "cannot rename " + Temporary.string() + " to " + Final.string() + ": " + Ec.message();
  }
  return {};
}

WarmStartLoad loadWarmStart(const std::filesystem::path &Directory,
                            std::string_view DeviceSignature) {
  std::filesystem::path Path = Directory / WarmStartFileName;
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return {};
  std::ostringstream Text;
  Text << In.rdbuf();
  if (In.bad()) {
    WarmStartLoad Result;
    Result.Found = true;
    Result.Error = "cannot read " + Path.string() + "; warm start ignored";
    return Result;
  }
  return parseWarmStart(Text.str(), DeviceSignature, Path.string());
}

} // namespace libsplit::balancer
