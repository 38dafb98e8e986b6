//===- config.hpp - libsplit's controls, read once from the environment ---===//
//
// The runtime calls readConfig(std::getenv) once at load and keeps the Config; tests pass their
// own lookup. Which controls exist, their types, defaults and help: controls.def, only there.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/log.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace libsplit::config {

enum class BalancerKind { Uniform, Static, FixedPoint, Broyden };
inline constexpr std::array<std::string_view, 4> BalancerNames = {"uniform", "static", "fixedpoint",
                                                                  "broyden"};

// save means load and save: the name says what the run leaves behind.
enum class TuningMode { Save, Load, Off };
inline constexpr std::array<std::string_view, 3> TuningNames = {"save", "load", "off"};

enum class DeferMode { Mprotect, Copy, Off };
inline constexpr std::array<std::string_view, 3> DeferNames = {"mprotect", "copy", "off"};

// When a host write reaches the app's own device (the others get their slices at launch).
enum class UploadMode { Auto, AtWrite, AtLaunch };
inline constexpr std::array<std::string_view, 3> UploadNames = {"auto", "at-write", "at-launch"};

// Whether a launch that can split does: auto = the planner's split guard decides from measured
// costs (LIBSPLIT_BALANCER=uniform or static: always); always = every launch that can;
// alternate = for testing, every other launch of a kernel runs whole on the app's device.
enum class SplitPolicy { Auto, Always, Alternate };
inline constexpr std::array<std::string_view, 3> SplitPolicyNames = {"auto", "always", "alternate"};

// Whether a launch with nothing measured for it is cut into chunks that the devices take while
// it runs (LIBSPLIT_CHUNK): auto = where the devices share no hardware, off = never, always =
// every launch that can split (for testing).
enum class ChunkPolicy { Auto, Off, Always };
inline constexpr std::array<std::string_view, 3> ChunkPolicyNames = {"auto", "off", "always"};

// Whether a split launch's slices queue their interiors before the bytes they lack arrive
// (LIBSPLIT_OVERLAP): auto = each kernel tries both and keeps the one whose steps take less
// time, always, off (the default).
enum class OverlapPolicy { Auto, Always, Off };
inline constexpr std::array<std::string_view, 3> OverlapPolicyNames = {"auto", "always", "off"};

// When a context opens the devices it splits across beyond the app's own (LIBSPLIT_OPEN): waited
// = once the app has waited for its device a multiple of what creating its own context took (a
// short run never pays for opening more devices); auto = waited, or once the launches it queued
// are predicted to take that long (opening in the background, the app's launches held while the
// app's device has work enough queued: an app that queues every launch and waits once at its
// end waits too late); now = when the app creates the context; after = once it has waited
// Seconds.
struct OpenPolicy {
  enum class When { Auto, Waited, Now, After };
  // Auto and Waited: the cost-driven ways.
  bool automatic() const { return What == When::Auto || What == When::Waited; }
  When What = When::Auto;
  double Seconds = 0.0; // After only
  bool operator==(const OpenPolicy &Other) const {
    return What == Other.What && Seconds == Other.Seconds;
  }
};

// The split of a launch the adaptive balancers have not measured yet.
enum class FirstSplitMode { ByType, Uniform };
inline constexpr std::array<std::string_view, 2> FirstSplitNames = {"by-type", "uniform"};

// What the runtime knows of a device when it applies LIBSPLIT_DEVICES (from clGetDeviceInfo;
// kept free of OpenCL types so that this library needs no OpenCL headers).
enum class DeviceType { Gpu, Cpu, Other };

// One item of LIBSPLIT_DEVICES.
struct DeviceSelector {
  enum class Kind { All, Gpu, Cpu, Index, Name };
  Kind What = Kind::All;
  unsigned Platform = 0; // Index only: the platform's position in clGetPlatformIDs
  unsigned Device = 0;   // Index only: the device's position in clGetDeviceIDs(ALL)
  std::string Name;      // Name only: a substring of CL_DEVICE_NAME, compared in any case

  bool operator==(const DeviceSelector &Other) const;
  bool operator!=(const DeviceSelector &Other) const { return !(*this == Other); }
};

// LIBSPLIT_DEVICES: a device is selected when any item matches it.
struct DeviceSelection {
  std::vector<DeviceSelector> Items;

  bool matches(unsigned Platform, unsigned Device, DeviceType Type, std::string_view Name) const;
  bool operator==(const DeviceSelection &Other) const { return Items == Other.Items; }
  bool operator!=(const DeviceSelection &Other) const { return !(*this == Other); }
};

// LIBSPLIT_STATIC: shares in device order ("0.6,0.4"), or per device ("pthread=0.6,basic=0.4":
// a name's share goes to the devices whose name contains it, split equally between them).
struct StaticShares {
  std::vector<std::string> Names; // empty: Values are in device order
  std::vector<double> Values;
  bool empty() const { return Values.empty(); }
  bool operator==(const StaticShares &Other) const {
    return Names == Other.Names && Values == Other.Values;
  }
};

// How a control's text is read; each kind has one C++ type, ControlType<Kind>.
enum class ControlKind {
  Bool,       // bool: 0/1, true/false, yes/no, on/off (any case)
  Count,      // unsigned: decimal integer >= 0
  Positive,   // unsigned: decimal integer >= 1
  Path,       // std::string: taken as is, not trimmed
  Level,      // LogLevel
  Categories, // DebugMask: comma list of DebugCategoryNames, or all
  Devices,    // DeviceSelection
  Balancer,   // BalancerKind
  Shares,     // StaticShares: finite, >= 0, summing to 1; in device order or by device name
  Tuning,     // TuningMode
  Defer,      // DeferMode
  FirstSplit, // FirstSplitMode
  Upload,     // UploadMode
  Split,      // SplitPolicy
  Open,       // OpenPolicy: auto, now, or seconds (a finite number >= 0)
  Chunk,      // ChunkPolicy
  Overlap,    // OverlapPolicy
};

template <ControlKind Kind> struct ControlTraits;
template <> struct ControlTraits<ControlKind::Bool> { using Type = bool; };
template <> struct ControlTraits<ControlKind::Count> { using Type = unsigned; };
template <> struct ControlTraits<ControlKind::Positive> { using Type = unsigned; };
template <> struct ControlTraits<ControlKind::Path> { using Type = std::string; };
template <> struct ControlTraits<ControlKind::Level> { using Type = LogLevel; };
template <> struct ControlTraits<ControlKind::Categories> { using Type = DebugMask; };
template <> struct ControlTraits<ControlKind::Devices> { using Type = DeviceSelection; };
template <> struct ControlTraits<ControlKind::Balancer> { using Type = BalancerKind; };
template <> struct ControlTraits<ControlKind::Shares> { using Type = StaticShares; };
template <> struct ControlTraits<ControlKind::Tuning> { using Type = TuningMode; };
template <> struct ControlTraits<ControlKind::Defer> { using Type = DeferMode; };
template <> struct ControlTraits<ControlKind::FirstSplit> { using Type = FirstSplitMode; };
template <> struct ControlTraits<ControlKind::Upload> { using Type = UploadMode; };
template <> struct ControlTraits<ControlKind::Split> { using Type = SplitPolicy; };
template <> struct ControlTraits<ControlKind::Open> { using Type = OpenPolicy; };
template <> struct ControlTraits<ControlKind::Chunk> { using Type = ChunkPolicy; };
template <> struct ControlTraits<ControlKind::Overlap> { using Type = OverlapPolicy; };
template <ControlKind Kind> using ControlType = typename ControlTraits<Kind>::Type;

enum class ControlId : unsigned {
#define LIBSPLIT_CONTROL(Kind, Name, Field, Option, Default, Accepted, Help) Field,
#include "config/controls.def"
  NumControls
};
inline constexpr std::size_t ControlCount = static_cast<std::size_t>(ControlId::NumControls);

// One row of controls.def, for rendering and lookup by name.
struct ControlInfo {
  ControlId Id;
  ControlKind Kind;
  std::string_view Name;     // with the prefix: "LIBSPLIT_LOG"
  std::string_view Option;   // the launcher's option, "" if none
  std::string_view Default;  // "(...)" describes a computed or absent default
  std::string_view Accepted; // as messages show it
  std::string_view Help;
};

inline constexpr ControlInfo Controls[] = {
#define LIBSPLIT_CONTROL(Kind, Name, Field, Option, Default, Accepted, Help)                       \
  {ControlId::Field, ControlKind::Kind, "LIBSPLIT_" #Name, Option, Default, Accepted, Help},
#include "config/controls.def"
};
static_assert(std::size(Controls) == ControlCount, "one ControlInfo per control");

inline const ControlInfo &controlInfo(ControlId Id) {
  return Controls[static_cast<std::size_t>(Id)];
}
// The row named Name ("LIBSPLIT_LOG"), or nullptr.
const ControlInfo *findControl(std::string_view Name);

struct Config {
  // Every control at its default.
  Config();

#define LIBSPLIT_CONTROL(Kind, Name, Field, Option, Default, Accepted, Help)                       \
  ControlType<ControlKind::Kind> Field;
#include "config/controls.def"

  // Which controls the environment set (to a non-empty value, well-formed or not).
  std::array<bool, ControlCount> Set{};
  bool isSet(ControlId Id) const { return Set[static_cast<std::size_t>(Id)]; }

  // One line each, without the "libsplit: " prefix, naming the variable, the bad value and the
  // accepted forms. A malformed control keeps its default.
  std::vector<std::string> Errors;
  // Well-formed but doubtful settings (a value that another control makes useless, ...).
  std::vector<std::string> Warnings;

  // The runtime must forward every call unchanged: LIBSPLIT_DISABLE asked for it, or a value
  // was malformed and libsplit does not guess what was meant. PassThroughReason says which.
  bool ForcePassThrough = false;
  std::string PassThroughReason;
};

// Returns the value of an environment variable or nullptr, like std::getenv.
using EnvLookup = std::function<const char *(const char *Name)>;

// Reads every control through Lookup (an empty value counts as unset), then checks the
// combinations and resolves LIBSPLIT_CACHE_DIR's default from XDG_CACHE_HOME or HOME.
Config readConfig(const EnvLookup &Lookup);

// Warnings for LIBSPLIT_* variables in Environment (NAME=VALUE strings, null-terminated like
// environ) that are not controls, with the nearest control name when one is close: a typo
// would otherwise be silently ignored.
std::vector<std::string> unknownControlWarnings(const char *const *Environment);

// The value in the control's canonical text (parses back to the same value).
std::string formatControl(const Config &C, ControlId Id);
// "LIBSPLIT_X=value" for each control the environment set to a value other than its default,
// in table order: what the startup log line shows.
std::vector<std::string> nonDefaultSettings(const Config &C);
// One line for the startup log: "settings: LIBSPLIT_LOG=info, ..." or "settings: all defaults".
std::string settingsLine(const Config &C);

// The controls as an aligned table for a terminal (LIBSPLIT_HELP, libsplit --help): variable,
// launcher option, accepted values and default on one line, the help below, wrapped to Width.
std::string controlsTable(std::size_t Width = 100);
// docs/controls.md, complete.
std::string controlsMarkdown();

// The parsers behind readConfig, for the launcher and tests. Each returns the problem without
// the variable's name (empty on success) and leaves Out unspecified on failure.
std::string parseDeviceSelection(std::string_view Text, DeviceSelection &Out);
std::string parseDebugCategories(std::string_view Text, DebugMask &Out);
std::string parseShares(std::string_view Text, StaticShares &Out);
// The shares of each of Devices (names, in device order); the problem (empty on success).
std::string resolveShares(const StaticShares &Shares, const std::vector<std::string> &Devices,
                          std::vector<double> &Out);
std::string formatDeviceSelection(const DeviceSelection &Selection);
std::string formatDebugCategories(DebugMask Mask);

} // namespace libsplit::config
