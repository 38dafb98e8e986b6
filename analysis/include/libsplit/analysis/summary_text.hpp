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

constexpr int SummaryFormatVersion = 1;

std::string toText(const ProgramSummary &Program);

bool parseSummary(const std::string &Text, ProgramSummary &Out, std::string &Error);

} // namespace libsplit::analysis
