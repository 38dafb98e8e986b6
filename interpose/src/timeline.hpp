// LIBSPLIT_TIMELINE: a Chrome trace-event file (opens in Perfetto or chrome://tracing) with one
// track per device and one span per sub-kernel, transfer and merge, on the host's clock.
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

} // namespace libsplit
