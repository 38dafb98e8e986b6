#include "relays.hpp"

#include "exec_device.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace libsplit {

std::vector<Buffer::RelayPart> takeRelayParts(Buffer &Root, const ExecDevice &To, RangeSet &Missing,
                                              bool Enabled) {
  if (!Enabled || Missing.totalBytes() < Buffer::MinRelayBytes)
    return {};
  std::vector<Buffer::RelayPart> Taken = Root.relayParts(To, Missing);
  for (const Buffer::RelayPart &Part : Taken)
    Missing.subtract(Part.Ranges);
  return Taken;
}

std::vector<std::vector<std::size_t>>
relayWaves(const std::vector<std::vector<std::size_t>> &DevicesOfJobs) {
  std::vector<std::vector<std::size_t>> Waves;
  std::vector<std::set<std::size_t>> Driven; // the devices each wave's jobs drive
  for (std::size_t Job = 0; Job < DevicesOfJobs.size(); ++Job) {
    const std::vector<std::size_t> &Mine = DevicesOfJobs[Job];
    std::size_t Wave = 0;
    for (; Wave < Waves.size(); ++Wave)
      if (std::none_of(Mine.begin(), Mine.end(),
                       [&](std::size_t Device) { return Driven[Wave].count(Device) > 0; }))
        break;
    if (Wave == Waves.size()) {
      Waves.emplace_back();
      Driven.emplace_back();
    }
    Waves[Wave].push_back(Job);
    Driven[Wave].insert(Mine.begin(), Mine.end());
  }
  return Waves;
}

cl_int runRelays(std::vector<LaunchRelay> &Relays) {
  struct Task {
    LaunchRelay *Relay;
    Buffer::RelayPart *Part;
  };
  std::map<ExecDevice *, std::vector<Task>> ByHolder;
  for (LaunchRelay &Relay : Relays)
    for (Buffer::RelayPart &Part : Relay.Parts)
      ByHolder[Part.From].push_back({&Relay, &Part});
  std::vector<DeviceJob> Jobs;
  std::vector<std::vector<std::size_t>> DevicesOfJobs;
  for (auto &[Holder, Tasks] : ByHolder) {
    Jobs.push_back({Holder, [&Tasks = Tasks]() -> cl_int {
                      for (const Task &T : Tasks)
                        if (cl_int E = T.Relay->Root->relayOnWorker(*T.Relay->To, *T.Part);
                            E != CL_SUCCESS)
                          return E;
                      return CL_SUCCESS;
                    }});
    std::vector<std::size_t> Driven{Holder->Index};
    for (const Task &T : Tasks)
      Driven.push_back(T.Relay->To->Index);
    DevicesOfJobs.push_back(std::move(Driven));
  }
  for (const std::vector<std::size_t> &Wave : relayWaves(DevicesOfJobs)) {
    std::vector<DeviceJob> Running;
    for (std::size_t Job : Wave)
      Running.push_back(std::move(Jobs[Job]));
    if (cl_int Error = runOnDevices(std::move(Running)); Error != CL_SUCCESS)
      return Error;
  }
  return CL_SUCCESS;
}

double relaySecondsOf(const std::vector<LaunchRelay> &Relays, const ExecDevice &To) {
  double Seconds = 0.0;
  for (const LaunchRelay &Relay : Relays)
    if (Relay.To == &To)
      for (const Buffer::RelayPart &Part : Relay.Parts)
        Seconds += Part.Seconds;
  return Seconds;
}

} // namespace libsplit
