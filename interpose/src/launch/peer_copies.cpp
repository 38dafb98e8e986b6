#include "peer_copies.hpp"

namespace libsplit {

PeerMarkers::~PeerMarkers() {
  for (auto &[Device, Event] : Made)
    Backend.releaseEvent(Event);
}

cl_event PeerMarkers::after(ExecDevice &Peer) {
  auto Found = Made.find(&Peer);
  if (Found != Made.end())
    return Found->second;
  cl_event Done = nullptr;
  if (Backend.marker(Peer.RealQueue, Done) != CL_SUCCESS || !Done)
    return nullptr;
  Made.emplace(&Peer, Done);
  return Done;
}

std::vector<Buffer::PeerPart> takePeerParts(Buffer &Root, const ExecDevice &Device,
                                            RangeSet &Missing, PeerMarkers &Markers, bool Enabled) {
  std::vector<Buffer::PeerPart> Taken;
  if (!Enabled || Missing.empty())
    return Taken;
  for (Buffer::PeerPart &Part : Root.peerParts(Device, Missing))
    if (Markers.after(*Part.Peer)) {
      Missing.subtract(Part.Ranges);
      Taken.push_back(std::move(Part));
    }
  return Taken;
}

cl_int copyPeerParts(Buffer &Root, ExecDevice &Device, const std::vector<Buffer::PeerPart> &Parts,
                     PeerMarkers &Markers) {
  for (const Buffer::PeerPart &Part : Parts)
    if (cl_int Error =
            Root.copyFromPeerOnWorker(Device, *Part.Peer, Part.Ranges, Markers.after(*Part.Peer));
        Error != CL_SUCCESS)
      return Error;
  return CL_SUCCESS;
}

} // namespace libsplit
