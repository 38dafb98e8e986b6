//===- Explain.cpp - Region summaries for people (libsplit-cc --explain) --===//

#include "Explain.h"

#include "GuardFinder.h"

#include "libsplit/analysis/atomic_merge.hpp"
#include "libsplit/analysis/summary_text.hpp"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace libsplit::regions {

using analysis::AccessKind;
using analysis::Expr;
using analysis::ExprNode;
using analysis::Leaf;
using analysis::Op;

namespace {

constexpr std::int64_t RepresentativeSize = 64;
constexpr std::int64_t RepresentativeGroup = 8;

struct Tree {
  const ExprNode *Node = nullptr;
  std::vector<std::unique_ptr<Tree>> Kids;
};

std::unique_ptr<Tree> buildTree(const Expr &E) {
  std::vector<std::unique_ptr<Tree>> Stack;
  for (const ExprNode &Node : E.Nodes) {
    auto T = std::make_unique<Tree>();
    T->Node = &Node;
    if (!Node.IsLeaf) {
      const int Arity = analysis::arity(Node.Operator);
      if (static_cast<int>(Stack.size()) < Arity)
        return nullptr;
      T->Kids.resize(Arity);
      for (int I = Arity; I-- > 0;) {
        T->Kids[I] = std::move(Stack.back());
        Stack.pop_back();
      }
    }
    Stack.push_back(std::move(T));
  }
  return Stack.size() == 1 ? std::move(Stack.back()) : nullptr;
}

bool isOp(const Tree &T, Op Operator) { return !T.Node->IsLeaf && T.Node->Operator == Operator; }

std::optional<std::int64_t> constantOf(const Tree &T) {
  if (T.Node->IsLeaf && T.Node->Kind == Leaf::Constant)
    return T.Node->Value;
  return std::nullopt;
}

class Printer {
public:
  explicit Printer(const analysis::KernelSummary *Kernel) : Kernel(Kernel) {}

  std::string render(const Tree &T, int Parent = 0) {
    const ExprNode &N = *T.Node;
    if (N.IsLeaf)
      return leaf(N);
    const Tree &A = *T.Kids[0];
    // Checked conversions: (ashr (shl x k) k).
    if (N.Operator == Op::AShr && isOp(A, Op::Shl)) {
      std::optional<std::int64_t> K = constantOf(*T.Kids[1]), K2 = constantOf(*A.Kids[1]);
      if (K && K2 && *K == *K2) {
        const std::int64_t Signed = 64 - *K, Unsigned = 63 - *K;
        if (Signed == 8 || Signed == 16 || Signed == 32)
          return "i" + std::to_string(Signed) + "(" + render(*A.Kids[0]) + ")";
        if (Unsigned == 8 || Unsigned == 16 || Unsigned == 32)
          return "u" + std::to_string(Unsigned) + "(" + render(*A.Kids[0]) + ")";
      }
    }
    // A range check (ExprBuild.h rangeCheck): (shl (add x -center) 64-k) for x in
    // [center - 2^(k-1), center + 2^(k-1)).
    if (N.Operator == Op::Shl && isOp(A, Op::Add)) {
      std::optional<std::int64_t> Shift = constantOf(*T.Kids[1]);
      std::optional<std::int64_t> Center = constantOf(*A.Kids[1]);
      if (Shift && Center && *Shift >= 1 && *Shift <= 56 && *Center != INT64_MIN) {
        const std::int64_t Half = std::int64_t(1) << (63 - *Shift);
        if (-*Center == Half)
          return "nonneg(" + render(*A.Kids[0]) + ")";
        return "inrange(" + render(*A.Kids[0]) + ", " + std::to_string(-*Center - Half) + ", " +
               std::to_string(-*Center + Half - 1) + ")";
      }
    }
    // validIf: (add e (mul 0 checks)).
    if (N.Operator == Op::Add && isOp(*T.Kids[1], Op::Mul) &&
        constantOf(*T.Kids[1]->Kids[0]) == 0) {
      std::string Checks;
      collectChecks(*T.Kids[1]->Kids[1], Checks);
      return wrap(render(A, Parent) + " ?{" + Checks + "}", Parent > 0);
    }
    if (N.Operator == Op::Neg)
      return wrap("-" + render(A, 30), Parent > 30);
    const Tree &B = *T.Kids[1];
    switch (N.Operator) {
    case Op::Add:
      if (std::optional<std::int64_t> C = constantOf(B); C && *C < 0 && *C != INT64_MIN)
        return wrap(render(A, 10) + " - " + std::to_string(-*C), Parent > 10);
      return wrap(render(A, 10) + " + " + render(B, 10), Parent > 10);
    case Op::Sub:
      return wrap(render(A, 10) + " - " + render(B, 11), Parent > 10);
    case Op::Mul:
      return wrap(render(A, 20) + "*" + render(B, 21), Parent > 20);
    case Op::Div:
      return wrap(render(A, 20) + " / " + render(B, 21), Parent > 20);
    case Op::Rem:
      return wrap(render(A, 20) + " % " + render(B, 21), Parent > 20);
    case Op::Min:
      return "min(" + render(A) + ", " + render(B) + ")";
    case Op::Max:
      return "max(" + render(A) + ", " + render(B) + ")";
    case Op::Shl:
      return "(" + render(A, 25) + " << " + render(B, 25) + ")";
    case Op::AShr:
      return "(" + render(A, 25) + " >> " + render(B, 25) + ")";
    case Op::And:
      return "(" + render(A, 25) + " & " + render(B, 25) + ")";
    case Op::Neg:
      break;
    }
    return "?";
  }

private:
  static std::string wrap(const std::string &Text, bool Parenthesize) {
    return Parenthesize ? "(" + Text + ")" : Text;
  }

  void collectChecks(const Tree &T, std::string &Out) {
    if (isOp(T, Op::Min)) {
      collectChecks(*T.Kids[0], Out);
      collectChecks(*T.Kids[1], Out);
      return;
    }
    Out += (Out.empty() ? "" : ", ") + render(T);
  }

  std::string leaf(const ExprNode &N) {
    if (N.Kind == Leaf::ScalarArg && Kernel && N.Index < Kernel->Args.size() &&
        !Kernel->Args[N.Index].Name.empty())
      return Kernel->Args[N.Index].Name;
    Expr Single;
    Single.Nodes.push_back(N);
    return analysis::toText(Single);
  }

  const analysis::KernelSummary *Kernel;
};

const char *kindName(AccessKind Kind) {
  switch (Kind) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::AtomicAdd:
    return "atomic add";
  case AccessKind::AtomicSub:
    return "atomic sub";
  case AccessKind::AtomicInc:
    return "atomic inc";
  case AccessKind::AtomicDec:
    return "atomic dec";
  case AccessKind::AtomicMin:
    return "atomic min";
  case AccessKind::AtomicMax:
    return "atomic max";
  case AccessKind::AtomicAnd:
    return "atomic and";
  case AccessKind::AtomicOr:
    return "atomic or";
  case AccessKind::AtomicXor:
    return "atomic xor";
  case AccessKind::AtomicXchg:
    return "atomic xchg";
  case AccessKind::AtomicCmpXchg:
    return "atomic cmpxchg";
  }
  return "?";
}

const char *argKindName(analysis::ArgKind Kind) {
  switch (Kind) {
  case analysis::ArgKind::Global:
    return "global";
  case analysis::ArgKind::Constant:
    return "constant";
  case analysis::ArgKind::Local:
    return "local";
  case analysis::ArgKind::Scalar:
    return "scalar";
  case analysis::ArgKind::Other:
    return "other";
  }
  return "?";
}

const char *scalarName(analysis::ScalarType Type) {
  switch (Type) {
  case analysis::ScalarType::I8:
    return " i8";
  case analysis::ScalarType::U8:
    return " u8";
  case analysis::ScalarType::I16:
    return " i16";
  case analysis::ScalarType::U16:
    return " u16";
  case analysis::ScalarType::I32:
    return " i32";
  case analysis::ScalarType::U32:
    return " u32";
  case analysis::ScalarType::I64:
    return " i64";
  case analysis::ScalarType::U64:
    return " u64";
  case analysis::ScalarType::None:
    break;
  }
  return "";
}

std::string combineText(const analysis::Combine &How) {
  const std::string Bits = std::to_string(8 * How.Width) + "-bit";
  switch (How.Op) {
  case analysis::CombineOp::Sum:
    return "sum (" + Bits + ", wrapping)";
  case analysis::CombineOp::Min:
    return std::string("min (") + (How.Signed ? "signed " : "unsigned ") + Bits + ")";
  case analysis::CombineOp::Max:
    return std::string("max (") + (How.Signed ? "signed " : "unsigned ") + Bits + ")";
  case analysis::CombineOp::And:
    return "and (" + Bits + ")";
  case analysis::CombineOp::Or:
    return "or (" + Bits + ")";
  case analysis::CombineOp::Xor:
    return "xor (" + Bits + ")";
  }
  return "?";
}

/// How each atomically updated argument's per-device copies are combined.
void explainAtomicMerges(const analysis::KernelSummary &Kernel, llvm::raw_ostream &OS) {
  for (std::size_t I = 0; I < Kernel.Args.size(); ++I) {
    analysis::AtomicMerge Plan;
    std::string Why;
    if (!analysis::planAtomicMerge(Kernel, I, Plan, Why) || Plan.empty())
      continue;
    const analysis::ArgSummary &Arg = Kernel.Args[I];
    OS << "  atomics on arg " << I << " " << (Arg.Name.empty() ? "-" : Arg.Name)
       << ": per-device copies combined by ";
    for (std::size_t R = 0; R < Plan.Ranges.size(); ++R) {
      const analysis::CombineRange &Range = Plan.Ranges[R];
      OS << (R ? ", " : "") << combineText(Range.How);
      if (!Range.Whole)
        OS << " on bytes [" << Range.First << ", " << Range.Last << "]";
    }
    OS << "\n";
  }
}

std::string guardText(const analysis::Guard &G, const analysis::KernelSummary &Kernel) {
  Expr Id = analysis::leaf(G.Id, G.Dim);
  const std::string Name = readable(Id, &Kernel);
  const bool NoLower = G.Lower == neutralLower(G.Id, G.Dim);
  const bool NoUpper = G.Upper == neutralUpper(G.Id, G.Dim);
  if (NoLower && NoUpper)
    return Name + " (any)";
  if (NoLower)
    return Name + " <= " + readable(G.Upper, &Kernel);
  if (NoUpper)
    return Name + " >= " + readable(G.Lower, &Kernel);
  if (G.Lower == G.Upper)
    return Name + " == " + readable(G.Lower, &Kernel);
  return Name + " in [" + readable(G.Lower, &Kernel) + ", " + readable(G.Upper, &Kernel) + "]";
}

void dimensionsOf(const Expr &E, std::uint32_t &WorkDim) {
  for (const ExprNode &N : E.Nodes)
    if (N.IsLeaf && N.Kind != Leaf::Constant && N.Kind != Leaf::ScalarArg &&
        N.Kind != Leaf::WorkDim && N.Kind != Leaf::LoopCount)
      WorkDim = std::max(WorkDim, std::min<std::uint32_t>(N.Index + 1, 3));
}

std::vector<std::uint8_t> scalarBytes(analysis::ScalarType Type, std::int64_t Value) {
  std::size_t Size = 0;
  switch (Type) {
  case analysis::ScalarType::I8:
  case analysis::ScalarType::U8:
    Size = 1;
    break;
  case analysis::ScalarType::I16:
  case analysis::ScalarType::U16:
    Size = 2;
    break;
  case analysis::ScalarType::I32:
  case analysis::ScalarType::U32:
    Size = 4;
    break;
  case analysis::ScalarType::I64:
  case analysis::ScalarType::U64:
    Size = 8;
    break;
  case analysis::ScalarType::None:
    return {};
  }
  std::vector<std::uint8_t> Bytes(Size);
  std::memcpy(Bytes.data(), &Value, Size); // little-endian host, as the runtime's
  return Bytes;
}

void explainKernel(const analysis::KernelSummary &Kernel, llvm::raw_ostream &OS) {
  if (!Kernel.Splittable) {
    OS << "kernel " << Kernel.Name << ": unsplittable: " << Kernel.NotSplittableReason << "\n";
    return;
  }
  OS << "kernel " << Kernel.Name << ": splittable\n";
  for (std::size_t N = 0; N < Kernel.LoopLast.size(); ++N)
    OS << "  loop" << N << " counts 0 .. " << readable(Kernel.LoopLast[N], &Kernel) << "\n";
  bool Writes = false, Atomics = false;
  for (std::size_t I = 0; I < Kernel.Args.size(); ++I) {
    const analysis::ArgSummary &Arg = Kernel.Args[I];
    OS << "  arg " << I << " " << (Arg.Name.empty() ? "-" : Arg.Name) << ": "
       << argKindName(Arg.Kind) << scalarName(Arg.Scalar) << "\n";
    for (const analysis::Access &A : Arg.Accesses) {
      Writes |= analysis::writesMemory(A.Kind);
      Atomics |= analysis::isAtomic(A.Kind);
      OS << "    " << kindName(A.Kind);
      if (analysis::isAtomic(A.Kind))
        OS << " " << analysis::atomicElementName(A.Element);
      if (A.Unknown) {
        OS << " unknown: " << A.Why;
        if (A.Via) {
          const std::uint32_t Source = A.Via->SourceArg;
          OS << " (index from arg " << Source;
          if (Source < Kernel.Args.size() && !Kernel.Args[Source].Name.empty())
            OS << " " << Kernel.Args[Source].Name;
          OS << " bytes [" << readable(A.Via->First, &Kernel) << ", "
             << readable(A.Via->Last, &Kernel) << "])";
        }
        OS << "\n";
        continue;
      }
      OS << " bytes [" << readable(A.First, &Kernel) << ", " << readable(A.Last, &Kernel) << "]";
      for (std::size_t G = 0; G < A.Guards.size(); ++G)
        OS << (G == 0 ? " when " : " and ") << guardText(A.Guards[G], Kernel);
      OS << "\n";
    }
  }
  analysis::NDRange Range;
  analysis::LaunchArgs Args;
  representativeLaunch(Kernel, Range, Args);
  std::string Launch = "global ", Local = "local ";
  for (std::uint32_t D = 0; D < Range.WorkDim; ++D) {
    Launch += (D ? "x" : "") + std::to_string(Range.Global[D]);
    Local += (D ? "x" : "") + std::to_string(Range.Local[D]);
  }
  const std::string Where = " (representative launch: " + Launch + ", " + Local +
                            ", integer arguments " + std::to_string(RepresentativeSize) + ")";
  if (!Writes) {
    OS << "  writes nothing: any dimension can be split\n";
    return;
  }
  std::vector<std::uint32_t> Dims = analysis::disjointWriteDims(Kernel, Range, Args);
  if (Dims.empty()) {
    OS << "  no dimension gives disjoint writes" << Where << "\n";
  } else {
    OS << "  disjoint writes when split along dimension";
    for (std::size_t I = 0; I < Dims.size(); ++I)
      OS << (I ? ", " : " ") << Dims[I];
    OS << Where << "\n";
  }
  if (Atomics)
    explainAtomicMerges(Kernel, OS);
}

} // namespace

std::string readable(const Expr &E, const analysis::KernelSummary *Kernel) {
  std::unique_ptr<Tree> T = buildTree(E);
  if (!T)
    return analysis::toText(E);
  return Printer(Kernel).render(*T);
}

void representativeLaunch(const analysis::KernelSummary &Kernel, analysis::NDRange &Range,
                          analysis::LaunchArgs &Args) {
  std::uint32_t WorkDim = 1;
  for (const analysis::ArgSummary &Arg : Kernel.Args)
    for (const analysis::Access &A : Arg.Accesses) {
      dimensionsOf(A.First, WorkDim);
      dimensionsOf(A.Last, WorkDim);
      for (const analysis::Guard &G : A.Guards) {
        WorkDim = std::max(WorkDim, std::min<std::uint32_t>(G.Dim + 1, 3));
        dimensionsOf(G.Lower, WorkDim);
        dimensionsOf(G.Upper, WorkDim);
      }
    }
  Range = analysis::NDRange{};
  Range.WorkDim = WorkDim;
  for (std::uint32_t D = 0; D < WorkDim; ++D) {
    Range.Global[D] = RepresentativeSize;
    Range.Local[D] = RepresentativeGroup;
  }
  Args.ScalarBytes.clear();
  for (const analysis::ArgSummary &Arg : Kernel.Args)
    Args.ScalarBytes.push_back(Arg.Kind == analysis::ArgKind::Scalar
                                   ? scalarBytes(Arg.Scalar, RepresentativeSize)
                                   : std::vector<std::uint8_t>{});
}

void explainProgram(const analysis::ProgramSummary &Program, llvm::raw_ostream &OS) {
  for (const analysis::KernelSummary &Kernel : Program.Kernels)
    explainKernel(Kernel, OS);
}

} // namespace libsplit::regions
