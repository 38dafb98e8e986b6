// How long an app waits for its device before the split devices open (LIBSPLIT_OPEN=auto), as
// a multiple of what creating the app's own context took.
#pragma once

#include "libsplit/planner/warm_start.hpp"

#include <cstddef>

namespace libsplit::planner {

// Opened on the app's thread, the devices hold the app up for their opening, and another
// platform (PoCL's CPU beside a GPU) costs its runtime's start, its compiler's builds and a
// release of up to a second: 15 times. Further devices of the app's own platform opened in the
// background (NVIDIA's GPUs) cost the app about their release at exit (about half what its own
// context took, each) and, for a run that ends while they open, the rest of their opening:
// 5 times per device to open, at most 15.
double openWaitFactor(bool InBackground, bool AppPlatformOnly, std::size_t DevicesToOpen);

// What an earlier run must have waited for the warm start to open the devices with the context:
// opened then, they cost every later run their whole opening, as on the app's thread.
double openAtCreationWaitFactor();

// Whether the work a run queues may open the split devices, after an earlier run (Earlier) that
// queued Earlier.Queued seconds once it reached the threshold (OpenAfterSeconds): not where that
// was less than twice the threshold. Opened then, only what it queued after could split, at
// most half of it saved on two devices, less than the opening costs it (an app that queues its
// whole run at once crosses the threshold with nothing left to split): its next runs open for
// their waits alone.
bool queuedWorkOpens(const SavedWait &Earlier, double OpenAfterSeconds);

// Whether an earlier run's waits for its device (Earlier) are worth opening the split devices
// with the next run's context, where no kernel of it settled on splitting: a wait of at least
// WaitThatPays, or one of a few times what the app's context took (CreateSeconds) over launches
// long enough to gain from a split, on devices that do not share cores, unless a run opened
// them for such a wait and split nothing (one try).
bool earlierWaitOpensAtCreation(const SavedWait &Earlier, double CreateSeconds, double WaitThatPays,
                                bool DevicesShareCores);

} // namespace libsplit::planner
