// How fast a device moves bytes to and from page-locked host memory, measured once as it opens:
// what prices a relay (memory/relay.hpp) before any ran. A split's first spread of a grid held by
// the app's device alone is priced from it (launch_plan.cpp), and the split guard admits that
// spread only within a budget of the run's time: priced at the pageable host copy's rate, a
// stencil's 1 GiB grid waited longer than the run for it.
#pragma once

#include "device_backend.hpp"
#include "exec_device.hpp"

namespace libsplit {

// Writes a few MiB from Device's relay staging (DeviceBackend::relayStaging, kept for its relays
// after) into a scratch buffer of its own, reads them back, twice, and keeps the second round's
// slower direction in Device.PageLockedBytesPerSecond. Its queue must have nothing of the app's
// (a device just opened). Leaves it unmeasured where anything fails.
void probePageLockedLink(DeviceBackend &Backend, ExecDevice &Device);

} // namespace libsplit
