// The controls table and Config: defaults, every control's good and bad values with the exact
// message, combinations, device selectors, the startup settings line, the help renderings.
#include "config/config.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace libsplit::config;

namespace {

using Environment = std::map<std::string, std::string>;

// readConfig over a fixed environment; HOME is set unless the test says otherwise, so that
// the cache directory has its usual default.
Config readWith(Environment Values, bool WithHome = true) {
  if (WithHome && !Values.count("HOME"))
    Values["HOME"] = "/home/user";
  return readConfig([&Values](const char *Name) -> const char * {
    auto Found = Values.find(Name);
    return Found == Values.end() ? nullptr : Found->second.c_str();
  });
}

std::string join(const std::vector<std::string_view> &Items) {
  std::string Out;
  for (std::string_view Item : Items)
    Out += (Out.empty() ? "" : ", ") + std::string(Item);
  return Out;
}

template <std::size_t N> std::string join(const std::array<std::string_view, N> &Names) {
  return join(std::vector<std::string_view>(Names.begin(), Names.end()));
}

ControlId idOf(std::string_view Name) {
  const ControlInfo *Info = findControl(Name);
  REQUIRE(Info);
  return Info->Id;
}

} // namespace

TEST_CASE("unset controls take the table's defaults", "[config]") {
  Config C = readWith({});
  CHECK(C.Errors.empty());
  CHECK(C.Warnings.empty());
  CHECK_FALSE(C.ForcePassThrough);
  CHECK(C.PassThroughReason.empty());
  CHECK_FALSE(C.Disable);
  REQUIRE(C.Devices.Items.size() == 1);
  CHECK(C.Devices.Items[0].What == DeviceSelector::Kind::All);
  CHECK(C.Subdevices == 0);
  CHECK(C.Log == LogLevel::Warn);
  CHECK(C.LogFile.empty());
  CHECK(C.Debug == 0);
  CHECK_FALSE(C.Help);
  CHECK_FALSE(C.Summary);
  CHECK(C.Balancer == BalancerKind::Broyden);
  CHECK(C.Static.empty());
  CHECK(C.Tuning == TuningMode::Save);
  CHECK(C.Trace.empty());
  CHECK(C.Timeline.empty());
  CHECK(C.Defer == DeferMode::Mprotect);
  CHECK(C.FirstSplit == FirstSplitMode::ByType);
  CHECK(C.Upload == UploadMode::Auto);
  CHECK(C.Split == SplitPolicy::Auto);
  CHECK(C.Chunk == ChunkPolicy::Auto);
  CHECK(C.Open.What == OpenPolicy::When::Auto);
  CHECK(C.CacheDir == "/home/user/.cache/libsplit");
  CHECK(C.Cc.empty());
  CHECK(C.MinGroupsPerDevice == 1);
  CHECK(C.Library.empty());
  for (const ControlInfo &Info : Controls)
    CHECK_FALSE(C.isSet(Info.Id));
  CHECK(nonDefaultSettings(C).empty());
  CHECK(settingsLine(C) == "settings: all defaults");
}

TEST_CASE("every literal default reads back as itself", "[config]") {
  Config Defaults;
  for (const ControlInfo &Info : Controls) {
    if (Info.Default.substr(0, 1) == "(")
      continue;
    INFO(Info.Name);
    CHECK(formatControl(Defaults, Info.Id) == Info.Default);
  }
}

TEST_CASE("keyword controls list exactly the parser's names", "[config]") {
  CHECK(controlInfo(ControlId::Log).Accepted == join(LogLevelNames));
  CHECK(controlInfo(ControlId::Balancer).Accepted == join(BalancerNames));
  CHECK(controlInfo(ControlId::Tuning).Accepted == join(TuningNames));
  CHECK(controlInfo(ControlId::Defer).Accepted == join(DeferNames));
  CHECK(controlInfo(ControlId::FirstSplit).Accepted == join(FirstSplitNames));
  CHECK(controlInfo(ControlId::Upload).Accepted == join(UploadNames));
  CHECK(controlInfo(ControlId::Split).Accepted == join(SplitPolicyNames));
  CHECK(controlInfo(ControlId::Chunk).Accepted == join(ChunkPolicyNames));
  CHECK(controlInfo(ControlId::Debug).Accepted == join(DebugCategoryNames) + ", all; comma list");
  for (const ControlInfo &Info : Controls) {
    INFO(Info.Name);
    if (Info.Kind == ControlKind::Bool)
      CHECK(Info.Accepted == "0, 1");
    CHECK(Info.Name.substr(0, 9) == "LIBSPLIT_");
    CHECK_FALSE(Info.Help.empty());
    CHECK(Info.Help.find('\n') == std::string_view::npos);
    CHECK((Info.Option.empty() || Info.Option.substr(0, 2) == "--"));
  }
}

TEST_CASE("well-formed values are read and reported as non-default", "[config]") {
  struct Case {
    const char *Name;
    const char *Value;
    const char *Canonical;
  };
  const Case Cases[] = {
      {"LIBSPLIT_DISABLE", "1", "1"},
      {"LIBSPLIT_DISABLE", " Yes ", "1"},
      {"LIBSPLIT_DISABLE", "off", "0"},
      {"LIBSPLIT_DISABLE", "TRUE", "1"},
      {"LIBSPLIT_DEVICES", "gpu", "gpu"},
      {"LIBSPLIT_DEVICES", "0:0, 1:0,", "0:0,1:0"},
      {"LIBSPLIT_DEVICES", "H200", "H200"},
      {"LIBSPLIT_DEVICES", "CPU,name:gpu", "cpu,name:gpu"},
      {"LIBSPLIT_SUBDEVICES", "4", "4"},
      {"LIBSPLIT_SUBDEVICES", "0", "0"},
      {"LIBSPLIT_LOG", "info", "info"},
      {"LIBSPLIT_LOG", "DEBUG", "debug"},
      {"LIBSPLIT_LOG", "error", "error"},
      {"LIBSPLIT_LOG_FILE", "/tmp/libsplit.log", "/tmp/libsplit.log"},
      {"LIBSPLIT_DEBUG", "mem, split", "split,mem"},
      {"LIBSPLIT_DEBUG", "all", "all"},
      {"LIBSPLIT_DEBUG", "events,api,compile,balance", "events,api,compile,balance"},
      {"LIBSPLIT_HELP", "1", "1"},
      {"LIBSPLIT_SUMMARY", "on", "1"},
      {"LIBSPLIT_PEER_COPY", "off", "0"},
      {"LIBSPLIT_RELAY", "off", "0"},
      {"LIBSPLIT_OVERLAP", "always", "always"},
      {"LIBSPLIT_BALANCER", "uniform", "uniform"},
      {"LIBSPLIT_BALANCER", "FixedPoint", "fixedpoint"},
      {"LIBSPLIT_BALANCER", "broyden", "broyden"},
      {"LIBSPLIT_STATIC", "0.6,0.4", "0.6,0.4"},
      {"LIBSPLIT_STATIC", "0.25, 0.25, 0.5", "0.25,0.25,0.5"},
      {"LIBSPLIT_FIRST_SPLIT", "uniform", "uniform"},
      {"LIBSPLIT_FIRST_SPLIT", "By-Type", "by-type"},
      {"LIBSPLIT_UPLOAD", "at-write", "at-write"},
      {"LIBSPLIT_UPLOAD", "AT-LAUNCH", "at-launch"},
      {"LIBSPLIT_SPLIT", "Always", "always"},
      {"LIBSPLIT_OPEN", "Now", "now"},
      {"LIBSPLIT_OPEN", "WAITED", "waited"},
      {"LIBSPLIT_CHUNK", " OFF", "off"},
      {"LIBSPLIT_OPEN", " 2.5 ", "2.5"},
      {"LIBSPLIT_OPEN", "0", "0"},
      {"LIBSPLIT_TUNING", "load", "load"},
      {"LIBSPLIT_TUNING", "off", "off"},
      {"LIBSPLIT_TRACE", "trace.jsonl", "trace.jsonl"},
      {"LIBSPLIT_TIMELINE", "/tmp/timeline.json", "/tmp/timeline.json"},
      {"LIBSPLIT_DEFER", "copy", "copy"},
      {"LIBSPLIT_DEFER", "off", "off"},
      {"LIBSPLIT_CACHE_DIR", "/var/cache/ls", "/var/cache/ls"},
      {"LIBSPLIT_CC", "/opt/libsplit/libexec/libsplit-cc", "/opt/libsplit/libexec/libsplit-cc"},
      {"LIBSPLIT_MIN_GROUPS_PER_DEVICE", "8", "8"},
      {"LIBSPLIT_FAIL_LAUNCH", "2", "2"},
      {"LIBSPLIT_SIMULATED_SHARES", "basic=0.25,pthread=0.75", "basic=0.25,pthread=0.75"},
      {"LIBSPLIT_SIMULATED_SPLIT_US", "300", "300"},
      {"LIBSPLIT_LIBRARY", "/opt/libsplit/lib/libsplit.so", "/opt/libsplit/lib/libsplit.so"},
  };
  std::set<std::string> Covered;
  for (const Case &Test : Cases) {
    INFO(Test.Name << "=" << Test.Value);
    Config C = readWith({{Test.Name, Test.Value}});
    ControlId Id = idOf(Test.Name);
    CHECK(C.Errors.empty());
    CHECK(C.isSet(Id));
    CHECK(formatControl(C, Id) == Test.Canonical);
    CHECK(C.ForcePassThrough == (Id == ControlId::Disable && C.Disable));
    std::vector<std::string> Settings = nonDefaultSettings(C);
    bool IsDefault = Test.Canonical == formatControl(Config(), Id);
    CHECK(Settings ==
          (IsDefault ? std::vector<std::string>{}
                     : std::vector<std::string>{std::string(Test.Name) + "=" + Test.Canonical}));
    Covered.insert(Test.Name);
  }
  for (const ControlInfo &Info : Controls)
    CHECK(Covered.count(std::string(Info.Name)));
}

#define STATIC_FORMS                                                                               \
  "shares summing to 1, in device order (0.6,0.4) or by name (pthread=0.6,basic=0.4)"

TEST_CASE("a malformed value gives one exact line and forces pass-through", "[config]") {
  struct Case {
    const char *Name;
    const char *Value;
    const char *Message;
  };
  const Case Cases[] = {
      {"LIBSPLIT_DISABLE", "maybe", "LIBSPLIT_DISABLE: unknown value 'maybe'; accepted: 0, 1"},
      {"LIBSPLIT_DEVICES", "0:x",
       "LIBSPLIT_DEVICES: '0:x' is not a P:D index pair; accepted: all, gpu, cpu, P:D, NAME; "
       "comma list"},
      {"LIBSPLIT_DEVICES", "0:0,1:",
       "LIBSPLIT_DEVICES: '1:' is not a P:D index pair in '0:0,1:'; accepted: all, gpu, cpu, "
       "P:D, NAME; comma list"},
      {"LIBSPLIT_DEVICES", "3",
       "LIBSPLIT_DEVICES: '3' is ambiguous: write P:D for an index or name:3 for a name; "
       "accepted: all, gpu, cpu, P:D, NAME; comma list"},
      {"LIBSPLIT_DEVICES", " , ",
       "LIBSPLIT_DEVICES: ' , ' selects no device; accepted: all, gpu, cpu, P:D, NAME; comma "
       "list"},
      {"LIBSPLIT_DEVICES", "gpu,name:",
       "LIBSPLIT_DEVICES: 'name:' names no device in 'gpu,name:'; accepted: all, gpu, cpu, P:D, "
       "NAME; comma list"},
      {"LIBSPLIT_SUBDEVICES", "-1",
       "LIBSPLIT_SUBDEVICES: '-1' is not a whole number; accepted: integer >= 0"},
      {"LIBSPLIT_SUBDEVICES", "99999999999",
       "LIBSPLIT_SUBDEVICES: '99999999999' is too large; accepted: integer >= 0"},
      {"LIBSPLIT_LOG", "verbose",
       "LIBSPLIT_LOG: unknown value 'verbose'; accepted: error, warn, info, debug"},
      {"LIBSPLIT_DEBUG", "mem,spilt",
       "LIBSPLIT_DEBUG: unknown category 'spilt' in 'mem,spilt'; accepted: split, mem, events, "
       "api, compile, balance, all; comma list"},
      {"LIBSPLIT_HELP", "2", "LIBSPLIT_HELP: unknown value '2'; accepted: 0, 1"},
      {"LIBSPLIT_SUMMARY", "yes please",
       "LIBSPLIT_SUMMARY: unknown value 'yes please'; accepted: 0, 1"},
      {"LIBSPLIT_PEER_COPY", "host", "LIBSPLIT_PEER_COPY: unknown value 'host'; accepted: 0, 1"},
      {"LIBSPLIT_RELAY", "ring", "LIBSPLIT_RELAY: unknown value 'ring'; accepted: 0, 1"},
      {"LIBSPLIT_OVERLAP", "later",
       "LIBSPLIT_OVERLAP: unknown value 'later'; accepted: auto, always, off"},
      {"LIBSPLIT_BALANCER", "broydn",
       "LIBSPLIT_BALANCER: unknown value 'broydn'; accepted: uniform, static, fixedpoint, "
       "broyden"},
      {"LIBSPLIT_STATIC", "0.6,abc",
       "LIBSPLIT_STATIC: share 2 'abc' is not a number in '0.6,abc'; accepted: " STATIC_FORMS},
      {"LIBSPLIT_STATIC", "0.5,0.4",
       "LIBSPLIT_STATIC: shares '0.5,0.4' sum to 0.9, not 1; accepted: " STATIC_FORMS},
      {"LIBSPLIT_STATIC", "-0.5,1.5",
       "LIBSPLIT_STATIC: share 1 '-0.5' is negative in '-0.5,1.5'; accepted: " STATIC_FORMS},
      {"LIBSPLIT_STATIC", ",", "LIBSPLIT_STATIC: no shares in ','; accepted: " STATIC_FORMS},
      {"LIBSPLIT_SIMULATED_SHARES", "0.5,0.6",
       "LIBSPLIT_SIMULATED_SHARES: shares '0.5,0.6' sum to 1.1, not 1; accepted: " STATIC_FORMS},
      {"LIBSPLIT_TUNING", "both",
       "LIBSPLIT_TUNING: unknown value 'both'; accepted: save, load, off"},
      {"LIBSPLIT_DEFER", "lazy",
       "LIBSPLIT_DEFER: unknown value 'lazy'; accepted: mprotect, copy, off"},
      {"LIBSPLIT_FIRST_SPLIT", "bytype",
       "LIBSPLIT_FIRST_SPLIT: unknown value 'bytype'; accepted: by-type, uniform"},
      {"LIBSPLIT_UPLOAD", "eager",
       "LIBSPLIT_UPLOAD: unknown value 'eager'; accepted: auto, at-write, at-launch"},
      {"LIBSPLIT_CHUNK", "yes", "LIBSPLIT_CHUNK: unknown value 'yes'; accepted: auto, off, always"},
      {"LIBSPLIT_OPEN", "later",
       "LIBSPLIT_OPEN: unknown value 'later'; accepted: auto, waited, now, seconds >= 0"},
      {"LIBSPLIT_OPEN", "-1",
       "LIBSPLIT_OPEN: unknown value '-1'; accepted: auto, waited, now, seconds >= 0"},
      {"LIBSPLIT_OPEN", "2s",
       "LIBSPLIT_OPEN: unknown value '2s'; accepted: auto, waited, now, seconds >= 0"},
      {"LIBSPLIT_SPLIT", "never",
       "LIBSPLIT_SPLIT: unknown value 'never'; accepted: auto, always, alternate"},
      {"LIBSPLIT_MIN_GROUPS_PER_DEVICE", "0",
       "LIBSPLIT_MIN_GROUPS_PER_DEVICE: '0' is less than 1; accepted: integer >= 1"},
      {"LIBSPLIT_MIN_GROUPS_PER_DEVICE", "1.5",
       "LIBSPLIT_MIN_GROUPS_PER_DEVICE: '1.5' is not a whole number; accepted: integer >= 1"},
      {"LIBSPLIT_FAIL_LAUNCH", "-1",
       "LIBSPLIT_FAIL_LAUNCH: '-1' is not a whole number; accepted: integer >= 0"},
      {"LIBSPLIT_SIMULATED_SPLIT_US", "0.3",
       "LIBSPLIT_SIMULATED_SPLIT_US: '0.3' is not a whole number; accepted: integer >= 0"},
  };
  std::set<std::string> Covered;
  Config Defaults;
  for (const Case &Test : Cases) {
    INFO(Test.Name << "=" << Test.Value);
    Config C = readWith({{Test.Name, Test.Value}});
    ControlId Id = idOf(Test.Name);
    CHECK(C.Errors == std::vector<std::string>{Test.Message});
    CHECK(C.ForcePassThrough);
    CHECK(C.PassThroughReason == "malformed " + std::string(Test.Name));
    CHECK(C.isSet(Id));
    CHECK(formatControl(C, Id) == formatControl(Defaults, Id)); // keeps its default
    Covered.insert(Test.Name);
  }
  // Every control that can be malformed has a case: a new row in controls.def needs one here.
  for (const ControlInfo &Info : Controls) {
    if (Info.Kind != ControlKind::Path)
      CHECK(Covered.count(std::string(Info.Name)));
  }
}

TEST_CASE("values are quoted safely in messages", "[config]") {
  Config C = readWith({{"LIBSPLIT_LOG", "a\nb"}});
  CHECK(C.Errors ==
        std::vector<std::string>{
            "LIBSPLIT_LOG: unknown value 'a\\x0ab'; accepted: error, warn, info, debug"});
  C = readWith({{"LIBSPLIT_TUNING", std::string(100, 'x')}});
  REQUIRE(C.Errors.size() == 1);
  CHECK(C.Errors[0] == "LIBSPLIT_TUNING: unknown value '" + std::string(60, 'x') +
                           "...'; accepted: save, load, off");
}

TEST_CASE("an empty value is the same as unset", "[config]") {
  Config C = readWith({{"LIBSPLIT_LOG", ""}, {"LIBSPLIT_DEVICES", ""}});
  CHECK(C.Errors.empty());
  CHECK_FALSE(C.isSet(ControlId::Log));
  CHECK(C.Log == LogLevel::Warn);
  CHECK(formatControl(C, ControlId::Devices) == "all");
}

TEST_CASE("every malformed control is reported, the pass-through reason names them all",
          "[config]") {
  Config C =
      readWith({{"LIBSPLIT_LOG", "loud"}, {"LIBSPLIT_DEFER", "later"}, {"LIBSPLIT_SUMMARY", "1"}});
  CHECK(C.Errors.size() == 2);
  CHECK(C.ForcePassThrough);
  CHECK(C.PassThroughReason == "malformed LIBSPLIT_LOG, LIBSPLIT_DEFER");
  CHECK(C.Summary); // the well-formed ones still apply
}

TEST_CASE("LIBSPLIT_DISABLE forces pass-through", "[config]") {
  Config C = readWith({{"LIBSPLIT_DISABLE", "1"}});
  CHECK(C.Errors.empty());
  CHECK(C.ForcePassThrough);
  CHECK(C.PassThroughReason == "LIBSPLIT_DISABLE is set");
}

TEST_CASE("LIBSPLIT_STATIC and LIBSPLIT_BALANCER together", "[config]") {
  SECTION("shares alone select the static balancer") {
    Config C = readWith({{"LIBSPLIT_STATIC", "0.6,0.4"}});
    CHECK(C.Errors.empty());
    CHECK(C.Warnings.empty());
    CHECK(C.Balancer == BalancerKind::Static);
    CHECK(C.Static.Values == std::vector<double>{0.6, 0.4});
    CHECK(C.Static.Names.empty());
    CHECK(settingsLine(C) == "settings: LIBSPLIT_STATIC=0.6,0.4");
  }
  SECTION("static without shares is malformed") {
    Config C = readWith({{"LIBSPLIT_BALANCER", "static"}});
    CHECK(C.Errors == std::vector<std::string>{"LIBSPLIT_BALANCER: 'static' needs the shares in "
                                               "LIBSPLIT_STATIC, e.g. LIBSPLIT_STATIC=0.6,0.4"});
    CHECK(C.ForcePassThrough);
    CHECK(C.PassThroughReason == "malformed LIBSPLIT_BALANCER");
  }
  SECTION("malformed shares are reported once, not twice") {
    Config C = readWith({{"LIBSPLIT_BALANCER", "static"}, {"LIBSPLIT_STATIC", "x"}});
    REQUIRE(C.Errors.size() == 1);
    CHECK(C.Errors[0].rfind("LIBSPLIT_STATIC: ", 0) == 0);
  }
  SECTION("another explicit balancer wins, with a warning") {
    Config C = readWith({{"LIBSPLIT_BALANCER", "broyden"}, {"LIBSPLIT_STATIC", "0.5,0.5"}});
    CHECK(C.Errors.empty());
    CHECK(C.Balancer == BalancerKind::Broyden);
    CHECK(C.Warnings == std::vector<std::string>{"LIBSPLIT_STATIC is ignored: LIBSPLIT_BALANCER "
                                                 "is broyden, not static"});
    CHECK_FALSE(C.ForcePassThrough);
  }
}

TEST_CASE("LIBSPLIT_STATIC by device name", "[config][shares]") {
  const std::vector<std::string> Devices = {"NVIDIA H200", "NVIDIA H200",
                                            "pthread-skylake-avx512-Intel(R) Xeon(R)"};
  SECTION("a name's share is split between the devices it names, any case") {
    Config C = readWith({{"LIBSPLIT_STATIC", "nvidia=0.9, pthread=0.1"}});
    CHECK(C.Errors.empty());
    CHECK(C.Balancer == BalancerKind::Static);
    CHECK(C.Static.Names == std::vector<std::string>{"nvidia", "pthread"});
    CHECK(settingsLine(C) == "settings: LIBSPLIT_STATIC=nvidia=0.9,pthread=0.1");
    std::vector<double> Shares;
    CHECK(resolveShares(C.Static, Devices, Shares).empty());
    CHECK(Shares == std::vector<double>{0.45, 0.45, 0.1});
  }
  SECTION("shares in device order must match the device count") {
    StaticShares Ordered;
    REQUIRE(parseShares("0.5,0.3,0.2", Ordered).empty());
    std::vector<double> Shares;
    CHECK(resolveShares(Ordered, Devices, Shares).empty());
    CHECK(Shares == std::vector<double>{0.5, 0.3, 0.2});
    REQUIRE(parseShares("0.5,0.5", Ordered).empty());
    CHECK(resolveShares(Ordered, Devices, Shares) == "2 shares given for 3 devices");
  }
  SECTION("every device has exactly one name") {
    StaticShares Named;
    std::vector<double> Shares;
    REQUIRE(parseShares("H200=0.9,avx=0.1", Named).empty());
    CHECK(resolveShares(Named, Devices, Shares).empty());
    REQUIRE(parseShares("nvidia=1", Named).empty());
    CHECK(resolveShares(Named, Devices, Shares) ==
          "no share names device 'pthread-skylake-avx512-Intel(R) Xeon(R)'");
    REQUIRE(parseShares("nvidia=0.5,amd=0.5", Named).empty());
    CHECK(resolveShares(Named, Devices, Shares) == "'amd' matches no device");
    REQUIRE(parseShares("nvidia=0.5,h200=0.4,pthread=0.1", Named).empty());
    CHECK(resolveShares(Named, Devices, Shares) ==
          "device 'NVIDIA H200' matches both 'nvidia' and 'h200'");
  }
  SECTION("malformed named shares") {
    StaticShares Named;
    CHECK(parseShares("nvidia=0.5,0.5", Named) ==
          "mix of shares with and without a device name in 'nvidia=0.5,0.5'");
    CHECK(parseShares("=1", Named) == "share 1 '=1' names no device");
    CHECK(parseShares("gpu=x,cpu=1", Named).rfind("share 1 'gpu=x' is not a number", 0) == 0);
    CHECK(parseShares("gpu=0.5,cpu=0.6", Named) == "shares 'gpu=0.5,cpu=0.6' sum to 1.1, not 1");
  }
}

TEST_CASE("the cache directory follows XDG, then HOME", "[config]") {
  CHECK(readWith({{"XDG_CACHE_HOME", "/xdg"}}).CacheDir == "/xdg/libsplit");
  // A relative XDG_CACHE_HOME is invalid by the XDG spec and ignored.
  CHECK(readWith({{"XDG_CACHE_HOME", "rel"}}).CacheDir == "/home/user/.cache/libsplit");
  CHECK(readWith({{"LIBSPLIT_CACHE_DIR", "/mine"}, {"XDG_CACHE_HOME", "/xdg"}}).CacheDir ==
        "/mine");
  Config Homeless = readWith({}, /*WithHome=*/false);
  CHECK(Homeless.CacheDir.empty());
  CHECK(Homeless.Warnings ==
        std::vector<std::string>{"LIBSPLIT_CACHE_DIR: no default without HOME or "
                                 "XDG_CACHE_HOME; compiled kernels and tuning are not kept "
                                 "between runs"});
  CHECK(Homeless.Errors.empty());
  CHECK(nonDefaultSettings(readWith({{"XDG_CACHE_HOME", "/xdg"}})).empty());
}

TEST_CASE("device selectors", "[config][devices]") {
  DeviceSelection S;
  SECTION("indices") {
    REQUIRE(parseDeviceSelection("0:0,1:0", S).empty());
    REQUIRE(S.Items.size() == 2);
    CHECK(S.Items[0].What == DeviceSelector::Kind::Index);
    CHECK(S.Items[0].Platform == 0);
    CHECK(S.Items[0].Device == 0);
    CHECK(S.Items[1].Platform == 1);
    CHECK(S.Items[1].Device == 0);
    CHECK(S.matches(0, 0, DeviceType::Gpu, "NVIDIA H200"));
    CHECK(S.matches(1, 0, DeviceType::Cpu, "pthread"));
    CHECK_FALSE(S.matches(0, 1, DeviceType::Gpu, "NVIDIA H200"));
    CHECK(formatDeviceSelection(S) == "0:0,1:0");
  }
  SECTION("types") {
    REQUIRE(parseDeviceSelection("gpu", S).empty());
    CHECK(S.matches(0, 3, DeviceType::Gpu, "x"));
    CHECK_FALSE(S.matches(1, 0, DeviceType::Cpu, "x"));
    REQUIRE(parseDeviceSelection("CPU", S).empty());
    CHECK(S.matches(1, 0, DeviceType::Cpu, "x"));
    CHECK_FALSE(S.matches(0, 0, DeviceType::Gpu, "x"));
    CHECK_FALSE(S.matches(0, 0, DeviceType::Other, "x"));
  }
  SECTION("all") {
    REQUIRE(parseDeviceSelection("all", S).empty());
    CHECK(S.matches(7, 7, DeviceType::Other, ""));
    CHECK(readWith({}).Devices == S);
  }
  SECTION("a name substring, in any case") {
    REQUIRE(parseDeviceSelection("H200", S).empty());
    REQUIRE(S.Items.size() == 1);
    CHECK(S.Items[0].What == DeviceSelector::Kind::Name);
    CHECK(S.Items[0].Name == "H200");
    CHECK(S.matches(0, 0, DeviceType::Gpu, "NVIDIA H200"));
    CHECK(S.matches(0, 1, DeviceType::Gpu, "nvidia h200 nvl"));
    CHECK_FALSE(S.matches(0, 2, DeviceType::Gpu, "NVIDIA A100"));
  }
  SECTION("names that look like something else need name:") {
    REQUIRE(parseDeviceSelection("name:gpu,name:3090,pthread-cpu", S).empty());
    REQUIRE(S.Items.size() == 3);
    CHECK(S.Items[0].What == DeviceSelector::Kind::Name);
    CHECK(S.Items[0].Name == "gpu");
    CHECK(S.Items[1].Name == "3090");
    CHECK(S.Items[2].Name == "pthread-cpu");
    CHECK(formatDeviceSelection(S) == "name:gpu,name:3090,pthread-cpu");
    CHECK(S.matches(0, 0, DeviceType::Gpu, "GeForce RTX 3090"));
  }
  SECTION("mixed lists select the union") {
    REQUIRE(parseDeviceSelection("gpu,1:0", S).empty());
    CHECK(S.matches(0, 0, DeviceType::Gpu, "a"));
    CHECK(S.matches(1, 0, DeviceType::Cpu, "b"));
    CHECK_FALSE(S.matches(1, 1, DeviceType::Cpu, "c"));
  }
  SECTION("formatting reads back to the same selection") {
    for (const char *Text : {"all", "gpu,cpu", "0:1,2:3", "H200", "name:all", "name:1:2",
                             "name:name:x", "Intel(R) Xeon"}) {
      INFO(Text);
      REQUIRE(parseDeviceSelection(Text, S).empty());
      DeviceSelection Again;
      REQUIRE(parseDeviceSelection(formatDeviceSelection(S), Again).empty());
      CHECK(Again == S);
    }
  }
}

TEST_CASE("unknown LIBSPLIT_ variables are reported, with a suggestion", "[config]") {
  const char *Environment[] = {
      "PATH=/bin",      "LIBSPLIT_LOG=info",     "LIBSPLIT_DEVICE=gpu",
      "libsplit_log=x", "LIBSPLIT_FROBNICATE=1", "LIBSPLIT_log_file=/tmp/x",
      nullptr};
  CHECK(unknownControlWarnings(Environment) ==
        std::vector<std::string>{
            "LIBSPLIT_DEVICE is not a libsplit control and is ignored; did you mean "
            "LIBSPLIT_DEVICES? (libsplit --help lists the controls)",
            "LIBSPLIT_FROBNICATE is not a libsplit control and is ignored (libsplit --help "
            "lists the controls)",
            "LIBSPLIT_log_file is not a libsplit control and is ignored; did you mean "
            "LIBSPLIT_LOG_FILE? (libsplit --help lists the controls)"});
  CHECK(unknownControlWarnings(nullptr).empty());
}

TEST_CASE("the settings line lists non-default values in table order", "[config]") {
  Config C = readWith({{"LIBSPLIT_LOG", "info"},
                       {"LIBSPLIT_DEVICES", "gpu"},
                       {"LIBSPLIT_DEFER", "mprotect"}, // set, but to the default
                       {"LIBSPLIT_DEBUG", "mem"}});
  CHECK(nonDefaultSettings(C) == std::vector<std::string>{"LIBSPLIT_DEVICES=gpu",
                                                          "LIBSPLIT_LOG=info",
                                                          "LIBSPLIT_DEBUG=mem"});
  CHECK(settingsLine(C) == "settings: LIBSPLIT_DEVICES=gpu, LIBSPLIT_LOG=info, LIBSPLIT_DEBUG=mem");
}

TEST_CASE("the help table holds every control, within the width", "[config][render]") {
  std::string Table = controlsTable(100);
  for (const ControlInfo &Info : Controls) {
    INFO(Info.Name);
    CHECK(Table.find("\n" + std::string(Info.Name) + " ") != std::string::npos);
    CHECK(Table.find(std::string(Info.Default)) != std::string::npos);
    if (!Info.Option.empty())
      CHECK(Table.find("[" + std::string(Info.Option) + "]") != std::string::npos);
  }
  std::istringstream Lines(Table);
  std::string Line;
  while (std::getline(Lines, Line)) {
    INFO(Line);
    CHECK(Line.size() <= 100);
  }
}

TEST_CASE("the markdown reference holds every control's row", "[config][render]") {
  std::string Markdown = controlsMarkdown();
  CHECK(Markdown.rfind("<!-- Generated by libsplit-controls-doc", 0) == 0);
  for (const ControlInfo &Info : Controls) {
    INFO(Info.Name);
    std::string Row = "| `" + std::string(Info.Name) + "` | ";
    std::size_t At = Markdown.find(Row);
    REQUIRE(At != std::string::npos);
    std::string Line = Markdown.substr(At, Markdown.find('\n', At) - At);
    CHECK(Line.find(std::string(Info.Option)) != std::string::npos);
    CHECK(Line.find(std::string(Info.Accepted)) != std::string::npos);
    CHECK(Line.find(std::string(Info.Default)) != std::string::npos);
    CHECK(Line.find(std::string(Info.Help)) != std::string::npos);
  }
}
