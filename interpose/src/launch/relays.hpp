// Bytes a launch's device lacks that only another device holds, relayed from that device through
// page-locked host memory (Buffer::relayParts, memory/relay.hpp) instead of read back into the
// host copy and sent from there: the holder reads pieces while the lacking device writes the
// pieces before, both at the page-locked rate. They run before the launch enqueues any kernel,
// as the host copy's reads do (what the launch writes cannot reach them).
#pragma once

#include "buffer.hpp"

#include <vector>

namespace libsplit {

struct LaunchRelay {
  Buffer *Root;
  ExecDevice *To;
  std::vector<Buffer::RelayPart> Parts;
};

// The parts of Missing (root coordinates) that To gets relayed, taken out of Missing, which keeps
// what comes through the host. None where LIBSPLIT_RELAY is off (Enabled).
std::vector<Buffer::RelayPart> takeRelayParts(Buffer &Root, const ExecDevice &To, RangeSet &Missing,
                                              bool Enabled);
// Runs Relays, each holder's on its worker one after the other, holders at once where no device
// is in two of their relays (relayWaves); returns once every lacking device holds its bytes (not
// yet marked valid: the caller's part), or with the first error. Each part's Seconds says how
// long it took.
cl_int runRelays(std::vector<LaunchRelay> &Relays);
// Jobs (each the devices whose queues it drives: a holder and the devices it relays to) in
// waves that run one after the other, the jobs of a wave at once: no device in two jobs of a
// wave. Two threads driving one device's queues at once hung PoCL's basic device, which runs
// commands on whichever thread enqueues or waits (two relays in opposite directions, each
// reading on its holder and writing on the other). In job order; the first wave takes the
// first job.
std::vector<std::vector<std::size_t>>
relayWaves(const std::vector<std::vector<std::size_t>> &DevicesOfJobs);
// The seconds To spent receiving relayed bytes in Relays (its parts' times, added up).
double relaySecondsOf(const std::vector<LaunchRelay> &Relays, const ExecDevice &To);

} // namespace libsplit
