#include "planning.hpp"

namespace libsplit {

LaunchPlanner::LaunchPlanner(const config::Config &Settings)
    : Guarding(Settings.Split == config::SplitPolicy::Auto &&
               Settings.Balancer != config::BalancerKind::Uniform &&
               Settings.Balancer != config::BalancerKind::Static) {}

bool LaunchPlanner::needsPrice(const std::string &Kernel) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Guards[Kernel].needsPrice();
}

planner::Decision LaunchPlanner::decide(const std::string &Kernel, double Work,
                                        const std::optional<planner::PricedBytes> &Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Guards[Kernel].decide(Work, Bytes);
}

void LaunchPlanner::observe(const std::string &Kernel, const planner::Ticket &Launch, double Work,
                            double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guards[Kernel].observe(Launch, Work, Seconds);
}

void LaunchPlanner::observeInferredWhole(const std::string &Kernel, double Work, double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Guards[Kernel].observeInferredWhole(Work, Seconds);
}

} // namespace libsplit
