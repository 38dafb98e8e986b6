// The host time of a planned split launch against the device count, on the fake backend: the
// parts of a split launch that grow with the devices and run on the host whatever the devices
// are (the balancer's proposal and its measurement, each slice's regions and what it lacks, the
// price of the split against running whole, the validity left by the slices' writes), for a
// 1-D three-point stencil cut in N. No device work, no transfer: the planner's own cost.
//
//   plan_host_cost [LAUNCHES]
// CSV: the balancer's strategy (Broyden), devices, launches, us_per_launch (median of five runs),
// as libsplit-balancer-sim --host-cost writes it (balancer/sim/host_cost_table.py makes a table).
#include "stencil_launch.hpp"

#include "libsplit/balancer/balancer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace libsplit;

namespace {

constexpr std::size_t Items = 1 << 20, Local = 256;

double microsPerLaunch(std::size_t Devices, unsigned Launches) {
  testing::StencilLaunch S(Devices, Items, Local);
  const std::size_t Groups = S.Groups;
  auto &Home = S.Home;
  const CompiledKernel &Facts = S.Facts;
  const LaunchRequest &R = S.R;
  balancer::BalancerConfig Config;
  Config.Kind = balancer::Strategy::Broyden;
  balancer::Balancer B(Config);
  balancer::LaunchKey Key;
  Key.Kernel = "stencil";
  Key.Global = {Items, 1, 1};
  Key.Local = {Local, 1, 1};
  const analysis::NDRange Range = ndrangeOf(R);
  const analysis::LaunchArgs Scalars = scalarsOf(R);
  double Sink = 0.0;
  const auto Start = std::chrono::steady_clock::now();
  for (unsigned L = 0; L < Launches; ++L) {
    const balancer::Split Proposal = B.propose(Key, Groups, Devices, {}, true);
    std::vector<Slice> Slices;
    for (std::size_t I = 0; I < Devices; ++I)
      if (Proposal.Slices[I].Groups)
        Slices.push_back({Home->devices()[I].get(), Proposal.Slices[I].FirstGroup,
                          Proposal.Slices[I].FirstGroup + Proposal.Slices[I].Groups});
    std::map<Buffer *, BufferPlan> Plans = planBuffers(Facts, R, Slices, true, Range, Scalars, 0);
    Sink += priceBytes(Plans, Slices, *Home->devices()[0], true).Split;
    std::vector<balancer::DeviceMeasurement> Measured(Devices);
    for (std::size_t S = 0; S < Slices.size(); ++S) {
      const ExecDevice &D = *Slices[S].Device;
      for (auto &[Root, P] : Plans) {
        Root->markValidOn(D.Index, Root->missingOn(D.Index, P.Need[S]));
        if (P.Writes)
          Root->wroteOn(D.Index, P.Write[S]);
      }
      balancer::DeviceMeasurement &M = Measured[D.Index];
      M.FirstGroup = Slices[S].FirstGroup;
      M.Groups = Slices[S].EndGroup - Slices[S].FirstGroup;
      M.KernelSeconds = 1e-6 * static_cast<double>(M.Groups) * (1.0 + 0.1 * double(D.Index));
    }
    B.observe(Key, Measured);
  }
  const double Micros =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - Start).count();
  if (Sink < 0.0)
    std::abort(); // keeps the pricing from being optimized away
  return Micros / Launches;
}

} // namespace

int main(int Argc, char **Argv) {
  const unsigned Launches = Argc > 1 ? static_cast<unsigned>(std::atoi(Argv[1])) : 500;
  if (Launches == 0) {
    std::fprintf(stderr, "usage: plan_host_cost [LAUNCHES], LAUNCHES > 0\n");
    return 2;
  }
  std::printf("strategy,devices,launches,us_per_launch\n");
  for (std::size_t Devices : {2u, 4u, 8u, 16u}) {
    std::vector<double> Runs;
    for (int Round = 0; Round < 5; ++Round)
      Runs.push_back(microsPerLaunch(Devices, Launches));
    std::sort(Runs.begin(), Runs.end());
    std::printf("broyden,%zu,%u,%.2f\n", Devices, Launches, Runs[Runs.size() / 2]);
  }
  return 0;
}
