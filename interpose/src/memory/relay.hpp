// Bytes from one device's copy of a buffer to another's through page-locked host memory, in
// pieces: the first device reads a piece into a slot of a ring while the second writes the piece
// before it. NVIDIA's driver copies a transfer to or from pageable memory (libsplit's host copy)
// through staging of its own, several times slower than one from page-locked memory, and a read
// then a write in turn add up; the ring moves both ways at once at the page-locked rate.
#pragma once

#include "backend/device_backend.hpp"
#include "range_set.hpp"

#include <cstddef>
#include <cstdint>

namespace libsplit {

struct RelayRing {
  std::uint8_t *Memory = nullptr;
  std::size_t SlotBytes = 0;
  std::size_t Slots = 0;
};

// The ring a relay of Bytes asks for: two slots, each at most 16 MiB (a larger slot gave a
// lower rate on two H100s, bench/tools/link_rates.cpp), fewer bytes where the relay is smaller.
RelayRing relayRingFor(std::size_t Bytes);

// Ranges of Source (on FromQueue) into Target at the same offsets (on ToQueue) through Ring
// (Ring.Memory holds Slots x SlotBytes). The host waits for a piece's read before enqueueing its
// write (the two queues may be of different contexts, which share no events) and for a slot's
// write before reading into it again; returns once every write has ended, or with the first
// error once neither queue uses the ring any more.
cl_int relayThroughRing(DeviceBackend &Backend, cl_command_queue FromQueue, cl_mem Source,
                        cl_command_queue ToQueue, cl_mem Target, const RangeSet &Ranges,
                        const RelayRing &Ring);

} // namespace libsplit
