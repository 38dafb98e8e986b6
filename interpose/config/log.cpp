//===- log.cpp - The Logger: prefixing, one write(2) per message ----------===//
#include "config/log.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace libsplit::config {

Logger::Logger(LogLevel Level, DebugMask Selected, const std::string &FilePath)
    : MaxLevel(Level),
      // LIBSPLIT_LOG=debug alone should show something: with no category chosen, all of them.
      Categories(Level == LogLevel::Debug && Selected == 0 ? AllDebugCategories
                                                           : Selected & AllDebugCategories) {
  if (FilePath.empty())
    return;
  // O_APPEND: one write(2) lands whole at the end even if other processes of the same run
  // (an app that forks) log to the same file. O_CLOEXEC: children the app execs do not
  // inherit our descriptor.
  int Opened = ::open(FilePath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (Opened < 0) {
    FileError = std::strerror(errno);
    write(levelPrefix(LogLevel::Warn), "LIBSPLIT_LOG_FILE: cannot open '" + FilePath +
                                           "': " + FileError + "; logging to stderr");
    return;
  }
  Fd = Opened;
  OwnsFd = true;
}

Logger::~Logger() {
  if (OwnsFd)
    ::close(Fd);
}

std::string_view Logger::levelPrefix(LogLevel Level) {
  switch (Level) {
  case LogLevel::Error:
    return "error: ";
  case LogLevel::Warn:
    return "warning: ";
  case LogLevel::Info:
    return "";
  case LogLevel::Debug:
    return "debug: ";
  }
  return "";
}

std::string_view Logger::debugPrefix(DebugCategory Category) {
  static constexpr std::string_view Prefixes[] = {
      "debug: split: ", "debug: mem: ",     "debug: events: ",
      "debug: api: ",   "debug: compile: ", "debug: balance: "};
  static_assert(std::size(Prefixes) == DebugCategoryNames.size(), "one prefix per category");
  return Prefixes[static_cast<unsigned>(Category)];
}

bool Logger::firstTime(std::string_view Key) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Seen.emplace(Key).second;
}

void Logger::write(std::string_view Prefix, std::string_view Message) {
  // Build the whole text first so that it goes out in one write(2): a message of several
  // lines stays together, and no other thread's line lands in the middle of it.
  std::string Text;
  Text.reserve(Message.size() + 32);
  std::size_t Position = 0;
  do {
    std::size_t End = Message.find('\n', Position);
    std::string_view Line = Message.substr(
        Position, End == std::string_view::npos ? std::string_view::npos : End - Position);
    Text += "libsplit: ";
    Text += Prefix;
    Text += Line;
    Text += '\n';
    Position = End == std::string_view::npos ? Message.size() : End + 1;
  } while (Position < Message.size());

  // Logging happens inside the app's OpenCL calls: a failed write must not change the errno
  // the app sees afterwards.
  int SavedErrno = errno;
  std::lock_guard<std::mutex> Lock(Mutex);
  const char *Data = Text.data();
  std::size_t Left = Text.size();
  while (Left > 0) {
    ssize_t Written = ::write(Fd, Data, Left);
    if (Written < 0 && errno == EINTR)
      continue;
    // A closed stderr or a full disk must not take the app down: the message is dropped.
    if (Written <= 0)
      break;
    Data += Written;
    Left -= static_cast<std::size_t>(Written);
  }
  errno = SavedErrno;
}

} // namespace libsplit::config
