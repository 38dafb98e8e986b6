#include "libsplit/analysis/evaluator.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>

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
  // Each loop's counter over the box (fillLoops), Unbounded until ranged (sliceBox).
  std::array<ValueRange, MaxSummaryLoops> Loops;
};

class ExprEvaluator {
public:
  ExprEvaluator(const KernelSummary &Kernel, const NDRange &NDR, const LaunchArgs &Args)
      : Kernel(Kernel), NDR(NDR), Args(Args) {}

  ValueRange evaluate(const Expr &E, const SliceBox &Box) const {
    const std::optional<ValueRange> Result = walk<ValueRange>(
        E, [&](const ExprNode &Node, ValueRange &Out) { Out = leafValue(Node, Box); },
        [](Op Operator, ValueRange &A, const ValueRange *B) {
          A = applyOp(Operator, A, B ? *B : ValueRange{});
          return true;
        });
    return Result ? *Result : Unbounded;
  }

  // The expression as an affine form of the slice's ids, or none where it is not one (a
  // product of two ids, a division or a minimum of ids, an unbounded step). Each step's range
  // is bounded over the box, so the 64-bit operations the expression describes never wrapped
  // there and the form's arithmetic is theirs: a shift left then right by the same amount (how
  // the compiler writes a 32-bit truncation) is the identity where the value fits.
  std::optional<Affine> affine(const Expr &E, const SliceBox &Box) const {
    // Left uninitialized: a long expression's stack is filled as it is walked.
    struct Item {
      ValueRange Range;
      bool HasForm;
      std::int64_t Constant;
      std::int64_t Coef[AffineVariables];
    };
    const std::optional<Item> Result = walk<Item>(
        E,
        [&](const ExprNode &Node, Item &Out) {
          Out.Range = leafValue(Node, Box);
          Out.HasForm = leafForm(Node, Out.Range, Out.Constant, Out.Coef);
        },
        [](Op Operator, Item &A, const Item *B) {
          const ValueRange Range = applyOp(Operator, A.Range, B ? B->Range : ValueRange{});
          if (!Range.Bounded)
            return false;
          A.Range = Range;
          if (Range.Lo == Range.Hi) { // one value over the whole box, whatever the operation
            A.HasForm = true;
            A.Constant = Range.Lo;
            std::fill(std::begin(A.Coef), std::end(A.Coef), 0);
            return true;
          }
          A.HasForm =
              A.HasForm && (!B || B->HasForm) &&
              combineInto(Operator, A.Constant, A.Coef, B ? B->Constant : 0, B ? B->Coef : nullptr);
          return true;
        });
    if (!Result || !Result->HasForm)
      return std::nullopt;
    Affine Form;
    Form.Constant = Result->Constant;
    std::copy(std::begin(Result->Coef), std::end(Result->Coef), Form.Coef.begin());
    return Form;
  }

private:
  // Walks the postfix expression with a stack of Items: Leaf(Node, Item) sets a leaf's, Apply
  // (Operator, A, B) folds B (none for a unary operator) into A, false to give up. The result,
  // or none where the expression is malformed, too deep, or given up.
  template <typename Item, typename LeafFn, typename ApplyFn>
  static std::optional<Item> walk(const Expr &E, LeafFn Leaf, ApplyFn Apply) {
    constexpr std::size_t MaxDepth = 64;
    std::array<Item, MaxDepth> Stack;
    std::size_t Top = 0;
    for (const ExprNode &Node : E.Nodes) {
      if (Node.IsLeaf) {
        if (Top == MaxDepth)
          return std::nullopt;
        Leaf(Node, Stack[Top++]);
        continue;
      }
      const int Arity = arity(Node.Operator);
      if (Top < static_cast<std::size_t>(Arity))
        return std::nullopt; // malformed: the parser rejects this, stay sound anyway
      const Item *B = Arity == 2 ? &Stack[--Top] : nullptr;
      if (!Apply(Node.Operator, Stack[Top - 1], B))
        return std::nullopt;
    }
    if (Top != 1)
      return std::nullopt;
    return Stack[0];
  }

  static bool isConstant(const std::int64_t *Coef) {
    return std::all_of(Coef, Coef + AffineVariables, [](std::int64_t C) { return C == 0; });
  }
  static bool scaleInto(std::int64_t &Constant, std::int64_t *Coef, std::int64_t Factor) {
    if (__builtin_mul_overflow(Constant, Factor, &Constant))
      return false;
    for (std::size_t V = 0; V < AffineVariables; ++V)
      if (__builtin_mul_overflow(Coef[V], Factor, &Coef[V]))
        return false;
    return true;
  }
  // A op B into A (the form of a result whose range is bounded over the box); false where the
  // result is not affine or a step overflowed.
  static bool combineInto(Op Operator, std::int64_t &Constant, std::int64_t *Coef,
                          std::int64_t BConstant, const std::int64_t *BCoef) {
    switch (Operator) {
    case Op::Add:
    case Op::Sub: {
      const bool Subtract = Operator == Op::Sub;
      auto step = [&](std::int64_t &X, std::int64_t Y) {
        return Subtract ? __builtin_sub_overflow(X, Y, &X) : __builtin_add_overflow(X, Y, &X);
      };
      if (step(Constant, BConstant))
        return false;
      for (std::size_t V = 0; V < AffineVariables; ++V)
        if (step(Coef[V], BCoef[V]))
          return false;
      return true;
    }
    case Op::Mul:
      if (isConstant(BCoef))
        return scaleInto(Constant, Coef, BConstant);
      if (isConstant(Coef)) {
        const std::int64_t Factor = Constant;
        Constant = BConstant;
        std::copy(BCoef, BCoef + AffineVariables, Coef);
        return scaleInto(Constant, Coef, Factor);
      }
      return false;
    case Op::Shl:
      if (!isConstant(BCoef) || BConstant < 0 || BConstant > 62)
        return false;
      return scaleInto(Constant, Coef, std::int64_t(1) << BConstant);
    case Op::AShr: {
      // Exact where every term is a multiple of the divisor (the value then is one).
      if (!isConstant(BCoef) || BConstant < 0 || BConstant > 62)
        return false;
      const std::int64_t Divisor = std::int64_t(1) << BConstant;
      if (Constant % Divisor != 0)
        return false;
      for (std::size_t V = 0; V < AffineVariables; ++V)
        if (Coef[V] % Divisor != 0)
          return false;
      Constant /= Divisor;
      for (std::size_t V = 0; V < AffineVariables; ++V)
        Coef[V] /= Divisor;
      return true;
    }
    case Op::Neg:
      return scaleInto(Constant, Coef, -1);
    default:
      return false;
    }
  }

  bool leafForm(const ExprNode &Node, const ValueRange &Range, std::int64_t &Constant,
                std::int64_t *Coef) const {
    const std::uint32_t Dim = Node.Index;
    const bool Id =
        Node.Kind == Leaf::GlobalId || Node.Kind == Leaf::LocalId || Node.Kind == Leaf::GroupId;
    std::fill(Coef, Coef + AffineVariables, 0);
    Constant = 0;
    if (Node.Kind == Leaf::LoopCount) {
      if (Dim >= Kernel.LoopLast.size() || Dim >= MaxSummaryLoops)
        return false;
      Coef[9 + Dim] = 1;
      return true;
    }
    if (Id && Dim < NDR.WorkDim && Dim < 3) {
      const std::size_t Kind = Node.Kind == Leaf::GlobalId ? 0 : Node.Kind == Leaf::LocalId ? 1 : 2;
      Coef[3 * Kind + Dim] = 1;
      return true;
    }
    if (!Range.Bounded || Range.Lo != Range.Hi)
      return false;
    Constant = Range.Lo;
    return true;
  }

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
    case Leaf::LoopCount:
      return Node.Index < Kernel.LoopLast.size() && Node.Index < MaxSummaryLoops
                 ? Box.Loops[Node.Index]
                 : Unbounded;
    }
    return Unbounded;
  }

  const KernelSummary &Kernel;
  const NDRange &NDR;
  const LaunchArgs &Args;
};

SliceBox sliceBox(const NDRange &NDR, const Slice &S) {
  SliceBox Box;
  Box.Loops.fill(Unbounded);
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

// Ranges the kernel's loop counters over the box, in order (a loop's last count may name the
// loops before it): [0, the greatest last count].
void fillLoops(const KernelSummary &Kernel, const ExprEvaluator &Eval, SliceBox &Box) {
  for (std::size_t N = 0; N < Kernel.LoopLast.size() && N < MaxSummaryLoops; ++N) {
    const ValueRange Last = Eval.evaluate(Kernel.LoopLast[N], Box);
    Box.Loops[N] =
        Last.Bounded ? ValueRange{0, std::max<std::int64_t>(Last.Hi, 0), true} : Unbounded;
  }
}

const ValueRange &idRange(const SliceBox &Box, std::size_t Variable) {
  if (Variable >= 9)
    return Box.Loops[Variable - 9];
  const std::array<ValueRange, 3> &Ids = Variable < 3   ? Box.GlobalId
                                         : Variable < 6 ? Box.LocalId
                                                        : Box.GroupId;
  return Ids[Variable % 3];
}

// The least and greatest values of an exact form over a box, or Unbounded (an id without bounds,
// or values past 64 bits).
ValueRange boundsOver(const Affine &Form, const SliceBox &Box) {
  __int128 Lo = Form.Constant, Hi = Form.Constant;
  for (std::size_t V = 0; V < Form.Coef.size(); ++V) {
    if (Form.Coef[V] == 0)
      continue;
    const ValueRange &Ids = idRange(Box, V);
    if (!Ids.Bounded)
      return Unbounded;
    const __int128 A = static_cast<__int128>(Form.Coef[V]) * Ids.Lo;
    const __int128 B = static_cast<__int128>(Form.Coef[V]) * Ids.Hi;
    Lo += A < B ? A : B;
    Hi += A < B ? B : A;
  }
  constexpr __int128 Min = std::numeric_limits<std::int64_t>::min();
  constexpr __int128 Max = std::numeric_limits<std::int64_t>::max();
  if (Lo < Min || Hi > Max)
    return Unbounded;
  return {static_cast<std::int64_t>(Lo), static_cast<std::int64_t>(Hi), true};
}

// An expression's range over the box: from its exact form where there is one.
ValueRange rangeOf(const Expr &E, const std::optional<Affine> *Form, const ExprEvaluator &Eval,
                   const SliceBox &Box) {
  if (Form && *Form)
    if (ValueRange R = boundsOver(**Form, Box); R.Bounded)
      return R;
  return Eval.evaluate(E, Box);
}

// Narrows the box by the access's guards. Returns false when no work-item of the slice can
// execute the access. Form: the access's forms, where the caller has them.
bool applyGuards(const Access &A, const AccessForm *Form, const ExprEvaluator &Eval,
                 SliceBox &Box) {
  for (std::size_t Index = 0; Index < A.Guards.size(); ++Index) {
    const Guard &G = A.Guards[Index];
    const bool Formed = Form && Index < Form->Guards.size();
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
    const ValueRange Lower =
        rangeOf(G.Lower, Formed ? &Form->Guards[Index].first : nullptr, Eval, Box);
    const ValueRange Upper =
        rangeOf(G.Upper, Formed ? &Form->Guards[Index].second : nullptr, Eval, Box);
    if (Lower.Bounded)
      Id.Lo = std::max(Id.Lo, Lower.Lo);
    if (Upper.Bounded)
      Id.Hi = std::min(Id.Hi, Upper.Hi);
    if (Id.Lo > Id.Hi)
      return false;
  }
  return true;
}

// Adds the bytes [First, Last] of every work-item of the box to Set, exactly, where First and
// Last are affine forms differing by a constant and at most MaxRunsPerAccess runs cover them
// (a column of a row-major matrix, a block of rows narrower than the matrix). Returns false,
// adding nothing, where they are not, or where the runs would cover more than half of the
// accesses' hull (HullBytes): the hull is then one range, and nearly as exact.
bool addExactRuns(const Affine &First, const Affine &Last, const SliceBox &Box,
                  std::int64_t HullBytes, IntervalSet &Set) {
  if (First.Coef != Last.Coef)
    return false;
  std::int64_t Run = 0, Base = First.Constant;
  if (__builtin_sub_overflow(Last.Constant, First.Constant, &Run) || Run < 0)
    return false;
  Run += 1;
  struct Outer {
    std::int64_t Coef, Lo, Hi;
  };
  std::vector<std::size_t> Order;
  for (std::size_t V = 0; V < First.Coef.size(); ++V)
    if (First.Coef[V] != 0) {
      if (!idRange(Box, V).Bounded)
        return false;
      Order.push_back(V);
    }
  auto magnitude = [&](std::size_t V) {
    return First.Coef[V] < 0 ? -First.Coef[V] : First.Coef[V];
  };
  std::sort(Order.begin(), Order.end(),
            [&](std::size_t A, std::size_t B) { return magnitude(A) < magnitude(B); });
  // Ids whose step is no longer than the run so far make it longer; the rest repeat it.
  std::vector<Outer> Outers;
  std::int64_t Count = 1;
  for (std::size_t V : Order) {
    const ValueRange &Ids = idRange(Box, V);
    const std::int64_t C = First.Coef[V];
    std::int64_t Low = 0, Span = 0;
    if (__builtin_mul_overflow(C, C < 0 ? Ids.Hi : Ids.Lo, &Low) ||
        __builtin_mul_overflow(magnitude(V), Ids.Hi - Ids.Lo, &Span))
      return false;
    if (Outers.empty() && magnitude(V) <= Run) {
      if (__builtin_add_overflow(Base, Low, &Base) || __builtin_add_overflow(Run, Span, &Run))
        return false;
      continue;
    }
    Outers.push_back({C, Ids.Lo, Ids.Hi});
    if (__builtin_mul_overflow(Count, Ids.Hi - Ids.Lo + 1, &Count) || Count > MaxRunsPerAccess)
      return false;
  }
  std::int64_t Covered = 0;
  if (__builtin_mul_overflow(Count, Run, &Covered) || Covered > HullBytes / 2)
    return false;
  std::vector<std::int64_t> At(Outers.size());
  for (std::size_t I = 0; I < Outers.size(); ++I)
    At[I] = Outers[I].Lo;
  for (;;) {
    // Every run lies within the hull (the forms are exact over the box): no overflow at the
    // end; the partial sums are taken wider.
    __int128 Begin = Base;
    for (std::size_t I = 0; I < Outers.size(); ++I)
      Begin += static_cast<__int128>(Outers[I].Coef) * At[I];
    Set.add(static_cast<std::int64_t>(Begin), static_cast<std::int64_t>(Begin) + Run);
    std::size_t I = 0;
    while (I < Outers.size() && At[I] == Outers[I].Hi) {
      At[I] = Outers[I].Lo;
      ++I;
    }
    if (I == Outers.size())
      return true;
    ++At[I];
  }
}

} // namespace

AccessForms accessForms(const KernelSummary &Kernel, const NDRange &NDR, const LaunchArgs &Args) {
  AccessForms Forms;
  Forms.PerArg.resize(Kernel.Args.size());
  const ExprEvaluator Eval(Kernel, NDR, Args);
  Slice Whole;
  Whole.SplitDim = 0;
  Whole.EndGroup = NDR.Local[0] ? NDR.numGroups(0) : 0;
  SliceBox Box = sliceBox(NDR, Whole);
  fillLoops(Kernel, Eval, Box);
  for (std::size_t ArgIndex = 0; ArgIndex < Kernel.Args.size(); ++ArgIndex)
    for (const Access &A : Kernel.Args[ArgIndex].Accesses) {
      AccessForm Form;
      if (!A.Unknown) {
        Form.First = Eval.affine(A.First, Box);
        Form.Last = Eval.affine(A.Last, Box);
        for (const Guard &G : A.Guards)
          Form.Guards.emplace_back(Eval.affine(G.Lower, Box), Eval.affine(G.Upper, Box));
      }
      Forms.PerArg[ArgIndex].push_back(std::move(Form));
    }
  return Forms;
}

std::vector<ArgRegions> evaluateSlice(const KernelSummary &Kernel, const NDRange &NDR,
                                      const LaunchArgs &Args, const Slice &S,
                                      const AccessForms *Forms) {
  std::vector<ArgRegions> Regions(Kernel.Args.size());
  if (S.FirstGroup >= S.EndGroup || S.SplitDim >= 3)
    return Regions;
  const ExprEvaluator Eval(Kernel, NDR, Args);
  SliceBox Box = sliceBox(NDR, S);
  fillLoops(Kernel, Eval, Box);
  for (std::size_t ArgIndex = 0; ArgIndex < Kernel.Args.size(); ++ArgIndex) {
    ArgRegions &Out = Regions[ArgIndex];
    const std::vector<Access> &Accesses = Kernel.Args[ArgIndex].Accesses;
    for (std::size_t AccessIndex = 0; AccessIndex < Accesses.size(); ++AccessIndex) {
      const Access &A = Accesses[AccessIndex];
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
      const AccessForm *Form =
          Forms && ArgIndex < Forms->PerArg.size() && AccessIndex < Forms->PerArg[ArgIndex].size()
              ? &Forms->PerArg[ArgIndex][AccessIndex]
              : nullptr;
      SliceBox Guarded = Box;
      if (!applyGuards(A, Form, Eval, Guarded))
        continue;
      if (!A.Guards.empty())
        fillLoops(Kernel, Eval, Guarded); // counts that depend on the ids narrowed
      const ValueRange First = rangeOf(A.First, Form ? &Form->First : nullptr, Eval, Guarded);
      const ValueRange Last = rangeOf(A.Last, Form ? &Form->Last : nullptr, Eval, Guarded);
      if (!First.Bounded || !Last.Bounded || Last.Hi == std::numeric_limits<std::int64_t>::max()) {
        Whole = true;
        continue;
      }
      const std::int64_t HullBytes = Last.Hi + 1 - First.Lo;
      if (HullBytes < MinExactHullBytes) {
        Set.add(First.Lo, Last.Hi + 1);
        continue;
      }
      std::optional<Affine> FirstForm, LastForm;
      if (Form) {
        FirstForm = Form->First;
        LastForm = Form->Last;
      } else if ((FirstForm = Eval.affine(A.First, Guarded))) {
        LastForm = Eval.affine(A.Last, Guarded);
      }
      if (!FirstForm || !LastForm || !addExactRuns(*FirstForm, *LastForm, Guarded, HullBytes, Set))
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
  return disjointWriteDims(NDR, [&](const Slice &S) {
    return std::make_shared<const std::vector<ArgRegions>>(evaluateSlice(Kernel, NDR, Args, S));
  });
}

std::vector<std::uint32_t>
disjointWriteDims(const NDRange &NDR, const std::function<SharedRegions(const Slice &)> &Evaluate) {
  std::vector<std::uint32_t> Dims;
  for (std::uint32_t D = 0; D < NDR.WorkDim && D < 3; ++D) {
    const std::uint64_t Groups = NDR.Local[D] ? NDR.numGroups(D) : 0;
    if (Groups < 2)
      continue;
    if (writesDisjoint(*Evaluate(Slice{D, 0, Groups / 2}), *Evaluate(Slice{D, Groups / 2, Groups})))
      Dims.push_back(D);
  }
  return Dims;
}

} // namespace libsplit::analysis
