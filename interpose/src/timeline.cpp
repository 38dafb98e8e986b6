#include "timeline.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace libsplit {

namespace {

std::string quoted(const std::string &Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) >= 0x20)
      Out += C;
  }
  return Out + "\"";
}

} // namespace

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
  if (New) {
    std::fprintf(File,
                 "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                 "\"args\":{\"name\":%s}}",
                 First ? "" : ",\n", It->second, quoted(Track).c_str());
    First = false;
  }
  std::fprintf(File, ",\n{\"name\":%s,\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}",
               quoted(Name).c_str(), It->second, Begin, Length);
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
