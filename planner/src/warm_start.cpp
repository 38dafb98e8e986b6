#include "libsplit/planner/warm_start.hpp"

#include "libsplit/support/text.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace libsplit::planner {

namespace {

constexpr std::string_view Magic = "libsplit-planner-warm-start 1";

std::string signatureHash(std::string_view Signature) {
  std::uint64_t Hash = 0xcbf29ce484222325ull;
  for (unsigned char C : Signature) {
    Hash ^= C;
    Hash *= 0x100000001b3ull;
  }
  char Text[17];
  std::snprintf(Text, sizeof(Text), "%016llx", static_cast<unsigned long long>(Hash));
  return Text;
}

std::string formatPoints(const std::vector<std::pair<double, double>> &Points) {
  if (Points.empty())
    return "-";
  std::string Text;
  for (const auto &[Work, Seconds] : Points)
    Text += (Text.empty() ? "" : ",") + support::formatNumber(Work) + ":" +
            support::formatNumber(Seconds);
  return Text;
}

bool parsePoints(std::string_view Text, std::vector<std::pair<double, double>> &Out) {
  Out.clear();
  if (Text == "-")
    return true;
  while (!Text.empty()) {
    const std::size_t Comma = Text.find(',');
    const std::string_view Point = Text.substr(0, Comma);
    const std::size_t Colon = Point.find(':');
    double Work = 0.0, Seconds = 0.0;
    if (Colon == std::string_view::npos || !support::parseNumber(Point.substr(0, Colon), Work) ||
        !support::parseNumber(Point.substr(Colon + 1), Seconds) || !(Work > 0.0) ||
        !(Seconds >= 0.0))
      return false;
    Out.emplace_back(Work, Seconds);
    Text = Comma == std::string_view::npos ? std::string_view() : Text.substr(Comma + 1);
  }
  return !Out.empty() && Out.size() <= 2;
}

} // namespace

std::string formatGuards(std::string_view DeviceSignature, const std::vector<SavedGuard> &Guards,
                         const std::vector<SavedWait> &Waits) {
  std::string Text = std::string(Magic) + "\ndevices " + signatureHash(DeviceSignature) + "\n";
  for (const SavedGuard &G : Guards)
    Text += "guard " + G.Kernel + " " + std::to_string(G.AppDevice) + " " + modeName(G.Record.Run) +
            " " + formatPoints(G.Record.Split) + " " + formatPoints(G.Record.Whole) + "\n";
  for (const SavedWait &W : Waits)
    Text += "waited " + std::to_string(W.AppDevice) + " " + support::formatNumber(W.Seconds) + " " +
            std::to_string(W.Launches) +
            (W.Queued >= 0.0 ? " queued " + support::formatNumber(W.Queued) : "") +
            (W.SplitNothing ? " split-nothing" : "") + "\n";
  return Text;
}

bool stayedShortOfOpening(const SavedWait &Earlier, double OpenAfterSeconds, bool SavedSplit) {
  return Earlier.Launches > 0 && Earlier.Seconds < OpenAfterSeconds && Earlier.Queued < 0.0 &&
         !SavedSplit;
}

GuardLoad parseGuards(std::string_view Text, std::string_view DeviceSignature,
                      std::string_view Origin) {
  GuardLoad Load;
  std::istringstream Lines{std::string(Text)};
  std::string Line;
  unsigned Number = 0;
  bool SawMagic = false, SawDevices = false;
  auto fail = [&](const std::string &Why) {
    Load.Guards.clear();
    Load.Waits.clear();
    Load.Error = std::string(Origin) + ":" + std::to_string(Number) + ": " + Why;
    return Load;
  };
  while (std::getline(Lines, Line)) {
    ++Number;
    if (Line.empty() || Line[0] == '#')
      continue;
    if (!SawMagic) {
      if (Line != Magic)
        return fail("not a planner warm-start file (expected '" + std::string(Magic) + "')");
      SawMagic = true;
      continue;
    }
    std::istringstream Fields(Line);
    std::string Kind;
    Fields >> Kind;
    if (!SawDevices) {
      std::string Hash;
      if (Kind != "devices" || !(Fields >> Hash))
        return fail("expected 'devices <hash>'");
      SawDevices = true;
      if (Hash != signatureHash(DeviceSignature))
        return GuardLoad(); // made for other devices
      continue;
    }
    if (Kind == "waited") {
      SavedWait W;
      std::string Seconds, Token;
      bool Good = (Fields >> W.AppDevice >> Seconds) && support::parseNumber(Seconds, W.Seconds) &&
                  std::isfinite(W.Seconds) && W.Seconds >= 0.0;
      // Then the launches (a count), then queued and its seconds, then split-nothing, each
      // optional (older files have none).
      bool SawLaunches = false;
      while (Good && (Fields >> Token)) {
        std::string Queued;
        if (Token == "split-nothing" && !W.SplitNothing) {
          W.SplitNothing = true;
        } else if (Token == "queued" && W.Queued < 0.0 && !W.SplitNothing) {
          Good = (Fields >> Queued) && support::parseNumber(Queued, W.Queued) &&
                 std::isfinite(W.Queued) && W.Queued >= 0.0;
        } else if (!SawLaunches && !W.SplitNothing && W.Queued < 0.0 && !Token.empty() &&
                   Token.size() < 20 &&
                   Token.find_first_not_of("0123456789") == std::string::npos) {
          W.Launches = std::stoull(Token);
          SawLaunches = true;
        } else {
          Good = false;
        }
      }
      if (!Good)
        return fail("expected 'waited <app device> <seconds> [<launches>] [queued <seconds>] "
                    "[split-nothing]'");
      Load.Waits.push_back(W);
      continue;
    }
    SavedGuard G;
    std::string Run, Split, Whole, Rest;
    if (Kind != "guard" || !(Fields >> G.Kernel >> G.AppDevice >> Run >> Split >> Whole) ||
        (Fields >> Rest))
      return fail("expected 'guard <kernel> <app device> split|whole <points> <points>'");
    if (Run != "split" && Run != "whole")
      return fail("the way must be split or whole, not '" + Run + "'");
    G.Record.Run = Run == "split" ? Mode::Split : Mode::Whole;
    if (!parsePoints(Split, G.Record.Split) || !parsePoints(Whole, G.Record.Whole))
      return fail("points must be '-' or one or two work:seconds pairs");
    Load.Guards.push_back(std::move(G));
  }
  if (!SawDevices)
    return fail("no 'devices' line");
  return Load;
}

std::string saveGuards(const std::filesystem::path &Directory, std::string_view DeviceSignature,
                       const std::vector<SavedGuard> &Guards, const std::vector<SavedWait> &Waits) {
  const std::filesystem::path Final = Directory / GuardFileName;
  // A name no other writer uses (processes of one app may end at once): the last rename wins.
  const auto Stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::filesystem::path Temporary =
      Directory / (std::string(GuardFileName) + ".tmp-" + std::to_string(Stamp) + "-" +
                   std::to_string(reinterpret_cast<std::uintptr_t>(&Guards)));
  {
    std::ofstream Out(Temporary, std::ios::trunc);
    Out << formatGuards(DeviceSignature, Guards, Waits);
    if (!Out.flush())
      return "cannot write " + Temporary.string();
  }
  std::error_code Error;
  std::filesystem::rename(Temporary, Final, Error);
  if (Error) {
    std::filesystem::remove(Temporary, Error);
    return "cannot replace " + Final.string();
  }
  return "";
}

GuardLoad loadGuards(const std::filesystem::path &Directory, std::string_view DeviceSignature) {
  const std::filesystem::path Path = Directory / GuardFileName;
  std::ifstream In(Path);
  if (!In)
    return GuardLoad();
  std::stringstream Text;
  Text << In.rdbuf();
  return parseGuards(Text.str(), DeviceSignature, Path.string());
}

} // namespace libsplit::planner
