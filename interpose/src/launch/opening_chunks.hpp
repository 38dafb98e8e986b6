// A launch while the split devices are not open yet: run in chunks on the app's device, which
// other devices join once open, where its time may pay for opening them.
#pragma once

#include "launch.hpp"

#include <optional>

namespace libsplit {

// While the split devices are not open: a kernel's first launch runs in chunks on the app's
// device (its time tells whether the launch pays for opening them: they open and join it), and
// so does a later one measured to last that long. Null where the launch runs whole as natively.
// Only launches with nothing to merge: a merge needs the host's copy of every written buffer
// before the first chunk, which a launch that stays on the app's device would pay for nothing.
// A kernel's first launch behind more than a little work queued on the app's device runs whole
// there instead, left running (planner::firstLaunchInChunks); the kernel stays unmeasured.
std::optional<cl_int> chunkWhileOpening(Queue &Q, Kernel &K, LaunchRequest &Request,
                                        const CompiledKernel &Facts, bool Fail);

// Whether launches of this size may run in chunks while the split devices open
// (chunkWhileOpening), as far as the context and the size tell.
bool chunksWhileOpening(Queue &Q, const LaunchRequest &R);

// Whether a kernel's first launch, were it to run in chunks, would wait little for work queued
// before it on the app's device (planner::firstLaunchInChunks): none of the app's commands ahead
// of it, and, where the app's thread would wait for its first chunk, few bytes that the driver
// still has to upload there for its buffers. AtCall: asked by the app's thread at the call, where
// commands the queue's executor runs or holds are ahead of it too; otherwise from the command's
// body, on the executor (where those are itself and what follows, and the app's thread does not
// wait for the chunk).
bool firstChunkWaitsLittle(Queue &Q, const LaunchRequest &R, bool AtCall);

// Whether its kernel's launches so far make this one run in chunks: the first (nothing measured
// yet), or one measured long enough to open the split devices for.
bool chunksByItsKernel(Queue &Q, Kernel &K, const LaunchRequest &R);

} // namespace libsplit
