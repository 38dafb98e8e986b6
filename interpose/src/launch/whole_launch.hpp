// A launch run whole on one device: the app's own kernel on the app's device, or the
// partition-ready kernel elsewhere (a kernel that cannot split measured faster there, a launch
// too small to split run where its data is), and which buffers it leaves valid where.
#pragma once

#include "launch.hpp"
#include "launch_plan.hpp"
#include "launch_report.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace libsplit {

// WholePlacement's key for a launch: the app's NDRange.
std::string placementKey(const LaunchRequest &R);

// After a launch run whole on Device: every buffer argument it may have changed (mayWrite) is
// valid there only. A buffer created read-only that the analysis shows written is warned about
// once per kernel and argument: it works natively, and is kept coherent here too.
void markWrittenWhole(Kernel &K, const LaunchRequest &R, ExecDevice &Device);

// The whole launch on one device: the app's own kernel and NDRange (NULL local size included),
// or, with Moved, the partition-ready kernel (on a device other than the app's) over the same
// NDRange, R's local size set. Its kernel time goes to the kernel's WholePlacement under Key
// (none when empty).
// With Pipeline (an in-order queue), the kernel is left running and its wait handed to the queue
// (FinishesLater), so that the app's next launch is queued on the device before this one ends;
// R's arguments then go with it (they stay alive until it ran, whatever the app releases).
// Note, when given: the split guard hears what the launch cost, host preparation to kernel end.
// This is every launch of a kernel that does not split, so its host cost is kept low: nothing
// is built where no byte moves, and the record only where a summary or trace wants it.
// With Regions (the launch planned as one slice on Device, R's local size set), only the bytes
// its regions need move, and only those it may write change hands, as for a split launch's slice.
cl_int runWhole(Kernel &K, LaunchRequest &R, ExecDevice &Device, std::string_view Reason,
                Queue *Pipeline, bool Fail, bool Moved, const std::string &Key,
                const std::optional<GuardNote> &Note = std::nullopt,
                const std::map<Buffer *, BufferPlan> *Regions = nullptr);

// A launch that does not split, for Reason, on the app's device, or, Movable (the kernel itself
// cannot split, not a launch too small to), on another of Devices (the split devices that can
// run it) if measured faster there (WholePlacement). Note: the split guard decided it; Settled
// false: the guard needs its cost before the next decision, so it is not left running.
cl_int runUnsplit(Queue &Q, Kernel &K, LaunchRequest &Request,
                  const std::vector<ExecDevice *> &Devices, bool Fail, std::string_view Reason,
                  bool Movable = false, const std::optional<GuardNote> &Note = std::nullopt,
                  bool Settled = true);

} // namespace libsplit
