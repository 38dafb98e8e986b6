// Bytes a launch's device lacks that only another device of its real context holds go device to
// device (LIBSPLIT_PEER_COPY): copies queued on the lacking device behind a marker of the
// holder's queue, so that the host waits for neither (through the host, it would read them back,
// waiting for the holder, then send them).
#pragma once

#include "buffer.hpp"
#include "device_backend.hpp"

#include <map>
#include <vector>

namespace libsplit {

// One marker per holding device and launch, made on first need, released once the launch has
// enqueued its copies (a command keeps what it waits for).
class PeerMarkers {
public:
  explicit PeerMarkers(DeviceBackend &Backend) : Backend(Backend) {}
  ~PeerMarkers();
  PeerMarkers(const PeerMarkers &) = delete;
  PeerMarkers &operator=(const PeerMarkers &) = delete;

  // The marker of Peer's queue: it completes once what Peer was given so far has ended. Null
  // when the backend cannot make one (the bytes then go through the host).
  cl_event after(ExecDevice &Peer);

private:
  DeviceBackend &Backend;
  std::map<ExecDevice *, cl_event> Made;
};

// The parts of Missing (root coordinates) that Device copies from its peers, taken out of
// Missing, which keeps what comes from the host. None where LIBSPLIT_PEER_COPY is off (Enabled).
std::vector<Buffer::PeerPart> takePeerParts(Buffer &Root, const ExecDevice &Device,
                                            RangeSet &Missing, PeerMarkers &Markers, bool Enabled);
// On Device's worker: enqueues the copies of Parts into Device's copy of Root.
cl_int copyPeerParts(Buffer &Root, ExecDevice &Device, const std::vector<Buffer::PeerPart> &Parts,
                     PeerMarkers &Markers);

} // namespace libsplit
