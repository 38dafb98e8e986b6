#include "timeline.hpp"

#include "libsplit/support/json.hpp"
#include "libsplit/support/text.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace libsplit {

Timeline::Timeline(const std::string &Path) {
  if (!Path.empty())
    File = std::fopen(Path.c_str(), "w");
  if (File)
    std::fputs("[\n", File);
}

Timeline::~Timeline() { finish(); }

void Timeline::span(const std::string &Track, const std::string &Name, TimePoint Start,
                    TimePoint End) {
  if (!File)
    return;
  using std::chrono::duration;
  const double Begin = duration<double, std::micro>(Start - Origin).count();
  const double Length = duration<double, std::micro>(End - Start).count();
  std::lock_guard<std::mutex> Lock(Mutex);
  auto [It, New] = Tracks.emplace(Track, static_cast<int>(Tracks.size()) + 1);
  const std::string Tid = std::to_string(It->second);
  std::string Line;
  if (New) {
    Line += First ? "" : ",\n";
    Line +=
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + Tid + ",\"args\":{\"name\":";
    support::appendJsonString(Line, Track);
    Line += "}}";
    First = false;
  }
  Line += ",\n{\"name\":";
  support::appendJsonString(Line, Name);
  Line += ",\"ph\":\"X\",\"pid\":1,\"tid\":" + Tid + ",\"ts\":" + support::formatFixed(Begin, 3) +
          ",\"dur\":" + support::formatFixed(Length, 3) + "}";
  std::fputs(Line.c_str(), File);
}

namespace {
std::string &threadTrack() {
  thread_local std::string Track = "app thread " + std::to_string(::syscall(SYS_gettid));
  return Track;
}
} // namespace

const std::string &callingThreadTrack() { return threadTrack(); }

void nameCallingThreadTrack(const std::string &Name) { threadTrack() = Name; }

void Timeline::finish() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!File)
    return;
  std::fputs("\n]\n", File);
  std::fclose(File);
  File = nullptr;
}

} // namespace libsplit
