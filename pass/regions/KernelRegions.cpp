//===- KernelRegions.cpp - The region analysis of one kernel --------------===//

#include "KernelRegions.h"

#include "AtomicMerge.h"
#include "BufferEscapes.h"
#include "ExprBuild.h"
#include "GuardFinder.h"
#include "IndexSources.h"
#include "KernelArgs.h"
#include "MemoryAccesses.h"
#include "PointerOrigins.h"
#include "SymbolicArith.h"
#include "ValueTranslator.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <map>

namespace libsplit::regions {

using namespace llvm;
using analysis::Access;
using analysis::AccessKind;

AnalysisKey KernelRegionsAnalysis::Key;

namespace {

/// One line, for the summary's `why` and `unsplittable` fields.
std::string oneLine(std::string Text) {
  for (char &C : Text)
    if (C == '\n' || C == '\r')
      C = ' ';
  return Text;
}

Access unknownAccess(AccessKind Kind, const std::string &Why,
                     analysis::AtomicElement Element = analysis::AtomicElement::Unknown) {
  Access A;
  A.Kind = Kind;
  A.Element = Element;
  A.Unknown = true;
  A.Why = oneLine(Why);
  return A;
}

bool sameGuards(const std::vector<analysis::Guard> &A, const std::vector<analysis::Guard> &B) {
  if (A.size() != B.size())
    return false;
  for (std::size_t I = 0; I < A.size(); ++I)
    if (A[I].Id != B[I].Id || A[I].Dim != B[I].Dim || !(A[I].Lower == B[I].Lower) ||
        !(A[I].Upper == B[I].Upper))
      return false;
  return true;
}

bool sameUnknown(const Access &A, const Access &B) {
  if (A.Kind != B.Kind || A.Element != B.Element || A.Why != B.Why ||
      A.Via.has_value() != B.Via.has_value())
    return false;
  return !A.Via || (A.Via->SourceArg == B.Via->SourceArg && A.Via->First == B.Via->First &&
                    A.Via->Last == B.Via->Last);
}

/// Turns the analysis' view of one access into the summary's, per buffer.
class AccessBuilder {
public:
  AccessBuilder(ValueTranslator &Values, PointerResolver &Pointers, GuardFinder &Guards,
                LoopInfo &LI, const DataLayout &DL, analysis::KernelSummary &Summary)
      : Values(Values), Pointers(Pointers), Guards(Guards), LI(LI), DL(DL), Summary(Summary) {}

  /// False (with the kernel marked unsplittable) when the access may touch any buffer.
  bool add(const MemoryAccess &Access) {
    PointerOrigin Origin = Pointers.resolve(Access.Pointer);
    if (Origin.Unknown) {
      Summary.Splittable = false;
      Summary.NotSplittableReason = oneLine("an access through " + Origin.Why);
      return false;
    }
    for (const PointerTarget &Target : Origin.Targets) {
      Summary.Args[Target.Arg].Accesses.push_back(build(Access, Target));
      if (Access.ResultUsed && analysis::isAtomic(Access.Kind))
        UsedResults.emplace(Target.Arg, Access.Kind); // keeps the first one seen
    }
    return true;
  }

  /// Per argument, an atomic whose returned value the kernel uses (the first one seen).
  const std::map<std::uint32_t, AccessKind> &usedResults() const { return UsedResults; }

private:
  analysis::Access build(const MemoryAccess &Access, const PointerTarget &Target) {
    if (!Access.Unbounded.empty())
      return unknownAccess(Access.Kind, Access.Unbounded, Access.Element);
    auto Unknown = [&](const std::string &Why) {
      analysis::Access A = unknownAccess(Access.Kind, Why, Access.Element);
      SmallVector<const Value *, 3> Roots = {Access.Pointer};
      if (Access.Index)
        Roots.push_back(Access.Index);
      if (Access.ByteCount)
        Roots.push_back(Access.ByteCount);
      A.Via = findIndexSource(Roots, Pointers, LI, DL);
      if (A.Via && A.Via->SourceArg == Target.Arg && writesMemory(Access.Kind))
        A.Via.reset(); // an index read from the buffer being written is no help
      return A;
    };
    if (!Target.Offset)
      return Unknown(Target.Why);
    SymbolicValue Offset = *Target.Offset;
    if (Access.Index) {
      std::optional<SymbolicValue> Index = Values.value(Access.Index, Interp::Unsigned);
      if (!Index)
        return Unknown(Values.why());
      Offset = addValues(
          Offset,
          mulValues(*Index, SymbolicValue::constant(static_cast<std::int64_t>(Access.IndexScale))));
    }
    // The last byte: Bytes, or a run-time count of elements, past the offset.
    Expr LastByte;
    if (Access.ByteCount) {
      std::optional<SymbolicValue> Count = Values.value(Access.ByteCount, Interp::Unsigned);
      if (!Count)
        return Unknown(Values.why());
      SymbolicValue Length =
          mulValues(*Count, SymbolicValue::constant(static_cast<std::int64_t>(Access.CountScale)));
      LastByte = regions::add(regions::add(Offset.Hi, Length.Hi), analysis::constant(-1));
    } else {
      LastByte =
          regions::add(Offset.Hi, analysis::constant(static_cast<std::int64_t>(Access.Bytes) - 1));
    }
    analysis::Access A;
    A.Kind = Access.Kind;
    A.Element = Access.Element;
    A.First = Offset.Lo;
    A.Last = LastByte;
    if (tooLarge(A.First) || tooLarge(A.Last))
      return unknownAccess(Access.Kind, "expression too large", Access.Element);
    A.Guards = Guards.guardsFor(Access.At->getParent());
    return A;
  }

  ValueTranslator &Values;
  PointerResolver &Pointers;
  GuardFinder &Guards;
  LoopInfo &LI;
  const DataLayout &DL;
  analysis::KernelSummary &Summary;
  std::map<std::uint32_t, AccessKind> UsedResults;
};

} // namespace

std::vector<Access> mergeAccesses(const std::vector<Access> &Accesses) {
  std::vector<Access> Out;
  for (const Access &A : Accesses) {
    bool Merged = false;
    for (Access &Existing : Out) {
      if (Existing.Kind != A.Kind || Existing.Element != A.Element || Existing.Unknown != A.Unknown)
        continue;
      if (A.Unknown) {
        Merged = sameUnknown(Existing, A);
      } else if (sameGuards(Existing.Guards, A.Guards)) {
        // Same symbolic bounds, constant offsets whose byte ranges touch or overlap.
        Expr FirstA, LastA, FirstB, LastB;
        std::int64_t OffFirstA, OffLastA, OffFirstB, OffLastB;
        splitOffset(Existing.First, FirstA, OffFirstA);
        splitOffset(Existing.Last, LastA, OffLastA);
        splitOffset(A.First, FirstB, OffFirstB);
        splitOffset(A.Last, LastB, OffLastB);
        if (FirstA == FirstB && LastA == LastB && OffFirstB <= OffLastA + 1 &&
            OffFirstA <= OffLastB + 1) {
          Existing.First = add(FirstA, analysis::constant(std::min(OffFirstA, OffFirstB)));
          Existing.Last = add(LastA, analysis::constant(std::max(OffLastA, OffLastB)));
          Merged = true;
        }
      }
      if (Merged)
        break;
    }
    if (!Merged)
      Out.push_back(A);
  }
  return Out;
}

KernelRegionsAnalysis::Result KernelRegionsAnalysis::run(Function &F,
                                                         FunctionAnalysisManager &FAM) {
  Result R;
  R.IsKernel = isKernel(F);
  analysis::KernelSummary &Summary = R.Summary;
  Summary.Name = F.getName().str();
  if (!R.IsKernel)
    return R;
  const std::vector<KernelArg> Args = describeKernelArgs(F);
  for (const KernelArg &Arg : Args) {
    analysis::ArgSummary ArgSummary;
    ArgSummary.Kind = Arg.Kind;
    ArgSummary.Scalar = Arg.Scalar;
    ArgSummary.Name = Arg.Name == "-" ? "" : Arg.Name;
    Summary.Args.push_back(std::move(ArgSummary));
  }
  const DataLayout &DL = F.getParent()->getDataLayout();
  const std::string Forbidden = findUnsplittableConstruct(F, Args, DL);
  if (!Forbidden.empty()) {
    Summary.Splittable = false;
    Summary.NotSplittableReason = oneLine(Forbidden);
    return R;
  }

  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  ValueTranslator Values(Args, SE, LI, DL);
  PointerResolver Pointers(Args, Values, SE, LI, DL);
  GuardFinder Guards(Values, DT);
  AccessBuilder Builder(Values, Pointers, Guards, LI, DL, Summary);
  for (const MemoryAccess &Access : collectMemoryAccesses(F, DL))
    if (!Builder.add(Access)) {
      for (analysis::ArgSummary &Arg : Summary.Args)
        Arg.Accesses.clear();
      return R;
    }

  // Images are whole memory objects the analysis does not look into.
  for (std::size_t I = 0; I < Args.size(); ++I) {
    if (Args[I].Object != MemoryObject::Image)
      continue;
    const std::string Why = "image accesses are not analysed";
    if (Args[I].AccessQual != "write_only")
      Summary.Args[I].Accesses.push_back(unknownAccess(AccessKind::Read, Why));
    if (Args[I].AccessQual == "write_only" || Args[I].AccessQual == "read_write")
      Summary.Args[I].Accesses.push_back(unknownAccess(AccessKind::Write, Why));
  }
  Summary.LoopLast = Values.loopLasts();
  for (analysis::ArgSummary &Arg : Summary.Args)
    Arg.Accesses = mergeAccesses(Arg.Accesses);
  const std::string Atomics = findUncombinableAtomics(Summary, Builder.usedResults());
  if (!Atomics.empty()) {
    // The regions are right and stay (print<libsplit-regions> shows them); only the devices'
    // copies cannot be put back together.
    Summary.Splittable = false;
    Summary.NotSplittableReason = oneLine(Atomics);
  }
  return R;
}

} // namespace libsplit::regions
