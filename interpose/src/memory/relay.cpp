#include "relay.hpp"

#include <algorithm>
#include <vector>

namespace libsplit {

RelayRing relayRingFor(std::size_t Bytes) {
  constexpr std::size_t MostSlotBytes = std::size_t{16} << 20, LeastSlotBytes = 64 << 10;
  std::size_t Slot = LeastSlotBytes;
  while (Slot < MostSlotBytes && 2 * Slot < Bytes)
    Slot *= 2;
  return {nullptr, Slot, 2};
}

cl_int relayThroughRing(DeviceBackend &Backend, cl_command_queue FromQueue, cl_mem Source,
                        cl_command_queue ToQueue, cl_mem Target, const RangeSet &Ranges,
                        const RelayRing &Ring) {
  struct Piece {
    std::size_t Begin, Bytes;
  };
  std::vector<Piece> Pieces;
  for (const Span &S : Ranges.spans())
    for (std::size_t At = S.Begin; At < S.End; At += Ring.SlotBytes)
      Pieces.push_back({At, std::min(Ring.SlotBytes, S.End - At)});
  const std::size_t Count = Pieces.size();
  std::vector<cl_event> Read(Count, nullptr), Written(Count, nullptr);
  auto slot = [&](std::size_t I) { return Ring.Memory + (I % Ring.Slots) * Ring.SlotBytes; };
  cl_int Error = CL_SUCCESS;
  std::size_t NextRead = 0;
  for (std::size_t I = 0; I < Count && Error == CL_SUCCESS; ++I) {
    for (; Error == CL_SUCCESS && NextRead < Count && NextRead < I + Ring.Slots; ++NextRead) {
      // In-order queue: the marker behind a slot's write says every earlier write has ended.
      if (NextRead >= Ring.Slots)
        Error = Backend.wait(Written[NextRead - Ring.Slots]);
      if (Error == CL_SUCCESS)
        Error = Backend.read(FromQueue, Source, false, Pieces[NextRead].Begin,
                             Pieces[NextRead].Bytes, slot(NextRead));
      if (Error == CL_SUCCESS)
        Error = Backend.marker(FromQueue, Read[NextRead]);
    }
    if (Error == CL_SUCCESS)
      Error = Backend.wait(Read[I]);
    if (Error == CL_SUCCESS)
      Error = Backend.write(ToQueue, Target, false, Pieces[I].Begin, Pieces[I].Bytes, slot(I));
    if (Error == CL_SUCCESS)
      Error = Backend.marker(ToQueue, Written[I]);
  }
  if (Error == CL_SUCCESS && Count)
    Error = Backend.wait(Written[Count - 1]);
  if (Error != CL_SUCCESS) {
    // Commands enqueued before the failure may still use the ring: the next relay reuses it.
    Backend.finish(FromQueue);
    Backend.finish(ToQueue);
  }
  for (std::size_t I = 0; I < Count; ++I) {
    if (Read[I])
      Backend.releaseEvent(Read[I]);
    if (Written[I])
      Backend.releaseEvent(Written[I]);
  }
  return Error;
}

} // namespace libsplit
