// LIBSPLIT_TIMELINE: a Chrome trace-event file (opens in Perfetto or chrome://tracing) with one
// track per device and one span per sub-kernel, transfer and merge, and one track per app thread
// with its enqueue and wait calls, on the host's clock.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace libsplit {

class Timeline {
public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit Timeline(const std::string &Path);
  ~Timeline();
  Timeline(const Timeline &) = delete;
  Timeline &operator=(const Timeline &) = delete;

  bool enabled() const { return File != nullptr; }
  void span(const std::string &Track, const std::string &Name, TimePoint Start, TimePoint End);
  // Closes the JSON array; called at exit.
  void finish();

private:
  std::mutex Mutex;
  std::FILE *File = nullptr;
  TimePoint Origin = std::chrono::steady_clock::now();
  std::map<std::string, int> Tracks;
  bool First = true;
};

// A span on Track from construction to destruction; with the timeline off, nothing (no clock
// read). Track must outlive it.
class ScopedSpan {
public:
  ScopedSpan(Timeline &On, const std::string &Track, const char *Name)
      : On(On.enabled() ? &On : nullptr), Track(Track), Name(Name),
        Start(this->On ? std::chrono::steady_clock::now() : Timeline::TimePoint()) {}
  ~ScopedSpan() {
    if (On)
      On->span(Track, Name, Start, std::chrono::steady_clock::now());
  }
  ScopedSpan(const ScopedSpan &) = delete;
  ScopedSpan &operator=(const ScopedSpan &) = delete;

private:
  Timeline *On;
  const std::string &Track;
  const char *Name;
  Timeline::TimePoint Start;
};

// The calling thread's track: "app thread N" (N: its thread id), or the name a libsplit thread
// gave itself with nameCallingThreadTrack.
const std::string &callingThreadTrack();
void nameCallingThreadTrack(const std::string &Name);

} // namespace libsplit
