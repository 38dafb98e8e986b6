//===- warm_start.hpp - What the split guards learnt, across runs --------===//
//
// A later run of the same application starts each kernel's guard settled on the way an earlier
// run settled on, with its cost models, instead of learning again from its first launches. The
// file is text, in the directory the runtime chooses:
//
//   libsplit-planner-warm-start 1
//   devices <signature hash>
//   guard <kernel> <app device> split|whole <split points> <whole points>
//   waited <app device> <seconds> [<launches>] [split-nothing]
//
// <signature hash> is the FNV-1a hash (16 hex digits) of the caller's description of the devices:
// records made on other devices do not apply. <kernel> is the runtime's key of a kernel (its name
// and its program's source key: no blanks). A model's points are "-" (none) or work:seconds
// pairs joined by ',' (CostModel::endpoints), written so that they read back to the same
// doubles. A waited line says how long a run launching from that app device waited for it in all,
// and over how many kernel launches (the runtime opens the split devices at once for an app whose
// runs are long, or whose launches were); split-nothing
// says a run that opened them at once for that wait settled every kernel on running whole (the
// next runs do not open them for a wait that short again). Blank lines and
// lines starting with '#' are ignored. The file is replaced atomically (a temporary file in the
// same directory, then rename); one that does not parse is ignored as a whole, with an error naming
// the line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/planner/split_guard.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace libsplit::planner {

struct SavedGuard {
  std::string Kernel;
  std::size_t AppDevice = 0;
  GuardRecord Record;
};

struct SavedWait {
  std::size_t AppDevice = 0;
  double Seconds = 0.0;
  std::uint64_t Launches = 0; // kernel launches of that run (0: not known)
  bool SplitNothing = false;
  // The work its launches queued were predicted to take, once that reached the split devices'
  // opening threshold (negative: not known, or never reached).
  double Queued = -1.0;
};

inline constexpr std::string_view GuardFileName = "planner-warm-start.txt";

std::string formatGuards(std::string_view DeviceSignature, const std::vector<SavedGuard> &Guards,
                         const std::vector<SavedWait> &Waits = {});

struct GuardLoad {
  std::vector<SavedGuard> Guards;
  std::vector<SavedWait> Waits;
  std::string Error; // non-empty: the file was ignored, this says why
};

// Whether an earlier run (Earlier, loaded) stayed short of the split devices' opening in every
// way: its launches known, its waits for its device below OpenAfterSeconds in all, its queued
// work never reaching that threshold, and no kernel settled on splitting (SavedSplit). Such a
// run never opened them, nor had a launch predicted long enough to: the next run's kernels'
// first launches need not run in chunks to find one (each costs a short loop's thread a few
// tenths of a millisecond).
bool stayedShortOfOpening(const SavedWait &Earlier, double OpenAfterSeconds, bool SavedSplit);

// Parses formatGuards' output; Origin names the text in error messages. A file made for other
// devices gives no guards and no error.
GuardLoad parseGuards(std::string_view Text, std::string_view DeviceSignature,
                      std::string_view Origin);

// Returns an error message, empty on success.
std::string saveGuards(const std::filesystem::path &Directory, std::string_view DeviceSignature,
                       const std::vector<SavedGuard> &Guards,
                       const std::vector<SavedWait> &Waits = {});
// A missing file gives no guards and no error.
GuardLoad loadGuards(const std::filesystem::path &Directory, std::string_view DeviceSignature);

} // namespace libsplit::planner
