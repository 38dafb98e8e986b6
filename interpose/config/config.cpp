//===- config.cpp - Reading, checking and rendering the controls ----------===//
#include "config/config.hpp"

#include "libsplit/support/text.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>

namespace libsplit::config {

namespace {

std::string_view trim(std::string_view Text) {
  const char *Blanks = " \t\r\n";
  std::size_t Begin = Text.find_first_not_of(Blanks);
  if (Begin == std::string_view::npos)
    return {};
  std::size_t End = Text.find_last_not_of(Blanks);
  return Text.substr(Begin, End - Begin + 1);
}

using support::lowerAscii;
std::string lower(std::string_view Text) { return lowerAscii(Text); }

bool startsWith(std::string_view Text, std::string_view Prefix) {
  return Text.substr(0, Prefix.size()) == Prefix;
}

bool allDigits(std::string_view Text) {
  return !Text.empty() &&
         std::all_of(Text.begin(), Text.end(), [](char C) { return C >= '0' && C <= '9'; });
}

// Quotes a user's value for a message. Control characters are escaped and long values cut, so
// that the message stays one readable line whatever was in the environment.
std::string quote(std::string_view Text) {
  constexpr std::size_t MaxShown = 60;
  std::string Out = "'";
  for (std::size_t I = 0; I < Text.size() && I < MaxShown; ++I) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    if (C < 0x20 || C == 0x7f) {
      const char *Hex = "0123456789abcdef";
      Out += "\\x";
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    } else {
      Out += static_cast<char>(C);
    }
  }
  if (Text.size() > MaxShown)
    Out += "...";
  Out += "'";
  return Out;
}

// Splits a comma list into trimmed items, dropping empty ones: "0:0,,1:0," means what it
// obviously means, and refusing it would only force a pass-through run over a stray comma.
std::vector<std::string_view> splitList(std::string_view Text) {
  std::vector<std::string_view> Items;
  std::size_t Position = 0;
  while (Position <= Text.size()) {
    std::size_t Comma = Text.find(',', Position);
    if (Comma == std::string_view::npos)
      Comma = Text.size();
    std::string_view Item = trim(Text.substr(Position, Comma - Position));
    if (!Item.empty())
      Items.push_back(Item);
    Position = Comma + 1;
  }
  return Items;
}

// " in '<whole list>'" when the bad item is not the whole text, so the user sees which one.
std::string inList(std::string_view Item, std::string_view Whole) {
  return trim(Whole) == Item ? std::string() : " in " + quote(trim(Whole));
}

using support::formatNumber;

template <typename Enum, std::size_t N>
std::string parseEnum(std::string_view Text, const std::array<std::string_view, N> &Names,
                      Enum &Out) {
  std::string Key = lower(trim(Text));
  for (std::size_t I = 0; I < N; ++I) {
    if (Names[I] == Key) {
      Out = static_cast<Enum>(I);
      return {};
    }
  }
  return "unknown value " + quote(trim(Text));
}

template <typename Enum, std::size_t N>
std::string formatEnum(Enum Value, const std::array<std::string_view, N> &Names) {
  return std::string(Names[static_cast<std::size_t>(Value)]);
}

std::string parseUnsigned(std::string_view Text, unsigned Minimum, unsigned &Out) {
  std::string_view Digits = trim(Text);
  if (!allDigits(Digits))
    return quote(Digits) + " is not a whole number";
  unsigned long long Value = 0;
  auto Result = std::from_chars(Digits.data(), Digits.data() + Digits.size(), Value);
  if (Result.ec != std::errc() || Value > UINT_MAX)
    return quote(Digits) + " is too large";
  if (Value < Minimum)
    return quote(Digits) + " is less than " + std::to_string(Minimum);
  Out = static_cast<unsigned>(Value);
  return {};
}

// One parser per kind, all with the same shape so that readConfig can be generated.
template <ControlKind Kind> std::string parseKind(std::string_view Text, ControlType<Kind> &Out);
template <ControlKind Kind> std::string formatKind(const ControlType<Kind> &Value);

template <> std::string parseKind<ControlKind::Bool>(std::string_view Text, bool &Out) {
  static constexpr std::string_view True[] = {"1", "true", "yes", "on"};
  static constexpr std::string_view False[] = {"0", "false", "no", "off"};
  std::string Key = lower(trim(Text));
  for (std::size_t I = 0; I < std::size(True); ++I) {
    if (Key == True[I] || Key == False[I]) {
      Out = Key == True[I];
      return {};
    }
  }
  return "unknown value " + quote(trim(Text));
}
template <> std::string formatKind<ControlKind::Bool>(const bool &Value) {
  return Value ? "1" : "0";
}

template <> std::string parseKind<ControlKind::Count>(std::string_view Text, unsigned &Out) {
  return parseUnsigned(Text, 0, Out);
}
template <> std::string formatKind<ControlKind::Count>(const unsigned &Value) {
  return std::to_string(Value);
}

template <> std::string parseKind<ControlKind::Positive>(std::string_view Text, unsigned &Out) {
  return parseUnsigned(Text, 1, Out);
}
template <> std::string formatKind<ControlKind::Positive>(const unsigned &Value) {
  return std::to_string(Value);
}

// Paths are taken verbatim: a file name may really end in a blank.
template <> std::string parseKind<ControlKind::Path>(std::string_view Text, std::string &Out) {
  Out = std::string(Text);
  return {};
}
template <> std::string formatKind<ControlKind::Path>(const std::string &Value) { return Value; }

template <> std::string parseKind<ControlKind::Level>(std::string_view Text, LogLevel &Out) {
  return parseEnum(Text, LogLevelNames, Out);
}
template <> std::string formatKind<ControlKind::Level>(const LogLevel &Value) {
  return formatEnum(Value, LogLevelNames);
}

template <> std::string parseKind<ControlKind::Categories>(std::string_view Text, DebugMask &Out) {
  return parseDebugCategories(Text, Out);
}
template <> std::string formatKind<ControlKind::Categories>(const DebugMask &Value) {
  return formatDebugCategories(Value);
}

template <>
std::string parseKind<ControlKind::Devices>(std::string_view Text, DeviceSelection &Out) {
  return parseDeviceSelection(Text, Out);
}
template <> std::string formatKind<ControlKind::Devices>(const DeviceSelection &Value) {
  return formatDeviceSelection(Value);
}

template <> std::string parseKind<ControlKind::Balancer>(std::string_view Text, BalancerKind &Out) {
  return parseEnum(Text, BalancerNames, Out);
}
template <> std::string formatKind<ControlKind::Balancer>(const BalancerKind &Value) {
  return formatEnum(Value, BalancerNames);
}

template <> std::string parseKind<ControlKind::Shares>(std::string_view Text, StaticShares &Out) {
  return parseShares(Text, Out);
}
template <> std::string formatKind<ControlKind::Shares>(const StaticShares &Value) {
  std::string Out;
  for (std::size_t I = 0; I < Value.Values.size(); ++I)
    Out += (I ? "," : "") + (Value.Names.empty() ? "" : Value.Names[I] + "=") +
           formatNumber(Value.Values[I]);
  return Out;
}

template <> std::string parseKind<ControlKind::Tuning>(std::string_view Text, TuningMode &Out) {
  return parseEnum(Text, TuningNames, Out);
}
template <> std::string formatKind<ControlKind::Tuning>(const TuningMode &Value) {
  return formatEnum(Value, TuningNames);
}

template <> std::string parseKind<ControlKind::Defer>(std::string_view Text, DeferMode &Out) {
  return parseEnum(Text, DeferNames, Out);
}
template <> std::string formatKind<ControlKind::Defer>(const DeferMode &Value) {
  return formatEnum(Value, DeferNames);
}
template <>
std::string parseKind<ControlKind::FirstSplit>(std::string_view Text, FirstSplitMode &Out) {
  return parseEnum(Text, FirstSplitNames, Out);
}
template <> std::string formatKind<ControlKind::FirstSplit>(const FirstSplitMode &Value) {
  return formatEnum(Value, FirstSplitNames);
}

template <> std::string parseKind<ControlKind::Upload>(std::string_view Text, UploadMode &Out) {
  return parseEnum(Text, UploadNames, Out);
}
template <> std::string formatKind<ControlKind::Upload>(const UploadMode &Value) {
  return formatEnum(Value, UploadNames);
}

template <> std::string parseKind<ControlKind::Split>(std::string_view Text, SplitPolicy &Out) {
  return parseEnum(Text, SplitPolicyNames, Out);
}
template <> std::string formatKind<ControlKind::Split>(const SplitPolicy &Value) {
  return formatEnum(Value, SplitPolicyNames);
}

template <> std::string parseKind<ControlKind::Chunk>(std::string_view Text, ChunkPolicy &Out) {
  return parseEnum(Text, ChunkPolicyNames, Out);
}
template <> std::string formatKind<ControlKind::Chunk>(const ChunkPolicy &Value) {
  return formatEnum(Value, ChunkPolicyNames);
}
template <> std::string parseKind<ControlKind::Overlap>(std::string_view Text, OverlapPolicy &Out) {
  return parseEnum(Text, OverlapPolicyNames, Out);
}
template <> std::string formatKind<ControlKind::Overlap>(const OverlapPolicy &Value) {
  return formatEnum(Value, OverlapPolicyNames);
}

template <> std::string parseKind<ControlKind::Open>(std::string_view Text, OpenPolicy &Out) {
  const std::string Key = lower(trim(Text));
  if (Key == "auto" || Key == "now" || Key == "waited") {
    Out = {Key == "now"      ? OpenPolicy::When::Now
           : Key == "waited" ? OpenPolicy::When::Waited
                             : OpenPolicy::When::Auto,
           0.0};
    return {};
  }
  double Seconds = 0.0;
  auto Result = std::from_chars(Key.data(), Key.data() + Key.size(), Seconds);
  if (Key.empty() || Result.ec != std::errc() || Result.ptr != Key.data() + Key.size() ||
      !std::isfinite(Seconds) || Seconds < 0.0)
    return "unknown value " + quote(trim(Text));
  Out = {OpenPolicy::When::After, Seconds};
  return {};
}
template <> std::string formatKind<ControlKind::Open>(const OpenPolicy &Value) {
  switch (Value.What) {
  case OpenPolicy::When::Auto:
    return "auto";
  case OpenPolicy::When::Waited:
    return "waited";
  case OpenPolicy::When::Now:
    return "now";
  case OpenPolicy::When::After:
    break;
  }
  return formatNumber(Value.Seconds);
}

// "(...)" in the Default column describes a default instead of being one.
bool isDescribedDefault(std::string_view Default) { return startsWith(Default, "("); }

template <ControlKind Kind> void setDefault(const ControlInfo &Info, ControlType<Kind> &Field) {
  if (isDescribedDefault(Info.Default)) {
    Field = ControlType<Kind>{};
    return;
  }
  [[maybe_unused]] std::string Problem = parseKind<Kind>(Info.Default, Field);
  assert(Problem.empty() && "a default in controls.def does not parse");
}

template <ControlKind Kind>
void readControl(const EnvLookup &Lookup, const ControlInfo &Info, ControlType<Kind> &Field,
                 Config &C, std::vector<std::string_view> &Malformed) {
  // Info.Name views a string literal, so data() is null-terminated.
  const char *Value = Lookup(Info.Name.data());
  if (!Value || !*Value)
    return;
  C.Set[static_cast<std::size_t>(Info.Id)] = true;
  ControlType<Kind> Parsed{};
  std::string Problem = parseKind<Kind>(Value, Parsed);
  if (!Problem.empty()) {
    C.Errors.push_back(std::string(Info.Name) + ": " + Problem +
                       "; accepted: " + std::string(Info.Accepted));
    Malformed.push_back(Info.Name);
    return;
  }
  Field = std::move(Parsed);
}

// Edit distance, for suggesting the control a misspelt variable probably meant.
std::size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<std::size_t> Row(B.size() + 1);
  for (std::size_t J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (std::size_t I = 1; I <= A.size(); ++I) {
    std::size_t Diagonal = Row[0];
    Row[0] = I;
    for (std::size_t J = 1; J <= B.size(); ++J) {
      std::size_t Above = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1, Diagonal + (A[I - 1] != B[J - 1])});
      Diagonal = Above;
    }
  }
  return Row[B.size()];
}

// Greedy word wrap; every line after the first starts with Indent spaces.
void appendWrapped(std::string &Out, std::string_view Text, std::size_t Column, std::size_t Indent,
                   std::size_t Width) {
  std::size_t Position = 0;
  bool LineHasWord = Column > Indent;
  while (Position < Text.size()) {
    std::size_t Space = Text.find(' ', Position);
    std::string_view Word = Text.substr(
        Position, Space == std::string_view::npos ? std::string_view::npos : Space - Position);
    Position = Space == std::string_view::npos ? Text.size() : Space + 1;
    if (Word.empty())
      continue;
    if (LineHasWord && Column + 1 + Word.size() > Width) {
      Out += '\n';
      Out.append(Indent, ' ');
      Column = Indent;
      LineHasWord = false;
    }
    if (LineHasWord) {
      Out += ' ';
      ++Column;
    }
    Out += Word;
    Column += Word.size();
    LineHasWord = true;
  }
}

std::string markdownCell(std::string_view Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '|')
      Out += '\\';
    Out += C;
  }
  return Out;
}

} // namespace

bool DeviceSelector::operator==(const DeviceSelector &Other) const {
  return What == Other.What && Platform == Other.Platform && Device == Other.Device &&
         Name == Other.Name;
}

bool DeviceSelection::matches(unsigned PlatformIndex, unsigned DeviceIndex, DeviceType Type,
                              std::string_view DeviceName) const {
  std::string LowerName = lower(DeviceName);
  for (const DeviceSelector &Item : Items) {
    switch (Item.What) {
    case DeviceSelector::Kind::All:
      return true;
    case DeviceSelector::Kind::Gpu:
      if (Type == DeviceType::Gpu)
        return true;
      break;
    case DeviceSelector::Kind::Cpu:
      if (Type == DeviceType::Cpu)
        return true;
      break;
    case DeviceSelector::Kind::Index:
      if (Item.Platform == PlatformIndex && Item.Device == DeviceIndex)
        return true;
      break;
    case DeviceSelector::Kind::Name:
      if (LowerName.find(lower(Item.Name)) != std::string::npos)
        return true;
      break;
    }
  }
  return false;
}

std::string parseDeviceSelection(std::string_view Text, DeviceSelection &Out) {
  Out.Items.clear();
  for (std::string_view Item : splitList(Text)) {
    DeviceSelector Selector;
    std::string Key = lower(Item);
    std::size_t Colon = Item.find(':');
    if (Key == "all") {
      Selector.What = DeviceSelector::Kind::All;
    } else if (Key == "gpu") {
      Selector.What = DeviceSelector::Kind::Gpu;
    } else if (Key == "cpu") {
      Selector.What = DeviceSelector::Kind::Cpu;
    } else if (startsWith(Key, "name:")) {
      Selector.What = DeviceSelector::Kind::Name;
      Selector.Name = std::string(Item.substr(5));
      if (Selector.Name.empty())
        return quote(Item) + " names no device" + inList(Item, Text);
    } else if (Colon != std::string_view::npos && allDigits(Item.substr(0, Colon))) {
      // Digits before a colon can only mean an index pair: a typo here must not silently
      // become a name that matches nothing.
      std::string_view DeviceText = Item.substr(Colon + 1);
      unsigned long long Platform = 0, Device = 0;
      auto PlatformEnd = std::from_chars(Item.data(), Item.data() + Colon, Platform);
      auto DeviceEnd =
          std::from_chars(DeviceText.data(), DeviceText.data() + DeviceText.size(), Device);
      if (!allDigits(DeviceText) || PlatformEnd.ec != std::errc() || DeviceEnd.ec != std::errc() ||
          Platform > UINT_MAX || Device > UINT_MAX)
        return quote(Item) + " is not a P:D index pair" + inList(Item, Text);
      Selector.What = DeviceSelector::Kind::Index;
      Selector.Platform = static_cast<unsigned>(Platform);
      Selector.Device = static_cast<unsigned>(Device);
    } else if (allDigits(Item)) {
      // "0" could mean platform 0, device 0 of every platform, or a name like "3090".
      return quote(Item) + " is ambiguous: write P:D for an index or name:" + std::string(Item) +
             " for a name" + inList(Item, Text);
    } else {
      Selector.What = DeviceSelector::Kind::Name;
      Selector.Name = std::string(Item);
    }
    Out.Items.push_back(std::move(Selector));
  }
  if (Out.Items.empty())
    return quote(Text) + " selects no device";
  return {};
}

std::string formatDeviceSelection(const DeviceSelection &Selection) {
  std::string Out;
  for (const DeviceSelector &Item : Selection.Items) {
    if (!Out.empty())
      Out += ',';
    switch (Item.What) {
    case DeviceSelector::Kind::All:
      Out += "all";
      break;
    case DeviceSelector::Kind::Gpu:
      Out += "gpu";
      break;
    case DeviceSelector::Kind::Cpu:
      Out += "cpu";
      break;
    case DeviceSelector::Kind::Index:
      Out += std::to_string(Item.Platform) + ":" + std::to_string(Item.Device);
      break;
    case DeviceSelector::Kind::Name: {
      // Bare when it reads back as the same name, else with the explicit prefix.
      DeviceSelection Reparsed;
      bool Bare = parseDeviceSelection(Item.Name, Reparsed).empty() && Reparsed.Items.size() == 1 &&
                  Reparsed.Items[0].What == DeviceSelector::Kind::Name &&
                  Reparsed.Items[0].Name == Item.Name;
      Out += Bare ? Item.Name : "name:" + Item.Name;
      break;
    }
    }
  }
  return Out;
}

std::string parseDebugCategories(std::string_view Text, DebugMask &Out) {
  Out = 0;
  for (std::string_view Item : splitList(Text)) {
    std::string Key = lower(Item);
    if (Key == "all") {
      Out = AllDebugCategories;
      continue;
    }
    auto Found = std::find(DebugCategoryNames.begin(), DebugCategoryNames.end(), Key);
    if (Found == DebugCategoryNames.end())
      return "unknown category " + quote(Item) + inList(Item, Text);
    Out |= debugBit(static_cast<DebugCategory>(Found - DebugCategoryNames.begin()));
  }
  return {};
}

std::string formatDebugCategories(DebugMask Mask) {
  if ((Mask & AllDebugCategories) == AllDebugCategories)
    return "all";
  std::string Out;
  for (std::size_t I = 0; I < DebugCategoryNames.size(); ++I) {
    if (Mask & debugBit(static_cast<DebugCategory>(I)))
      Out += (Out.empty() ? "" : ",") + std::string(DebugCategoryNames[I]);
  }
  return Out;
}

// The same rules as the balancer's parseShares (balancer/), without the device count, which
// only the runtime knows once it has chosen the devices; and shares may name their devices.
std::string parseShares(std::string_view Text, StaticShares &Out) {
  Out = StaticShares();
  std::vector<std::string_view> Items = splitList(Text);
  if (Items.empty())
    return "no shares in " + quote(Text);
  double Sum = 0.0;
  for (std::string_view Item : Items) {
    std::string Index = std::to_string(Out.Values.size() + 1);
    std::string_view Number = Item;
    std::size_t Equals = Item.rfind('=');
    if (Equals != std::string_view::npos) {
      std::string_view Name = trim(Item.substr(0, Equals));
      if (Name.empty())
        return "share " + Index + " " + quote(Item) + " names no device" + inList(Item, Text);
      if (Out.Names.size() != Out.Values.size())
        return "mix of shares with and without a device name" + inList(Item, Text);
      Out.Names.emplace_back(Name);
      Number = trim(Item.substr(Equals + 1));
    } else if (!Out.Names.empty()) {
      return "mix of shares with and without a device name" + inList(Item, Text);
    }
    double Value = 0.0;
    // from_chars, unlike strtod, ignores the locale the application may have set.
    auto Result = std::from_chars(Number.data(), Number.data() + Number.size(), Value);
    if (Result.ec != std::errc() || Result.ptr != Number.data() + Number.size() ||
        !std::isfinite(Value))
      return "share " + Index + " " + quote(Item) + " is not a number" + inList(Item, Text);
    if (Value < 0.0)
      return "share " + Index + " " + quote(Item) + " is negative" + inList(Item, Text);
    Out.Values.push_back(Value);
    Sum += Value;
  }
  if (std::fabs(Sum - 1.0) > 1e-6)
    return "shares " + quote(trim(Text)) + " sum to " + formatNumber(Sum) + ", not 1";
  return {};
}

std::string resolveShares(const StaticShares &Shares, const std::vector<std::string> &Devices,
                          std::vector<double> &Out) {
  Out.assign(Devices.size(), 0.0);
  if (Shares.Names.empty()) {
    if (Shares.Values.size() != Devices.size())
      return std::to_string(Shares.Values.size()) + " shares given for " +
             std::to_string(Devices.size()) + " devices";
    Out = Shares.Values;
    return {};
  }
  std::vector<int> Owner(Devices.size(), -1);
  for (std::size_t N = 0; N < Shares.Names.size(); ++N) {
    const std::string Name = lower(Shares.Names[N]);
    std::vector<std::size_t> Matched;
    for (std::size_t D = 0; D < Devices.size(); ++D) {
      if (lower(Devices[D]).find(Name) == std::string::npos)
        continue;
      if (Owner[D] >= 0)
        return "device " + quote(Devices[D]) + " matches both " +
               quote(Shares.Names[static_cast<std::size_t>(Owner[D])]) + " and " +
               quote(Shares.Names[N]);
      Owner[D] = static_cast<int>(N);
      Matched.push_back(D);
    }
    if (Matched.empty())
      return quote(Shares.Names[N]) + " matches no device";
    for (std::size_t D : Matched)
      Out[D] = Shares.Values[N] / static_cast<double>(Matched.size());
  }
  for (std::size_t D = 0; D < Devices.size(); ++D)
    if (Owner[D] < 0)
      return "no share names device " + quote(Devices[D]);
  return {};
}

const ControlInfo *findControl(std::string_view Name) {
  for (const ControlInfo &Info : Controls) {
    if (Info.Name == Name)
      return &Info;
  }
  return nullptr;
}

Config::Config() {
#define LIBSPLIT_CONTROL(Kind, Name, Field, Option, Default, Accepted, Help)                       \
  setDefault<ControlKind::Kind>(controlInfo(ControlId::Field), Field);
#include "config/controls.def"
}

Config readConfig(const EnvLookup &Lookup) {
  Config C;
  std::vector<std::string_view> Malformed;
#define LIBSPLIT_CONTROL(Kind, Name, Field, Option, Default, Accepted, Help)                       \
  readControl<ControlKind::Kind>(Lookup, controlInfo(ControlId::Field), C.Field, C, Malformed);
#include "config/controls.def"

  // LIBSPLIT_STATIC alone is unambiguous (nobody gives shares to a balancer that ignores
  // them), so it selects the static balancer; a different explicit balancer wins, with a
  // warning that the shares are unused.
  bool StaticMalformed = C.isSet(ControlId::Static) && C.Static.empty();
  if (!C.Static.empty() && !C.isSet(ControlId::Balancer))
    C.Balancer = BalancerKind::Static;
  else if (!C.Static.empty() && C.Balancer != BalancerKind::Static)
    C.Warnings.push_back("LIBSPLIT_STATIC is ignored: LIBSPLIT_BALANCER is " +
                         formatKind<ControlKind::Balancer>(C.Balancer) + ", not static");
  if (C.Balancer == BalancerKind::Static && C.Static.empty() && !StaticMalformed) {
    C.Errors.push_back("LIBSPLIT_BALANCER: 'static' needs the shares in LIBSPLIT_STATIC, e.g. "
                       "LIBSPLIT_STATIC=0.6,0.4");
    Malformed.push_back("LIBSPLIT_BALANCER");
  }

  // The XDG base directory rule: XDG_CACHE_HOME counts only when it is an absolute path.
  if (C.CacheDir.empty()) {
    const char *Xdg = Lookup("XDG_CACHE_HOME");
    const char *Home = Lookup("HOME");
    if (Xdg && Xdg[0] == '/')
      C.CacheDir = std::string(Xdg) + "/libsplit";
    else if (Home && *Home)
      C.CacheDir = std::string(Home) + "/.cache/libsplit";
    else
      C.Warnings.push_back("LIBSPLIT_CACHE_DIR: no default without HOME or XDG_CACHE_HOME; "
                           "compiled kernels and tuning are not kept between runs");
  }

  if (C.Disable) {
    C.ForcePassThrough = true;
    C.PassThroughReason = "LIBSPLIT_DISABLE is set";
  } else if (!Malformed.empty()) {
    C.ForcePassThrough = true;
    C.PassThroughReason = "malformed ";
    for (std::size_t I = 0; I < Malformed.size(); ++I)
      C.PassThroughReason += (I ? ", " : "") + std::string(Malformed[I]);
  }
  return C;
}

std::vector<std::string> unknownControlWarnings(const char *const *Environment) {
  std::vector<std::string> Warnings;
  if (!Environment)
    return Warnings;
  for (const char *const *Entry = Environment; *Entry; ++Entry) {
    std::string_view Text = *Entry;
    std::string_view Name = Text.substr(0, Text.find('='));
    if (!startsWith(Name, "LIBSPLIT_") || findControl(Name))
      continue;
    std::string Message = std::string(Name) + " is not a libsplit control and is ignored";
    const ControlInfo *Nearest = nullptr;
    std::size_t Best = 4; // more edits than this is a different word, not a typo
    std::string UpperName(Name);
    for (char &C : UpperName)
      C = C >= 'a' && C <= 'z' ? static_cast<char>(C - 'a' + 'A') : C;
    for (const ControlInfo &Info : Controls) {
      std::size_t Distance = editDistance(UpperName, Info.Name);
      if (Distance < Best) {
        Best = Distance;
        Nearest = &Info;
      }
    }
    if (Nearest)
      Message += "; did you mean " + std::string(Nearest->Name) + "?";
    Warnings.push_back(Message + " (libsplit --help lists the controls)");
  }
  return Warnings;
}

std::string formatControl(const Config &C, ControlId Id) {
  switch (Id) {
#define LIBSPLIT_CONTROL(Kind, Name, Field, Option, Default, Accepted, Help)                       \
  case ControlId::Field:                                                                           \
    return formatKind<ControlKind::Kind>(C.Field);
#include "config/controls.def"
  case ControlId::NumControls:
    break;
  }
  return {};
}

std::vector<std::string> nonDefaultSettings(const Config &C) {
  Config Defaults;
  std::vector<std::string> Settings;
  for (const ControlInfo &Info : Controls) {
    if (!C.isSet(Info.Id))
      continue;
    std::string Value = formatControl(C, Info.Id);
    if (Value != formatControl(Defaults, Info.Id))
      Settings.push_back(std::string(Info.Name) + "=" + Value);
  }
  return Settings;
}

std::string settingsLine(const Config &C) {
  std::vector<std::string> Settings = nonDefaultSettings(C);
  if (Settings.empty())
    return "settings: all defaults";
  std::string Line = "settings:";
  for (std::size_t I = 0; I < Settings.size(); ++I)
    Line += (I ? ", " : " ") + Settings[I];
  return Line;
}

std::string controlsTable(std::size_t Width) {
  std::size_t NameWidth = std::string_view("Variable").size();
  std::size_t DefaultWidth = std::string_view("Default").size();
  for (const ControlInfo &Info : Controls) {
    NameWidth = std::max(NameWidth, Info.Name.size());
    DefaultWidth = std::max(DefaultWidth, Info.Default.size());
  }
  const std::size_t HelpIndent = 4;
  std::size_t AcceptedColumn = NameWidth + 2 + DefaultWidth + 2;

  std::string Out;
  appendWrapped(Out,
                "libsplit controls: environment variables read when the app starts. An empty "
                "value is the same as unset; booleans also take true/false, yes/no, on/off. A "
                "malformed value makes libsplit run pass-through.",
                0, 0, Width);
  Out += "\n\n";
  auto AppendRow = [&](std::string_view Name, std::string_view Default, std::string_view Accepted) {
    std::size_t LineStart = Out.size();
    Out += Name;
    Out.append(NameWidth + 2 - Name.size(), ' ');
    Out += Default;
    Out.append(DefaultWidth + 2 - Default.size(), ' ');
    appendWrapped(Out, Accepted, Out.size() - LineStart, AcceptedColumn, Width);
    Out += '\n';
  };
  AppendRow("Variable", "Default", "Accepted");
  for (const ControlInfo &Info : Controls) {
    AppendRow(Info.Name, Info.Default, Info.Accepted);
    Out.append(HelpIndent, ' ');
    std::string Help(Info.Help);
    if (!Info.Option.empty())
      Help += " [" + std::string(Info.Option) + "]";
    appendWrapped(Out, Help, HelpIndent, HelpIndent, Width);
    Out += '\n';
  }
  return Out;
}

std::string controlsMarkdown() {
  std::string Out =
      "<!-- Generated by libsplit-controls-doc from interpose/config/controls.def: do not edit.\n"
      "     Regenerate: cmake --build build --target libsplit-update-controls-doc -->\n"
      "# Controls\n"
      "\n"
      "libsplit is configured by environment variables, read once when the app loads "
      "`libsplit.so`. The launcher sets them from its options (`libsplit --log info -- ./app`); "
      "`libsplit --help` and `LIBSPLIT_HELP=1` print this table.\n"
      "\n"
      "- An empty value is the same as an unset variable.\n"
      "- Booleans take `1`, `true`, `yes`, `on` and `0`, `false`, `no`, `off`; keywords may be "
      "in any case.\n"
      "- A malformed value is reported on one line that names the variable, the value and the "
      "accepted forms, for example\n"
      "  `libsplit: error: LIBSPLIT_LOG: unknown value 'verbose'; accepted: error, warn, info, "
      "debug`;\n"
      "  libsplit then runs pass-through (every call goes to the native OpenCL implementation, "
      "unsplit) rather than guess what was meant.\n"
      "- A `LIBSPLIT_*` variable that is not below is reported as a warning: it is probably a "
      "typo.\n"
      "- A default in parentheses is not a value: it says what happens when the variable is "
      "unset.\n"
      "\n"
      "| Variable | Launcher option | Accepted | Default | Description |\n"
      "|---|---|---|---|---|\n";
  for (const ControlInfo &Info : Controls) {
    Out += "| `" + std::string(Info.Name) + "` | ";
    Out += Info.Option.empty() ? std::string() : "`" + std::string(Info.Option) + "`";
    Out += " | " + markdownCell(Info.Accepted) + " | ";
    Out += isDescribedDefault(Info.Default) ? markdownCell(Info.Default)
                                            : "`" + markdownCell(Info.Default) + "`";
    Out += " | " + markdownCell(Info.Help) + " |\n";
  }
  return Out;
}

} // namespace libsplit::config
