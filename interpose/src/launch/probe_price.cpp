#include "probe_price.hpp"

#include "libsplit/planner/affinity.hpp"

#include <numeric>

namespace libsplit {

std::vector<Slice> slicesOf(const balancer::Split &Split,
                            const std::vector<ExecDevice *> &Devices) {
  std::vector<Slice> Slices;
  for (size_t I = 0; I < Devices.size() && I < Split.Slices.size(); ++I)
    if (Split.Slices[I].Groups > 0)
      Slices.push_back({Devices[I], Split.Slices[I].FirstGroup,
                        Split.Slices[I].FirstGroup + Split.Slices[I].Groups,
                        I < Split.Shares.size() ? Split.Shares[I] : 0.0});
  return Slices;
}

bool postponeCostlyProbe(Kernel &K, LaunchBalancer &Balancer, const balancer::LaunchKey &Key,
                         const balancer::Split &Proposal, const LaunchRequest &R,
                         const CompiledKernel &Facts, const std::vector<ExecDevice *> &Devices,
                         cl_uint Dim, size_t Groups, bool Regions, const analysis::NDRange &Range,
                         const analysis::LaunchArgs &Scalars, ByteRoutes Routes,
                         std::vector<Slice> &Slices, std::map<Buffer *, BufferPlan> &Plans) {
  if (Proposal.Purpose == balancer::LaunchPurpose::Balance)
    return false;
  const std::optional<balancer::KeyTrace> Trace = Balancer.trace(Key);
  if (!Trace || Trace->Shares.size() != Devices.size())
    return false;
  // The split the held launches run, planned as this launch (what it lacks now is what the next
  // held launch would lack had the probe not run).
  std::vector<Slice> Held = slicesOf(balancer::roundShares(Trace->Shares, Groups), Devices);
  if (Held.empty())
    return false;
  std::map<Buffer *, BufferPlan> HeldPlans =
      planBuffers(Facts, R, Held, Regions, Range, Scalars, Dim);
  auto sum = [](const std::vector<double> &Bytes) {
    return std::accumulate(Bytes.begin(), Bytes.end(), 0.0);
  };
  std::vector<std::size_t> Indices;
  for (const ExecDevice *D : Devices)
    Indices.push_back(D->Index);
  const double Link =
      K.sliceHistory()->linkBytesPerSecond(Indices, planner::GuardSettings().LinkBytesPerSecond);
  const double Seconds = planner::probeSeconds(sum(bytesPerSlice(Plans, Slices, Routes)),
                                               sum(bytesPerSlice(HeldPlans, Held, Routes)), Link);
  if (!Balancer.postponeProbe(Key, Seconds))
    return false;
  Slices = std::move(Held);
  Plans = std::move(HeldPlans);
  return true;
}

} // namespace libsplit
