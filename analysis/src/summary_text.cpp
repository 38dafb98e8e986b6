#include "libsplit/analysis/summary_text.hpp"

#include <cctype>
#include <sstream>

namespace libsplit::analysis {

namespace {

template <typename Enum> struct Named {
  Enum Value;
  const char *Name;
};

constexpr Named<ArgKind> ArgKindNames[] = {{ArgKind::Global, "global"},
                                           {ArgKind::Constant, "constant"},
                                           {ArgKind::Local, "local"},
                                           {ArgKind::Scalar, "scalar"},
                                           {ArgKind::Other, "other"}};

constexpr Named<ScalarType> ScalarTypeNames[] = {
    {ScalarType::None, "-"},  {ScalarType::I8, "i8"},   {ScalarType::U8, "u8"},
    {ScalarType::I16, "i16"}, {ScalarType::U16, "u16"}, {ScalarType::I32, "i32"},
    {ScalarType::U32, "u32"}, {ScalarType::I64, "i64"}, {ScalarType::U64, "u64"}};

constexpr Named<AccessKind> AccessKindNames[] = {{AccessKind::Read, "read"},
                                                 {AccessKind::Write, "write"},
                                                 {AccessKind::AtomicAdd, "atomic_add"},
                                                 {AccessKind::AtomicSub, "atomic_sub"},
                                                 {AccessKind::AtomicInc, "atomic_inc"},
                                                 {AccessKind::AtomicDec, "atomic_dec"},
                                                 {AccessKind::AtomicMin, "atomic_min"},
                                                 {AccessKind::AtomicMax, "atomic_max"},
                                                 {AccessKind::AtomicAnd, "atomic_and"},
                                                 {AccessKind::AtomicOr, "atomic_or"},
                                                 {AccessKind::AtomicXor, "atomic_xor"},
                                                 {AccessKind::AtomicXchg, "atomic_xchg"},
                                                 {AccessKind::AtomicCmpXchg, "atomic_cmpxchg"}};

constexpr Named<AtomicElement> AtomicElementNames[] = {
    {AtomicElement::Unknown, "-"}, {AtomicElement::I32, "i32"}, {AtomicElement::U32, "u32"},
    {AtomicElement::I64, "i64"},   {AtomicElement::U64, "u64"}, {AtomicElement::F32, "f32"},
    {AtomicElement::F64, "f64"}};

constexpr Named<Leaf> GuardIdNames[] = {
    {Leaf::GlobalId, "gid"}, {Leaf::LocalId, "lid"}, {Leaf::GroupId, "grp"}};

template <typename Enum, std::size_t N>
const char *nameOf(const Named<Enum> (&Table)[N], Enum Value) {
  for (const auto &Entry : Table)
    if (Entry.Value == Value)
      return Entry.Name;
  return "?";
}

template <typename Enum, std::size_t N>
bool valueOf(const Named<Enum> (&Table)[N], const std::string &Name, Enum &Value) {
  for (const auto &Entry : Table)
    if (Name == Entry.Name) {
      Value = Entry.Value;
      return true;
    }
  return false;
}

bool isIdentifier(const std::string &Word) {
  if (Word.empty() || std::isdigit(static_cast<unsigned char>(Word[0])))
    return false;
  for (char C : Word)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return false;
  return true;
}

// Reads the words and expressions of one line, left to right.
class LineReader {
public:
  explicit LineReader(const std::string &Line) : Line(Line) {}

  bool atEnd() {
    skipSpaces();
    return Pos >= Line.size();
  }

  std::string word() {
    skipSpaces();
    std::size_t Start = Pos;
    while (Pos < Line.size() && Line[Pos] != ' ' && Line[Pos] != '\t')
      ++Pos;
    return Line.substr(Start, Pos - Start);
  }

  std::string rest() {
    skipSpaces();
    std::string Rest = Line.substr(Pos);
    Pos = Line.size();
    return Rest;
  }

  bool expr(Expr &Out, std::string &Error) {
    if (!parseExpr(Line, Pos, Out, Error))
      return false;
    if (Pos < Line.size() && Line[Pos] != ' ' && Line[Pos] != '\t') {
      Error = "space expected after an expression";
      return false;
    }
    return true;
  }

private:
  void skipSpaces() {
    while (Pos < Line.size() && (Line[Pos] == ' ' || Line[Pos] == '\t'))
      ++Pos;
  }
  const std::string &Line;
  std::size_t Pos = 0;
};

bool parseGuardId(const std::string &Word, Guard &G) {
  if (Word.size() != 4 || Word[3] < '0' || Word[3] > '2')
    return false;
  G.Dim = static_cast<std::uint32_t>(Word[3] - '0');
  return valueOf(GuardIdNames, Word.substr(0, 3), G.Id);
}

bool parseAccess(LineReader &Reader, Access &A, std::string &Error) {
  std::string KindName = Reader.word();
  if (!valueOf(AccessKindNames, KindName, A.Kind)) {
    Error = "unknown access kind '" + KindName + "'";
    return false;
  }
  if (isAtomic(A.Kind)) {
    const std::string ElementName = Reader.word();
    if (!valueOf(AtomicElementNames, ElementName, A.Element)) {
      Error = "unknown atomic element '" + ElementName + "'";
      return false;
    }
  }
  std::string Word = Reader.word();
  if (Word == "unknown") {
    A.Unknown = true;
    while (!Reader.atEnd()) {
      Word = Reader.word();
      if (Word == "why") {
        A.Why = Reader.rest();
      } else if (Word == "via") {
        Indirection Via;
        std::string Source = Reader.word();
        if (Source.rfind("arg", 0) != 0 || Source.size() < 4 || Source.size() > 8 ||
            Source.find_first_not_of("0123456789", 3) != std::string::npos) {
          Error = "'via' expects argN";
          return false;
        }
        Via.SourceArg = static_cast<std::uint32_t>(std::stoul(Source.substr(3)));
        if (!Reader.expr(Via.First, Error) || !Reader.expr(Via.Last, Error))
          return false;
        A.Via = Via;
      } else {
        Error = "unexpected '" + Word + "' in an unknown access";
        return false;
      }
    }
    return true;
  }
  while (Word == "guard") {
    Guard G;
    if (!parseGuardId(Reader.word(), G)) {
      Error = "a guard names gidD, lidD or grpD with D in 0..2";
      return false;
    }
    if (!Reader.expr(G.Lower, Error) || !Reader.expr(G.Upper, Error))
      return false;
    A.Guards.push_back(G);
    Word = Reader.word();
  }
  if (Word != "bytes") {
    Error = "'bytes', 'guard' or 'unknown' expected, got '" + Word + "'";
    return false;
  }
  if (!Reader.expr(A.First, Error) || !Reader.expr(A.Last, Error))
    return false;
  if (!Reader.atEnd()) {
    Error = "unexpected text after the byte range";
    return false;
  }
  return true;
}

} // namespace

const char *accessKindName(AccessKind Kind) { return nameOf(AccessKindNames, Kind); }

const char *atomicElementName(AtomicElement Element) { return nameOf(AtomicElementNames, Element); }

std::string toText(const ProgramSummary &Program) {
  std::ostringstream Out;
  Out << "libsplit-summary " << SummaryFormatVersion << "\n";
  for (const KernelSummary &Kernel : Program.Kernels) {
    Out << "kernel " << Kernel.Name;
    if (Kernel.Splittable)
      Out << " splittable\n";
    else
      Out << " unsplittable " << Kernel.NotSplittableReason << "\n";
    for (std::size_t N = 0; N < Kernel.LoopLast.size(); ++N)
      Out << "loop " << N << " last " << toText(Kernel.LoopLast[N]) << "\n";
    for (std::size_t I = 0; I < Kernel.Args.size(); ++I) {
      const ArgSummary &Arg = Kernel.Args[I];
      Out << "arg " << I << " " << nameOf(ArgKindNames, Arg.Kind) << " "
          << nameOf(ScalarTypeNames, Arg.Scalar) << " " << (Arg.Name.empty() ? "-" : Arg.Name)
          << "\n";
      for (const Access &A : Arg.Accesses) {
        Out << "  access " << nameOf(AccessKindNames, A.Kind);
        if (isAtomic(A.Kind))
          Out << " " << nameOf(AtomicElementNames, A.Element);
        if (A.Unknown) {
          Out << " unknown";
          if (A.Via)
            Out << " via arg" << A.Via->SourceArg << " " << toText(A.Via->First) << " "
                << toText(A.Via->Last);
          if (!A.Why.empty())
            Out << " why " << A.Why;
          Out << "\n";
          continue;
        }
        for (const Guard &G : A.Guards)
          Out << " guard " << nameOf(GuardIdNames, G.Id) << G.Dim << " " << toText(G.Lower) << " "
              << toText(G.Upper);
        Out << " bytes " << toText(A.First) << " " << toText(A.Last) << "\n";
      }
    }
    Out << "end\n";
  }
  return Out.str();
}

bool parseSummary(const std::string &Text, ProgramSummary &Out, std::string &Error) {
  Out.Kernels.clear();
  std::istringstream In(Text);
  std::string Line;
  int LineNumber = 0;
  auto fail = [&](const std::string &What) {
    Error = "summary line " + std::to_string(LineNumber) + ": " + What;
    Out.Kernels.clear();
    return false;
  };

  // Version 2 is version 3 without loops: still read (summaries cached by an earlier build).
  if (!std::getline(In, Line) ||
      (Line != "libsplit-summary " + std::to_string(SummaryFormatVersion) &&
       Line != "libsplit-summary 2")) {
    LineNumber = 1;
    return fail("expected 'libsplit-summary " + std::to_string(SummaryFormatVersion) + "'");
  }
  ++LineNumber;
  KernelSummary *Kernel = nullptr;
  while (std::getline(In, Line)) {
    ++LineNumber;
    LineReader Reader(Line);
    if (Reader.atEnd())
      continue;
    const std::string Keyword = Reader.word();
    if (Keyword == "kernel") {
      if (Kernel)
        return fail("'kernel' before the previous kernel's 'end'");
      KernelSummary K;
      K.Name = Reader.word();
      if (!isIdentifier(K.Name))
        return fail("bad kernel name '" + K.Name + "'");
      if (Out.find(K.Name))
        return fail("kernel '" + K.Name + "' appears twice");
      const std::string State = Reader.word();
      if (State == "unsplittable") {
        K.Splittable = false;
        K.NotSplittableReason = Reader.rest();
      } else if (State != "splittable" || !Reader.atEnd()) {
        return fail("'splittable' or 'unsplittable <reason>' expected");
      }
      Out.Kernels.push_back(std::move(K));
      Kernel = &Out.Kernels.back();
    } else if (Keyword == "loop") {
      if (!Kernel || !Kernel->Args.empty())
        return fail("'loop' outside a kernel or after its arguments");
      if (Reader.word() != std::to_string(Kernel->LoopLast.size()) ||
          Kernel->LoopLast.size() >= MaxSummaryLoops)
        return fail("loops must be numbered 0, 1, ... in order, at most " +
                    std::to_string(MaxSummaryLoops));
      if (Reader.word() != "last")
        return fail("'loop <n> last <expression>' expected");
      Expr Last;
      std::string What;
      if (!Reader.expr(Last, What))
        return fail(What);
      // A loop's count names only loops before it: the evaluator ranges them in order.
      for (const ExprNode &Node : Last.Nodes)
        if (Node.IsLeaf && Node.Kind == Leaf::LoopCount && Node.Index >= Kernel->LoopLast.size())
          return fail("a loop's last count names itself or a later loop");
      Kernel->LoopLast.push_back(std::move(Last));
    } else if (Keyword == "arg") {
      if (!Kernel)
        return fail("'arg' outside a kernel");
      ArgSummary Arg;
      const std::string Index = Reader.word();
      if (Index != std::to_string(Kernel->Args.size()))
        return fail("arguments must be numbered 0, 1, ... in order");
      if (!valueOf(ArgKindNames, Reader.word(), Arg.Kind))
        return fail("unknown argument kind");
      if (!valueOf(ScalarTypeNames, Reader.word(), Arg.Scalar))
        return fail("unknown scalar type");
      Arg.Name = Reader.word();
      if (Arg.Name == "-")
        Arg.Name.clear();
      else if (!isIdentifier(Arg.Name))
        return fail("bad argument name");
      if (!Reader.atEnd())
        return fail("unexpected text after the argument");
      Kernel->Args.push_back(std::move(Arg));
    } else if (Keyword == "access") {
      if (!Kernel || Kernel->Args.empty())
        return fail("'access' before any 'arg'");
      Access A;
      std::string What;
      if (!parseAccess(Reader, A, What))
        return fail(What);
      Kernel->Args.back().Accesses.push_back(std::move(A));
    } else if (Keyword == "end") {
      if (!Kernel || !Reader.atEnd())
        return fail("unexpected 'end'");
      Kernel = nullptr;
    } else {
      return fail("unknown keyword '" + Keyword + "'");
    }
  }
  if (Kernel)
    return fail("the last kernel has no 'end' (truncated?)");
  return true;
}

} // namespace libsplit::analysis
