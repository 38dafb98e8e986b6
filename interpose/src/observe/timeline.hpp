// LIBSPLIT_TIMELINE: a Chrome trace-event file (opens in Perfetto or chrome://tracing) with one
// track per device and one span per sub-kernel, transfer and merge, and one track per app thread
// with its enqueue and wait calls, on the host's clock; an arrow (a flow event) from each app
// launch call to each kernel it became on a device. Written in blocks, not a line at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace libsplit {

class Timeline {
public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit Timeline(const std::string &Path);
  ~Timeline();
  Timeline(const Timeline &) = delete;
  Timeline &operator=(const Timeline &) = delete;

  // Where a launch was called: the app thread's track and the time of the call.
  struct Call {
    std::string Track;
    TimePoint At;
  };

  bool enabled() const { return File != nullptr; }
  // A span; with From, also an arrow from that call to the span's start.
  void span(const std::string &Track, const std::string &Name, TimePoint Start, TimePoint End,
            const std::optional<Call> &From = std::nullopt);
  // Closes the JSON array; called at exit.
  void finish();

private:
  // The track's number, its name written first when new (Mutex held).
  std::string trackId(const std::string &Track);
  double microseconds(TimePoint At) const;
  void flush(); // Mutex held

  std::mutex Mutex;
  std::FILE *File = nullptr;
  TimePoint Origin = std::chrono::steady_clock::now();
  std::map<std::string, int> Tracks;
  std::string Pending; // events not written yet
  std::uint64_t Flows = 0;
  bool First = true;
};

// The calling thread's track: "app thread N" (N: its thread id), or the name a libsplit thread
// gave itself with nameCallingThreadTrack (at most 63 bytes kept).
std::string callingThreadTrack();
void nameCallingThreadTrack(const std::string &Name);

// A span on Track from construction to destruction; with the timeline off, nothing (no clock
// read).
class ScopedSpan {
public:
  // Never throws: where host memory runs out the span is lost, not the process (spans are made
  // where an exception must not start, as where a command completes).
  ScopedSpan(Timeline &On, const std::string &Track, const char *Name) noexcept : Name(Name) {
    if (On.enabled())
      begin(On, &Track);
  }
  // On the calling thread's track, looked up only when the timeline is on (every entry point
  // makes one of these).
  ScopedSpan(Timeline &On, const char *Name) noexcept : Name(Name) {
    if (On.enabled())
      begin(On, nullptr);
  }
  ~ScopedSpan() {
    if (!On)
      return;
    try {
      On->span(Track, Name, Start, std::chrono::steady_clock::now());
    } catch (...) {
      // Host memory exhausted: the span is lost, not the process.
    }
  }
  ScopedSpan(const ScopedSpan &) = delete;
  ScopedSpan &operator=(const ScopedSpan &) = delete;

private:
  void begin(Timeline &Shown, const std::string *Named) noexcept {
    try {
      Track = Named ? *Named : callingThreadTrack();
      On = &Shown;
      Start = std::chrono::steady_clock::now();
    } catch (...) {
    }
  }

  Timeline *On = nullptr;
  std::string Track;
  const char *Name;
  Timeline::TimePoint Start;
};

} // namespace libsplit
