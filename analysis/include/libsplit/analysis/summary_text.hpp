//===- summary_text.hpp - The versioned text form of region summaries -----===//
//
// The only thing the kernel compiler and the runtime share. Line-oriented, documented in
// analysis/README.md; the first line is `libsplit-summary <version>`. The parser rejects
// anything malformed with a message naming the line (a corrupt cache file is recomputed).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/analysis/summary.hpp"

#include <string>

namespace libsplit::analysis {

// Version 2 added the element type of atomic accesses (`access atomic_min u32 ...`), by which
// the runtime combines per-device results of atomics (atomic_merge.hpp).
constexpr int SummaryFormatVersion = 3;

std::string toText(const ProgramSummary &Program);

// The format's names: `atomic_add`, `u32` (for messages that quote the summary).
const char *accessKindName(AccessKind Kind);
const char *atomicElementName(AtomicElement Element);

bool parseSummary(const std::string &Text, ProgramSummary &Out, std::string &Error);

} // namespace libsplit::analysis
