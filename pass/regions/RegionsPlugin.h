//===- RegionsPlugin.h - The libsplit passes, by name ---------------------===//
//
// Registers with a PassBuilder every pass and analysis of the region analysis:
//   libsplit-prepare           inline helpers, canonical work-item queries (module)
//   libsplit-canonicalize      the whole pipeline the analysis expects (module)
//   print<libsplit-regions>    print each kernel's summary (function)
// and the function analysis KernelRegionsAnalysis. The same registration
// serves `opt -load-pass-plugin=libsplit_regions.so` and libsplit-cc, which
// links this file statically (LLVM's examples/Bye pattern: the plugin entry
// point is compiled out with LIBSPLIT_REGIONS_LINK_INTO_TOOLS).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_REGIONSPLUGIN_H
#define LIBSPLIT_PASS_REGIONS_REGIONSPLUGIN_H

#include "llvm/Passes/PassPlugin.h"

namespace libsplit::regions {

llvm::PassPluginLibraryInfo getLibsplitRegionsPluginInfo();

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_REGIONSPLUGIN_H
