#include "libsplit/analysis/atomic_merge.hpp"

#include "libsplit/analysis/summary_text.hpp"

#include <algorithm>

namespace libsplit::analysis {

namespace {

std::optional<std::int64_t> constantValue(const Expr &E) {
  if (E.Nodes.size() == 1 && E.Nodes[0].IsLeaf && E.Nodes[0].Kind == Leaf::Constant)
    return E.Nodes[0].Value;
  return std::nullopt;
}

std::optional<CombineOp> combineOpFor(AccessKind Kind) {
  switch (Kind) {
  case AccessKind::AtomicAdd:
  case AccessKind::AtomicSub:
  case AccessKind::AtomicInc:
  case AccessKind::AtomicDec:
    return CombineOp::Sum;
  case AccessKind::AtomicMin:
    return CombineOp::Min;
  case AccessKind::AtomicMax:
    return CombineOp::Max;
  case AccessKind::AtomicAnd:
    return CombineOp::And;
  case AccessKind::AtomicOr:
    return CombineOp::Or;
  case AccessKind::AtomicXor:
    return CombineOp::Xor;
  case AccessKind::Read:
  case AccessKind::Write:
  case AccessKind::AtomicXchg:
  case AccessKind::AtomicCmpXchg:
    break;
  }
  return std::nullopt;
}

std::string accessText(const Access &A) {
  return std::string(accessKindName(A.Kind)) + " " + atomicElementName(A.Element);
}

} // namespace

std::optional<Combine> combineFor(AccessKind Kind, AtomicElement Element) {
  const std::optional<CombineOp> Op = combineOpFor(Kind);
  if (!Op)
    return std::nullopt;
  Combine How;
  How.Op = *Op;
  switch (Element) {
  case AtomicElement::I32:
  case AtomicElement::U32:
    How.Width = 4;
    break;
  case AtomicElement::I64:
  case AtomicElement::U64:
    How.Width = 8;
    break;
  case AtomicElement::F32: // float sums round differently in another order
  case AtomicElement::F64:
  case AtomicElement::Unknown:
    return std::nullopt;
  }
  // Wrap-around sums and bit operations are the same on signed and unsigned elements.
  How.Signed = (How.Op == CombineOp::Min || How.Op == CombineOp::Max) &&
               (Element == AtomicElement::I32 || Element == AtomicElement::I64);
  return How;
}

bool planAtomicMerge(const KernelSummary &Kernel, std::size_t ArgIndex, AtomicMerge &Plan,
                     std::string &Why) {
  Plan = AtomicMerge{};
  if (ArgIndex >= Kernel.Args.size())
    return true;
  const ArgSummary &Arg = Kernel.Args[ArgIndex];
  if (Arg.Kind != ArgKind::Global)
    return true;
  const std::string Name = Arg.Name.empty() ? "argument " + std::to_string(ArgIndex) : Arg.Name;
  bool Atomic = false, Plain = false;
  for (const Access &A : Arg.Accesses)
    (isAtomic(A.Kind) ? Atomic : Plain) = true;
  if (!Atomic)
    return true;
  if (Plain) {
    Why = Name + " is updated atomically and also read or written plainly";
    return false;
  }

  std::vector<Combine> Kinds;
  for (const Access &A : Arg.Accesses) {
    const std::optional<Combine> How = combineFor(A.Kind, A.Element);
    if (!How) {
      if (A.Kind == AccessKind::AtomicXchg || A.Kind == AccessKind::AtomicCmpXchg)
        Why = accessText(A) + " on " + Name + ": the result depends on which device updates last";
      else
        Why = accessText(A) + " on " + Name +
              ": per-device results of this element type cannot be combined exactly";
      return false;
    }
    bool Seen = false;
    for (const Combine &K : Kinds)
      Seen |= K == *How;
    if (!Seen)
      Kinds.push_back(*How);
  }
  if (Kinds.size() == 1) {
    CombineRange Whole;
    Whole.How = Kinds.front();
    Whole.Whole = true;
    Plan.Ranges.push_back(Whole);
    return true;
  }

  // Several combinations share the argument: each access must stay on its own constant bytes.
  std::vector<const Access *> Placed;
  for (const Access &A : Arg.Accesses) {
    const Combine How = *combineFor(A.Kind, A.Element);
    const std::optional<std::int64_t> First = constantValue(A.First), Last = constantValue(A.Last);
    if (A.Unknown || !First || !Last || *First < 0 || *Last < *First || *First % How.Width != 0 ||
        (*Last + 1) % How.Width != 0) {
      Why = Name + " is updated by " + accessText(A) +
            " and other atomics at offsets that may overlap";
      Plan = AtomicMerge{};
      return false;
    }
    for (std::size_t I = 0; I < Plan.Ranges.size(); ++I) {
      const CombineRange &Other = Plan.Ranges[I];
      if (!(Other.How == How) && *First <= Other.Last && Other.First <= *Last) {
        Why = Name + " is updated by " + accessText(A) + " and " + accessText(*Placed[I]) +
              " on bytes that may overlap";
        Plan = AtomicMerge{};
        return false;
      }
    }
    CombineRange Range;
    Range.How = How;
    Range.First = *First;
    Range.Last = *Last;
    Plan.Ranges.push_back(Range);
    Placed.push_back(&A);
  }
  // Each byte must be combined once: ranges of one combination that overlap or touch (add and
  // sub on one field) become one. Ranges of different combinations never overlap here.
  std::sort(Plan.Ranges.begin(), Plan.Ranges.end(),
            [](const CombineRange &X, const CombineRange &Y) { return X.First < Y.First; });
  std::vector<CombineRange> Disjoint;
  for (const CombineRange &Range : Plan.Ranges) {
    if (!Disjoint.empty() && Disjoint.back().How == Range.How &&
        Range.First <= Disjoint.back().Last + 1)
      Disjoint.back().Last = std::max(Disjoint.back().Last, Range.Last);
    else
      Disjoint.push_back(Range);
  }
  Plan.Ranges = std::move(Disjoint);
  return true;
}

} // namespace libsplit::analysis
