#include "libsplit/analysis/summary.hpp"

namespace libsplit::analysis {

bool isAtomic(AccessKind Kind) { return Kind != AccessKind::Read && Kind != AccessKind::Write; }

bool writesMemory(AccessKind Kind) { return Kind != AccessKind::Read; }

const KernelSummary *ProgramSummary::find(const std::string &Name) const {
  for (const KernelSummary &Kernel : Kernels)
    if (Kernel.Name == Name)
      return &Kernel;
  return nullptr;
}

} // namespace libsplit::analysis
