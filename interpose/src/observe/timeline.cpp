#include "timeline.hpp"

#include "libsplit/support/json.hpp"
#include "libsplit/support/text.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

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

std::string Timeline::trackId(const std::string &Track) {
  auto [It, New] = Tracks.emplace(Track, static_cast<int>(Tracks.size()) + 1);
  const std::string Tid = std::to_string(It->second);
  if (New) {
    Pending += First ? "" : ",\n";
    Pending +=
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + Tid + ",\"args\":{\"name\":";
    support::appendJsonString(Pending, Track);
    Pending += "}}";
    First = false;
  }
  return Tid;
}

double Timeline::microseconds(TimePoint At) const {
  return std::chrono::duration<double, std::micro>(At - Origin).count();
}

void Timeline::span(const std::string &Track, const std::string &Name, TimePoint Start,
                    TimePoint End, const std::optional<Call> &From) {
  if (!File)
    return;
  const double Begin = microseconds(Start);
  const double Length = std::chrono::duration<double, std::micro>(End - Start).count();
  std::lock_guard<std::mutex> Lock(Mutex);
  const std::string Tid = trackId(Track);
  Pending += First ? "" : ",\n";
  First = false;
  Pending += "{\"name\":";
  support::appendJsonString(Pending, Name);
  Pending += ",\"ph\":\"X\",\"pid\":1,\"tid\":" + Tid +
             ",\"ts\":" + support::formatFixed(Begin, 3) +
             ",\"dur\":" + support::formatFixed(Length, 3) + "}";
  if (From) {
    // A flow's start binds to the call's span on the app thread's track, its end to this span
    // ("bp":"e": the enclosing slice at that time).
    const std::string Id = std::to_string(++Flows);
    const std::string CallTid = trackId(From->Track);
    Pending += ",\n{\"name\":\"launch\",\"cat\":\"launch\",\"ph\":\"s\",\"id\":" + Id +
               ",\"pid\":1,\"tid\":" + CallTid +
               ",\"ts\":" + support::formatFixed(microseconds(From->At), 3) + "}";
    Pending += ",\n{\"name\":\"launch\",\"cat\":\"launch\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" + Id +
               ",\"pid\":1,\"tid\":" + Tid + ",\"ts\":" + support::formatFixed(Begin, 3) + "}";
  }
  if (Pending.size() >= (1u << 20))
    flush();
}

void Timeline::flush() {
  std::fwrite(Pending.data(), 1, Pending.size(), File);
  Pending.clear();
}

namespace {
// Trivially destructible: a thread_local with a destructor registers it with the C library,
// which takes the dynamic loader's lock, and a libsplit thread that did so while the app's thread
// held that lock (making its context in a library's constructor, during dlopen) blocked there,
// and so did the app's thread that joined it (api.plugin_context).
struct TrackName {
  char Text[64];
  bool Named;
};
static_assert(std::is_trivially_destructible_v<TrackName>);
thread_local TrackName ThisThreadTrack{};

void setThisThreadTrack(const std::string &Name) {
  const std::size_t Kept = std::min(Name.size(), sizeof(ThisThreadTrack.Text) - 1);
  std::memcpy(ThisThreadTrack.Text, Name.data(), Kept);
  ThisThreadTrack.Text[Kept] = '\0';
  ThisThreadTrack.Named = true;
}
} // namespace

std::string callingThreadTrack() {
  if (!ThisThreadTrack.Named)
    setThisThreadTrack("app thread " + std::to_string(::syscall(SYS_gettid)));
  return ThisThreadTrack.Text;
}

void nameCallingThreadTrack(const std::string &Name) { setThisThreadTrack(Name); }

void Timeline::finish() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!File)
    return;
  flush();
  std::fputs("\n]\n", File);
  std::fclose(File);
  File = nullptr;
}

} // namespace libsplit
