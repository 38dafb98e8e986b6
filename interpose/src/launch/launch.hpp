// clEnqueueNDRangeKernel's command: decides whether and how to split, moves the data each
// device lacks, runs the slices in parallel and records which device holds what it wrote.
#pragma once

#include "context.hpp"
#include "kernel.hpp"
#include "launch_request.hpp"
#include "launch_services.hpp"
#include "program.hpp"
#include "queue.hpp"
#include "timeline.hpp"

#include <array>
#include <optional>

namespace libsplit {

// The services K's launches use: its context's.
inline LaunchServices &servicesOf(const Kernel &K) {
  return K.program().context().launchServices();
}

// What a launch named by LIBSPLIT_FAIL_LAUNCH ends with: an error a device may report for a
// kernel that started (after the kernel ran, so that every later step sees a launch whose
// device work happened but failed).
inline constexpr cl_int InjectedFailure = CL_OUT_OF_RESOURCES;

// Runs on the queue's executor thread, or on the app's (Queue::enqueue). A launch left running
// takes Request's arguments with it.
cl_int executeLaunch(Queue &Q, Kernel &K, LaunchRequest &Request, Event &Done);
// Why a launch ran whole, in the summary's and the trace's words, wherever it was decided.
inline constexpr const char *GuardedWholeReason =
    "the planner found running it whole cheaper than splitting it (LIBSPLIT_SPLIT=auto)";
inline constexpr const char *FewerThanTwoReason = "fewer than two devices";
inline constexpr const char *NoSplitPricedReason =
    "no split of it priced yet: the planner probes one once the run can afford it "
    "(LIBSPLIT_SPLIT=auto)";
// The same for a launch the split guard decided whole (D): GuardedWholeReason where it had both
// prices to compare; NoSplitPricedReason where it settled on running whole with no split priced
// (beside devices that share its hardware, until a probe is affordable); else the guard's own
// reason (a kernel's first launch, launched once, is never priced split).
const char *guardedWholeReason(const planner::Decision &D);

// The split guard's decision for a launch, where it can be made at the app's call rather than
// when the launch runs: a kernel settled on running whole with nothing to measure or probe, and,
// where the devices share cores (a split is priced without a plan), every launch. A launch
// decided whole and settled may start on the app's thread behind unfinished launches, as where
// nothing splits; deciding later, launches queued behind one whose decision was pending were all
// left to the executor while the app launched faster than it ran them.
std::optional<planner::Decision> decideAtCall(Queue &Q, Kernel &K, const LaunchRequest &Request);
// Whether another kernel's probe has spread buffers this launch names (planner::Decision::Spreads)
// since its kernel last looked: its guard then probes its split at this launch (joinProbe), and
// a decision made at the call without the launch's arguments (a repeat's) is made again.
bool joinsProbe(Queue &Q, Kernel &K, const LaunchRequest &Request);
// Takes the launch's decision at the call back from its guard (a settled whole one), before it
// is decided again.
void withdrawDecision(Queue &Q, Kernel &K, const LaunchRequest &Request);

// Loads the planner's warm start (LIBSPLIT_TUNING), once, for the split devices Devices (their
// names make the tuning's device signature): at a context's creation or its first guarded launch.
void startPlannerTuning(LaunchServices &S, const std::vector<ExecDevice *> &Devices);

// A launch that needs no command, no event and no plan of libsplit's, run on the app's thread:
// the app asked no event, the kernel runs whole on the app's device (the only device, or the
// guard settled on running it whole and does not measure this launch), its data is there, and
// nothing records it. Returns false, having changed nothing but what the decision counted,
// where the launch must go the usual way (Request's arguments then stay with it); else Result
// is the call's result. (The usual way's command, event and bookkeeping cost a launch of a
// short kernel about as much host time as the driver's own launch.)
bool launchDirect(Queue &Q, Kernel &K, LaunchRequest &Request, cl_int &Result);

// launchDirect's repeat of the kernel's last direct launch on Q (Memo, from viewForLaunch): the
// same buffers, their bytes where that launch left them (valid on the app's device, what it
// writes there alone), still held by the queue's newest entry. Only the real kernel is enqueued,
// with the kernel's scalars where they changed (ScalarsChanged; Request.Args stays empty), and
// with Memo's buffers set back on it where Memo is the memo before the last one (SetBack: a loop
// that swaps two buffers). False, having changed nothing, where it is not such a repeat: Request
// then needs its whole snapshot.
bool launchRepeat(Queue &Q, Kernel &K, LaunchRequest &Request, const RepeatMemo &Memo,
                  bool ScalarsChanged, bool SetBack, cl_int &Result);

// Whether a launch will run whole on the app's device as natively, whatever it is: no split
// device is open and it is not one that may run in chunks while they open. Such a launch may
// start on the app's thread (Queue::enqueue) even on its kernel's first launch, as launchDirect
// does where the app asks no event: handed to the executor, a one-launch app waited for its
// thread to wake.
bool runsWholeOnAppDevice(Queue &Q, Kernel &K, const LaunchRequest &Request);

} // namespace libsplit
