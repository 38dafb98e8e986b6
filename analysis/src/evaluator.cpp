#include "libsplit/analysis/evaluator.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace libsplit::analysis {

namespace {

// A closed integer range; Bounded == false means "could be anything" (the sound answer to an
// overflow or to an operation interval arithmetic cannot bound).
struct ValueRange {
  std::int64_t Lo = 0;
  std::int64_t Hi = 0;
  bool Bounded = true;
};

constexpr ValueRange Unbounded{0, 0, false};

ValueRange exact(std::int64_t Value) { return {Value, Value, true}; }

ValueRange fromU64(std::uint64_t Lo, std::uint64_t Hi) {
  constexpr auto Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (Lo > Max || Hi > Max || Lo > Hi)
    return Unbounded;
  return {static_cast<std::int64_t>(Lo), static_cast<std::int64_t>(Hi), true};
}

// Hull of four corner values, or Unbounded if any corner overflowed.
template <typename Fn> ValueRange corners(const ValueRange &A, const ValueRange &B, Fn Compute) {
  std::int64_t Values[4];
  const std::int64_t As[2] = {A.Lo, A.Hi}, Bs[2] = {B.Lo, B.Hi};
  for (int I = 0; I < 4; ++I)
    if (!Compute(As[I / 2], Bs[I % 2], Values[I]))
      return Unbounded;
  return {*std::min_element(Values, Values + 4), *std::max_element(Values, Values + 4), true};
}

ValueRange applyOp(Op Operator, const ValueRange &A, const ValueRange &B) {
  if (!A.Bounded || (arity(Operator) == 2 && !B.Bounded))
    return Unbounded;
  switch (Operator) {
  case Op::Add: {
    ValueRange R;
    if (__builtin_add_overflow(A.Lo, B.Lo, &R.Lo) || __builtin_add_overflow(A.Hi, B.Hi, &R.Hi))
      return Unbounded;
    return R;
  }
  case Op::Sub: {
    ValueRange R;
    if (__builtin_sub_overflow(A.Lo, B.Hi, &R.Lo) || __builtin_sub_overflow(A.Hi, B.Lo, &R.Hi))
      return Unbounded;
    return R;
  }
  case Op::Mul:
    return corners(A, B, [](std::int64_t X, std::int64_t Y, std::int64_t &Out) {
      return !__builtin_mul_overflow(X, Y, &Out);
    });
  case Op::Div:
    // Truncating division is monotone in each operand while the divisor keeps one sign, so
    // the extremes are at the corners.
    if (B.Lo <= 0 && B.Hi >= 0)
      return Unbounded;
    return corners(A, B, [](std::int64_t X, std::int64_t Y, std::int64_t &Out) {
      if (X == std::numeric_limits<std::int64_t>::min() && Y == -1)
        return false;
      Out = X / Y;
      return true;
    });
  case Op::Rem: {
    if (B.Lo <= 0 && B.Hi >= 0)
      return Unbounded;
    if (B.Lo == std::numeric_limits<std::int64_t>::min())
      return Unbounded;
    const std::int64_t Bound = std::max(B.Hi < 0 ? -B.Lo : B.Hi, B.Lo < 0 ? -B.Lo : B.Lo) - 1;
    if (A.Lo >= 0 && A.Hi <= Bound)
      return A; // smaller than every divisor: unchanged
    if (A.Lo >= 0)
      return {0, std::min(A.Hi, Bound), true};
    if (A.Hi <= 0)
      return {std::max(A.Lo, -Bound), 0, true};
    return {-Bound, Bound, true};
  }
  case Op::Min:
    return {std::min(A.Lo, B.Lo), std::min(A.Hi, B.Hi), true};
  case Op::Max:
    return {std::max(A.Lo, B.Lo), std::max(A.Hi, B.Hi), true};
  case Op::Shl:
    if (B.Lo < 0 || B.Hi > 62)
      return Unbounded;
    return applyOp(Op::Mul, A, {std::int64_t(1) << B.Lo, std::int64_t(1) << B.Hi, true});
  case Op::AShr:
    if (B.Lo < 0 || B.Hi > 63)
      return Unbounded;
    return corners(A, B, [](std::int64_t X, std::int64_t Y, std::int64_t &Out) {
      Out = X >> Y;
      return true;
    });
  case Op::And:
    // x & m lies in [0, m] whenever m >= 0, whatever x is.
    if (A.Lo >= 0 && B.Lo >= 0)
      return {0, std::min(A.Hi, B.Hi), true};
    if (A.Lo >= 0)
      return {0, A.Hi, true};
    if (B.Lo >= 0)
      return {0, B.Hi, true};
    return Unbounded;
  case Op::Neg:
    if (A.Lo == std::numeric_limits<std::int64_t>::min())
      return Unbounded;
    return {-A.Hi, -A.Lo, true};
  }
  return Unbounded;
}

ValueRange readScalar(const std::vector<std::uint8_t> &Bytes, ScalarType Type) {
  auto read = [&](auto Value) -> ValueRange {
    if (Bytes.size() != sizeof(Value))
      return Unbounded;
    std::memcpy(&Value, Bytes.data(), sizeof(Value));
    if constexpr (std::is_same_v<decltype(Value), std::uint64_t>)
      return fromU64(Value, Value);
    else
      return exact(static_cast<std::int64_t>(Value));
  };
  switch (Type) {
  case ScalarType::I8:
    return read(std::int8_t{});
  case ScalarType::U8:
    return read(std::uint8_t{});
  case ScalarType::I16:
    return read(std::int16_t{});
  case ScalarType::U16:
    return read(std::uint16_t{});
  case ScalarType::I32:
    return read(std::int32_t{});
  case ScalarType::U32:
    return read(std::uint32_t{});
  case ScalarType::I64:
    return read(std::int64_t{});
  case ScalarType::U64:
    return read(std::uint64_t{});
  case ScalarType::None:
    break;
  }
  return Unbounded;
}

// The values every leaf may take over one slice. Ids start as the slice's box and are narrowed
// by an access's guards.
struct SliceBox {
  std::array<ValueRange, 3> GlobalId, LocalId, GroupId;
};

class ExprEvaluator {
public:
  ExprEvaluator(const KernelSummary &Kernel, const NDRange &NDR, const LaunchArgs &Args)
      : Kernel(Kernel), NDR(NDR), Args(Args) {}

  ValueRange evaluate(const Expr &E, const SliceBox &Box) const {
    constexpr std::size_t MaxDepth = 64;
    std::array<ValueRange, MaxDepth> Stack;
    std::size_t Top = 0;
    for (const ExprNode &Node : E.Nodes) {
      if (Node.IsLeaf) {
        if (Top == MaxDepth)
          return Unbounded;
        Stack[Top++] = leafValue(Node, Box);
        continue;
      }
      const int Arity = arity(Node.Operator);
      if (Top < static_cast<std::size_t>(Arity))
        return Unbounded; // malformed: the parser rejects this, stay sound anyway
      ValueRange B = Arity == 2 ? Stack[--Top] : ValueRange{};
      ValueRange A = Stack[Top - 1];
      Stack[Top - 1] = applyOp(Node.Operator, A, B);
    }
    return Top == 1 ? Stack[0] : Unbounded;
  }

private:
  ValueRange leafValue(const ExprNode &Node, const SliceBox &Box) const {
    const std::uint32_t Dim = Node.Index;
    const bool InRange = Dim < NDR.WorkDim && Dim < 3;
    switch (Node.Kind) {
    case Leaf::Constant:
      return exact(Node.Value);
    case Leaf::ScalarArg:
      if (Node.Index >= Kernel.Args.size() || Node.Index >= Args.ScalarBytes.size())
        return Unbounded;
      return readScalar(Args.ScalarBytes[Node.Index], Kernel.Args[Node.Index].Scalar);
    case Leaf::GlobalId:
      return InRange ? Box.GlobalId[Dim] : exact(0);
    case Leaf::LocalId:
      return InRange ? Box.LocalId[Dim] : exact(0);
    case Leaf::GroupId:
      return InRange ? Box.GroupId[Dim] : exact(0);
    case Leaf::GlobalSize:
      return InRange ? fromU64(NDR.Global[Dim], NDR.Global[Dim]) : exact(1);
    case Leaf::LocalSize:
      return InRange ? fromU64(NDR.Local[Dim], NDR.Local[Dim]) : exact(1);
    case Leaf::NumGroups:
      return InRange ? fromU64(NDR.numGroups(Dim), NDR.numGroups(Dim)) : exact(1);
    case Leaf::GlobalOffset:
      return InRange ? fromU64(NDR.Offset[Dim], NDR.Offset[Dim]) : exact(0);
    case Leaf::WorkDim:
      return exact(NDR.WorkDim);
    }
    return Unbounded;
  }

  const KernelSummary &Kernel;
  const NDRange &NDR;
  const LaunchArgs &Args;
};

SliceBox sliceBox(const NDRange &NDR, const Slice &S) {
  SliceBox Box;
  for (std::uint32_t D = 0; D < 3; ++D) {
    const std::uint64_t Local = NDR.Local[D] ? NDR.Local[D] : 1;
    std::uint64_t FirstGroup = 0, EndGroup = NDR.Global[D] / Local;
    if (D == S.SplitDim) {
      FirstGroup = S.FirstGroup;
      EndGroup = S.EndGroup;
    }
    Box.GroupId[D] = fromU64(FirstGroup, EndGroup - 1);
    Box.LocalId[D] = fromU64(0, Local - 1);
    Box.GlobalId[D] =
        fromU64(NDR.Offset[D] + FirstGroup * Local, NDR.Offset[D] + EndGroup * Local - 1);
  }
  return Box;
}

// Narrows the box by the access's guards. Returns false when no work-item of the slice can
// execute the access.
bool applyGuards(const Access &A, const ExprEvaluator &Eval, SliceBox &Box) {
  for (const Guard &G : A.Guards) {
    if (G.Dim >= 3)
      continue; // malformed; ignoring a guard only widens the region
    std::array<ValueRange, 3> *Ids = G.Id == Leaf::GlobalId  ? &Box.GlobalId
                                     : G.Id == Leaf::LocalId ? &Box.LocalId
                                     : G.Id == Leaf::GroupId ? &Box.GroupId
                                                             : nullptr;
    if (!Ids)
      continue;
    ValueRange &Id = (*Ids)[G.Dim];
    if (!Id.Bounded)
      continue;
    ValueRange Lower = Eval.evaluate(G.Lower, Box), Upper = Eval.evaluate(G.Upper, Box);
    if (Lower.Bounded)
      Id.Lo = std::max(Id.Lo, Lower.Lo);
    if (Upper.Bounded)
      Id.Hi = std::min(Id.Hi, Upper.Hi);
    if (Id.Lo > Id.Hi)
      return false;
  }
  return true;
}

} // namespace

std::vector<ArgRegions> evaluateSlice(const KernelSummary &Kernel, const NDRange &NDR,
                                      const LaunchArgs &Args, const Slice &S) {
  std::vector<ArgRegions> Regions(Kernel.Args.size());
  if (S.FirstGroup >= S.EndGroup || S.SplitDim >= 3)
    return Regions;
  const ExprEvaluator Eval(Kernel, NDR, Args);
  const SliceBox Box = sliceBox(NDR, S);
  for (std::size_t ArgIndex = 0; ArgIndex < Kernel.Args.size(); ++ArgIndex) {
    ArgRegions &Out = Regions[ArgIndex];
    for (const Access &A : Kernel.Args[ArgIndex].Accesses) {
      const bool Atomic = isAtomic(A.Kind);
      if (Atomic)
        Out.AtomicKinds |= 1u << static_cast<unsigned>(A.Kind);
      bool &Whole = Atomic                       ? Out.AtomicWhole
                    : A.Kind == AccessKind::Read ? Out.ReadWhole
                                                 : Out.WriteWhole;
      IntervalSet &Set = Atomic ? Out.Atomic : A.Kind == AccessKind::Read ? Out.Read : Out.Write;
      if (A.Unknown) {
        Whole = true;
        continue;
      }
      SliceBox Guarded = Box;
      if (!applyGuards(A, Eval, Guarded))
        continue;
      const ValueRange First = Eval.evaluate(A.First, Guarded);
      const ValueRange Last = Eval.evaluate(A.Last, Guarded);
      if (!First.Bounded || !Last.Bounded || Last.Hi == std::numeric_limits<std::int64_t>::max()) {
        Whole = true;
        continue;
      }
      Set.add(First.Lo, Last.Hi + 1);
    }
  }
  return Regions;
}

bool writesDisjoint(const std::vector<ArgRegions> &A, const std::vector<ArgRegions> &B) {
  for (std::size_t I = 0; I < A.size() && I < B.size(); ++I) {
    const bool AWrites = A[I].WriteWhole || !A[I].Write.empty();
    const bool BWrites = B[I].WriteWhole || !B[I].Write.empty();
    if ((A[I].WriteWhole && BWrites) || (B[I].WriteWhole && AWrites))
      return false;
    if (A[I].Write.intersects(B[I].Write))
      return false;
  }
  return true;
}

std::vector<std::uint32_t> disjointWriteDims(const KernelSummary &Kernel, const NDRange &NDR,
                                             const LaunchArgs &Args) {
  return disjointWriteDims(NDR,
                           [&](const Slice &S) { return evaluateSlice(Kernel, NDR, Args, S); });
}

std::vector<std::uint32_t>
disjointWriteDims(const NDRange &NDR,
                  const std::function<std::vector<ArgRegions>(const Slice &)> &Evaluate) {
  std::vector<std::uint32_t> Dims;
  for (std::uint32_t D = 0; D < NDR.WorkDim && D < 3; ++D) {
    const std::uint64_t Groups = NDR.Local[D] ? NDR.numGroups(D) : 0;
    if (Groups < 2)
      continue;
    if (writesDisjoint(Evaluate(Slice{D, 0, Groups / 2}), Evaluate(Slice{D, Groups / 2, Groups})))
      Dims.push_back(D);
  }
  return Dims;
}

} // namespace libsplit::analysis
