// The runtime's side of the planner: one SplitGuard per kernel (its source, name and the app's
// device), behind a lock, since launches are decided on executor threads and measured on
// whichever thread completes them.
#pragma once

#include "config/config.hpp"
#include "libsplit/planner/split_guard.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace libsplit {

class LaunchPlanner {
public:
  explicit LaunchPlanner(const config::Config &Settings);

  // Whether the guard decides (LIBSPLIT_SPLIT=auto with shares that adapt); otherwise every
  // launch that can split does.
  bool guarding() const { return Guarding; }

  bool needsPrice(const std::string &Kernel);
  planner::Decision decide(const std::string &Kernel, double Work,
                           const std::optional<planner::PricedBytes> &Bytes);
  void observe(const std::string &Kernel, const planner::Ticket &Launch, double Work,
               double Seconds);
  void observeInferredWhole(const std::string &Kernel, double Work, double Seconds);

private:
  std::mutex Mutex;
  bool Guarding;
  std::map<std::string, planner::SplitGuard> Guards;
};

} // namespace libsplit
