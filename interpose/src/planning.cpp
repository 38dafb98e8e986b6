#include "planning.hpp"

namespace libsplit {

bool GuardSlot::needsPrice() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Alternate && Guard.needsPrice();
}

planner::Decision GuardSlot::decide(double Work, const std::optional<planner::PricedBytes> &Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Alternate)
    return Guard.decide(Work, Bytes);
  planner::Decision D;
  D.Launch.Run = NextSplits ? planner::Mode::Split : planner::Mode::Whole;
  D.Why = "LIBSPLIT_SPLIT=alternate";
  NextSplits = !NextSplits;
  return D;
}

void GuardSlot::observe(const planner::Ticket &Launch, double Work, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guard.observe(Launch, Work, Seconds);
}

void GuardSlot::observeInferredWhole(double Work, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guard.observeInferredWhole(Work, Seconds);
}

bool GuardSlot::settledWhole(double Work) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Alternate && Guard.settledWhole(Work);
}

planner::Decision GuardSlot::decideWhole(double Work) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Guard.decideWhole(Work);
}

LaunchPlanner::LaunchPlanner(const config::Config &Settings)
    : Guarding(Settings.Split == config::SplitPolicy::Alternate ||
               (Settings.Split == config::SplitPolicy::Auto &&
                Settings.Balancer != config::BalancerKind::Uniform &&
                Settings.Balancer != config::BalancerKind::Static)),
      Alternate(Settings.Split == config::SplitPolicy::Alternate) {}

std::shared_ptr<GuardSlot> LaunchPlanner::guardFor(const std::string &Kernel,
                                                   std::size_t AppDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::shared_ptr<GuardSlot> &Slot = Guards[{Kernel, AppDevice}];
  if (!Slot)
    Slot = std::make_shared<GuardSlot>(Alternate);
  return Slot;
}

} // namespace libsplit
