// Where a host write goes at the call (LIBSPLIT_UPLOAD), rather than at the first launch that
// needs it.
#pragma once

namespace libsplit {

struct ExecDevice;

// Where a host write goes at the call (LIBSPLIT_UPLOAD).
struct HostUpload {
  ExecDevice *AppDevice = nullptr; // all of it to the app's device, straight from its memory
  bool WhereUsed = false;          // each splitting device the part its slices are expected to use
                                   // (with AppDevice: it also gets everything)
};

} // namespace libsplit
