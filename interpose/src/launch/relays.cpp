#include "relays.hpp"

#include "exec_device.hpp"

#include <map>

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

cl_int runRelays(std::vector<LaunchRelay> &Relays) {
  struct Task {
    LaunchRelay *Relay;
    Buffer::RelayPart *Part;
  };
  std::map<ExecDevice *, std::vector<Task>> ByHolder;
  for (LaunchRelay &Relay : Relays)
    for (Buffer::RelayPart &Part : Relay.Parts)
      ByHolder[Part.From].push_back({&Relay, &Part});
  if (ByHolder.empty())
    return CL_SUCCESS;
  std::vector<DeviceJob> Jobs;
  for (auto &[Holder, Tasks] : ByHolder)
    Jobs.push_back({Holder, [&Tasks = Tasks]() -> cl_int {
                      for (const Task &T : Tasks)
                        if (cl_int E = T.Relay->Root->relayOnWorker(*T.Relay->To, *T.Part);
                            E != CL_SUCCESS)
                          return E;
                      return CL_SUCCESS;
                    }});
  return runOnDevices(std::move(Jobs));
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
