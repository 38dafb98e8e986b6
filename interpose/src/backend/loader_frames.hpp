// Whether the calling thread runs code that the dynamic loader called: a library's constructor,
// during dlopen (the loader's lock held: another thread that loads a library meanwhile waits
// for this one) or at the process's start.
#pragma once

namespace libsplit {

// From the frames of the calling thread's stack: false where they cannot be read (a frame
// without unwind information, the loader run as a program).
bool runsUnderLoader();

} // namespace libsplit
