//===- AtomicMerge.cpp - Whether a kernel's global atomics can be combined ===//

#include "AtomicMerge.h"

#include "libsplit/analysis/atomic_merge.hpp"
#include "libsplit/analysis/summary_text.hpp"

namespace libsplit::regions {

std::string
findUncombinableAtomics(const analysis::KernelSummary &Summary,
                        const std::map<std::uint32_t, analysis::AccessKind> &UsedResults) {
  for (std::size_t I = 0; I < Summary.Args.size(); ++I) {
    const analysis::ArgSummary &Arg = Summary.Args[I];
    if (Arg.Kind != analysis::ArgKind::Global)
      continue; // __local atomics stay within a work-group, hence within a device
    const std::string Name = Arg.Name.empty() ? "argument " + std::to_string(I) : Arg.Name;
    auto Used = UsedResults.find(static_cast<std::uint32_t>(I));
    if (Used != UsedResults.end())
      return std::string("the value returned by ") + analysis::accessKindName(Used->second) +
             " on " + Name + " is used: it depends on the order of all work-items' updates";
    analysis::AtomicMerge Plan;
    std::string Why;
    if (!analysis::planAtomicMerge(Summary, I, Plan, Why))
      return Why;
  }
  return "";
}

} // namespace libsplit::regions
