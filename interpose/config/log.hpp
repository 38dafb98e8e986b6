//===- log.hpp - libsplit's messages: levels, debug categories, one sink --===//
//
// Every message libsplit prints goes through one Logger that the runtime owns (no global
// instance: the runtime decides its lifetime). Each line starts with "libsplit: " so that it
// stands out in the app's own output, and each message is written with one write(2), so lines
// from several threads (or processes sharing LIBSPLIT_LOG_FILE) never interleave.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>

namespace libsplit::config {

// Ordered by verbosity: a message prints when its level is <= the logger's level.
enum class LogLevel { Error, Warn, Info, Debug };
inline constexpr std::array<std::string_view, 4> LogLevelNames = {"error", "warn", "info", "debug"};

// Debug messages are selected per category (LIBSPLIT_DEBUG), so that debugging the memory
// tracker does not drown in per-launch split details.
enum class DebugCategory { Split, Mem, Events, Api, Compile, Balance };
inline constexpr std::array<std::string_view, 6> DebugCategoryNames = {
    "split", "mem", "events", "api", "compile", "balance"};

using DebugMask = std::uint32_t;
constexpr DebugMask debugBit(DebugCategory Category) {
  return DebugMask(1) << static_cast<unsigned>(Category);
}
inline constexpr DebugMask AllDebugCategories = (DebugMask(1) << DebugCategoryNames.size()) - 1;

namespace detail {
// Appends one part of a message. Numbers go through to_chars rather than iostreams because the
// app may have installed a global locale that would print "1,024" or "0,5".
template <typename T> void appendPart(std::string &Out, const T &Part) {
  using Plain = std::decay_t<T>;
  if constexpr (std::is_same_v<Plain, bool>) {
    Out += Part ? "true" : "false";
  } else if constexpr (std::is_same_v<Plain, char>) {
    Out += Part;
  } else if constexpr (!std::is_array_v<T> &&
                       (std::is_same_v<Plain, const char *> || std::is_same_v<Plain, char *>)) {
    Out += Part ? std::string_view(Part) : std::string_view("(null)");
  } else if constexpr (std::is_convertible_v<const T &, std::string_view>) {
    Out += std::string_view(Part);
  } else if constexpr (std::is_arithmetic_v<Plain>) {
    char Buffer[64];
    auto Result = std::to_chars(Buffer, Buffer + sizeof(Buffer), Part);
    Out.append(Buffer, Result.ptr);
  } else if constexpr (std::is_enum_v<Plain>) {
    appendPart(Out, static_cast<std::underlying_type_t<Plain>>(Part));
  } else if constexpr (std::is_pointer_v<Plain>) {
    char Buffer[2 + 2 * sizeof(void *)] = {'0', 'x'};
    auto Result = std::to_chars(Buffer + 2, Buffer + sizeof(Buffer),
                                reinterpret_cast<std::uintptr_t>(Part), 16);
    Out.append(Buffer, Result.ptr);
  } else {
    static_assert(!sizeof(T), "no message formatting for this type; convert it to text first");
  }
}

template <typename... Parts> std::string formatMessage(const Parts &...Part) {
  std::string Out;
  (appendPart(Out, Part), ...);
  return Out;
}
} // namespace detail

class Logger {
public:
  // Messages up to Level print, plus debug messages of the categories in Categories. Level
  // Debug with no category selected means every category. They go to stderr, or are appended
  // to FilePath when it is not empty; a file that cannot be opened is reported once on stderr
  // (see fileError()) and stderr is used instead, because losing the messages silently would
  // be worse than putting them in the wrong place.
  explicit Logger(LogLevel Level = LogLevel::Warn, DebugMask Categories = 0,
                  const std::string &FilePath = {});
  ~Logger();
  Logger(const Logger &) = delete;
  Logger &operator=(const Logger &) = delete;

  // Cheap checks (one compare, one bit test): callers that build expensive messages test first.
  bool enabled(LogLevel Level) const { return Level <= MaxLevel; }
  bool enabled(DebugCategory Category) const { return (Categories & debugBit(Category)) != 0; }

  LogLevel level() const { return MaxLevel; }
  DebugMask categories() const { return Categories; }
  // Why LIBSPLIT_LOG_FILE could not be opened (strerror text); empty when it was, or unset.
  const std::string &fileError() const { return FileError; }

  // Each takes the parts of one message: text, numbers, bools, pointers, concatenated. A
  // message may hold several lines; each is printed with the prefix.
  template <typename... Parts> void error(const Parts &...Part) { log(LogLevel::Error, Part...); }
  template <typename... Parts> void warn(const Parts &...Part) { log(LogLevel::Warn, Part...); }
  template <typename... Parts> void info(const Parts &...Part) { log(LogLevel::Info, Part...); }
  template <typename... Parts> void debug(DebugCategory Category, const Parts &...Part) {
    if (enabled(Category))
      write(debugPrefix(Category), detail::formatMessage(Part...));
  }
  template <typename... Parts> void log(LogLevel Level, const Parts &...Part) {
    if (enabled(Level))
      write(levelPrefix(Level), detail::formatMessage(Part...));
  }

  // Logs the message only the first time Key is seen by this logger, for conditions that hold
  // for the rest of the run ("kernel X runs unsplit: reason"). Returns whether it printed.
  template <typename... Parts>
  bool once(std::string_view Key, LogLevel Level, const Parts &...Part) {
    if (!enabled(Level) || !firstTime(Key))
      return false;
    write(levelPrefix(Level), detail::formatMessage(Part...));
    return true;
  }

private:
  static std::string_view levelPrefix(LogLevel Level);
  static std::string_view debugPrefix(DebugCategory Category);
  bool firstTime(std::string_view Key);
  // Prefixes every line of Message with "libsplit: " and Prefix, and writes it all at once.
  void write(std::string_view Prefix, std::string_view Message);

  const LogLevel MaxLevel;
  const DebugMask Categories;
  int Fd = 2;          // stderr unless LIBSPLIT_LOG_FILE opened
  bool OwnsFd = false; // only a file we opened is closed: stderr belongs to the app
  std::string FileError;
  std::mutex Mutex; // guards Seen and orders writes
  std::unordered_set<std::string> Seen;
};

} // namespace libsplit::config
