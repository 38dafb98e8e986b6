// Bytes a launch's device lacks that only another device of its real context holds go device to
// device (LIBSPLIT_PEER_COPY): the holder copies them into small staging buffers on its own
// queue, behind what wrote them, and the lacking device copies those into its buffer behind a
// marker of the holder's queue, so that the host waits for neither (through the host, it would
// read them back, waiting for the holder, then send them).
#pragma once

#include "buffer.hpp"
#include "device_backend.hpp"

#include <vector>

namespace libsplit {

// A launch's peer copies' markers and staging buffers, released with it once it has enqueued its
// copies (a command keeps what it uses and waits for).
class PeerMarkers {
public:
  explicit PeerMarkers(DeviceBackend &Backend) : Backend(Backend) {}
  ~PeerMarkers();
  PeerMarkers(const PeerMarkers &) = delete;
  PeerMarkers &operator=(const PeerMarkers &) = delete;

  // Stages Part on its peer's queue (Buffer::stageOnPeer), then marks that queue: false, with
  // nothing of Part left to copy, when the backend refuses either (the bytes then go through
  // the host).
  bool stage(Buffer &Root, Buffer::PeerPart &Part);

private:
  DeviceBackend &Backend;
  std::vector<cl_event> Markers;
  std::vector<cl_mem> Stages;
};

// The parts of Missing (root coordinates) that Device copies from its peers, staged there and
// taken out of Missing, which keeps what comes from the host. None where LIBSPLIT_PEER_COPY is
// off (Enabled).
std::vector<Buffer::PeerPart> takePeerParts(Buffer &Root, const ExecDevice &Device,
                                            RangeSet &Missing, PeerMarkers &Markers, bool Enabled);
// On Device's worker: enqueues the copies of Parts into Device's copy of Root.
cl_int copyPeerParts(Buffer &Root, ExecDevice &Device, const std::vector<Buffer::PeerPart> &Parts);

} // namespace libsplit
