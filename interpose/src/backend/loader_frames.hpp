// Whether the calling thread may run code that the dynamic loader called: a library's
// constructor, during dlopen (the loader's lock held: another thread that loads a library, or
// registers a thread_local's destructor, meanwhile waits for this one) or at the process's start.
#pragma once

namespace libsplit {

// From the frames of the calling thread's stack. Where they cannot all be read (a frame without
// unwind information: some JIT compilers' code), the answer is yes: what it changes costs a
// caller time, where a wrong no could hang the app.
bool mayRunUnderLoader();

} // namespace libsplit
