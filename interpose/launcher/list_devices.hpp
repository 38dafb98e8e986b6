// libsplit --list-devices: the platforms and devices of the real OpenCL implementation, with the
// P:D indices LIBSPLIT_DEVICES takes and which devices the current settings select.
#pragma once

#include "config/config.hpp"

namespace libsplit {

// Returns the launcher's exit status.
int listDevices(const config::Config &Settings);

} // namespace libsplit
