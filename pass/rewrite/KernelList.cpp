//===- KernelList.cpp - The machine-readable list of rewritten kernels ----===//

#include "KernelList.h"

#include "PartitionReady.h"
#include "RewriteContract.h"

#include "llvm/Support/raw_ostream.h"

namespace libsplit {

namespace {

/// Reasons end their line; a newline inside one would start a bogus record.
std::string oneLine(llvm::StringRef Text) {
  std::string Line;
  for (char C : Text)
    Line += (C == '\n' || C == '\r') ? ' ' : C;
  return Line;
}

} // namespace

void writeKernelList(llvm::raw_ostream &Out, const PartitionReadyProgram &Program) {
  Out << "libsplit-kernels " << KernelListVersion << "\n";
  if (Program.Rewritten)
    Out << "program rewritten\n";
  else
    Out << "program rejected " << oneLine(Program.ProgramReason) << "\n";
  for (const KernelEntry &Kernel : Program.Kernels) {
    Out << "kernel " << Kernel.Name << " args " << Kernel.NumArgs;
    for (unsigned I = 0; I < std::size(AppendedParams); ++I) {
      // "splitdim", "numgroups", "splitorigin": the names without the prefix.
      Out << ' ' << AppendedParams[I].Name.drop_front(ReservedPrefix.size() + 1) << ' ';
      if (Program.Rewritten)
        Out << Kernel.NumArgs + I;
      else
        Out << '-';
    }
    if (Kernel.Splittable)
      Out << " splittable" << (Kernel.OffsetExact ? " offset-exact" : "") << "\n";
    else
      Out << " unsplittable " << oneLine(Kernel.Reason) << "\n";
  }
  Out << "end " << Program.Kernels.size() << "\n";
}

} // namespace libsplit
