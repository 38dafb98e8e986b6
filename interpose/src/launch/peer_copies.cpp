#include "peer_copies.hpp"

namespace libsplit {

PeerMarkers::~PeerMarkers() {
  for (cl_event Event : Markers)
    Backend.releaseEvent(Event);
  for (cl_mem Stage : Stages)
    Backend.release(Stage);
}

bool PeerMarkers::stage(Buffer &Root, Buffer::PeerPart &Part) {
  const cl_int Error = Root.stageOnPeer(Part);
  Stages.insert(Stages.end(), Part.Stages.begin(), Part.Stages.end());
  cl_event Done = nullptr;
  if (Error != CL_SUCCESS || Backend.marker(Part.Peer->RealQueue, Done) != CL_SUCCESS || !Done)
    return false;
  Markers.push_back(Done);
  Part.Staged = Done;
  return true;
}

std::vector<Buffer::PeerPart> takePeerParts(Buffer &Root, const ExecDevice &Device,
                                            RangeSet &Missing, PeerMarkers &Markers, bool Enabled) {
  std::vector<Buffer::PeerPart> Taken;
  if (!Enabled || Missing.empty())
    return Taken;
  for (Buffer::PeerPart &Part : Root.peerParts(Device, Missing))
    if (Markers.stage(Root, Part)) {
      Missing.subtract(Part.Ranges);
      Taken.push_back(std::move(Part));
    }
  return Taken;
}

cl_int copyPeerParts(Buffer &Root, ExecDevice &Device, const std::vector<Buffer::PeerPart> &Parts) {
  for (const Buffer::PeerPart &Part : Parts)
    if (cl_int Error = Root.copyFromPeerOnWorker(Device, Part); Error != CL_SUCCESS)
      return Error;
  return CL_SUCCESS;
}

} // namespace libsplit
