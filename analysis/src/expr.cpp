#include "libsplit/analysis/expr.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace libsplit::analysis {

namespace {

struct OpName {
  Op Operator;
  const char *Name;
};
constexpr OpName OpNames[] = {{Op::Add, "add"}, {Op::Sub, "sub"}, {Op::Mul, "mul"},
                              {Op::Div, "div"}, {Op::Rem, "rem"}, {Op::Min, "min"},
                              {Op::Max, "max"}, {Op::Shl, "shl"}, {Op::AShr, "ashr"},
                              {Op::And, "and"}, {Op::Neg, "neg"}};

struct LeafName {
  Leaf Kind;
  const char *Prefix;
};
// Leaves with a dimension suffix; ScalarArg ("arg") takes an argument index instead.
constexpr LeafName LeafNames[] = {{Leaf::GlobalId, "gid"},      {Leaf::LocalId, "lid"},
                                  {Leaf::GroupId, "grp"},       {Leaf::GlobalSize, "gsize"},
                                  {Leaf::LocalSize, "lsize"},   {Leaf::NumGroups, "ngroups"},
                                  {Leaf::GlobalOffset, "goff"}, {Leaf::LoopCount, "loop"}};

const char *opName(Op Operator) {
  for (const OpName &Entry : OpNames)
    if (Entry.Operator == Operator)
      return Entry.Name;
  return "?";
}

void appendText(const Expr &E, std::size_t &Next, std::string &Out);

// Renders the sub-expression ending at Nodes[Next - 1] (postfix, so we walk backwards) into
// a string in prefix form.
std::string renderEndingAt(const Expr &E, std::size_t &Next) {
  const ExprNode &Node = E.Nodes[--Next];
  if (Node.IsLeaf) {
    switch (Node.Kind) {
    case Leaf::Constant:
      return std::to_string(Node.Value);
    case Leaf::ScalarArg:
      return "arg" + std::to_string(Node.Index);
    case Leaf::WorkDim:
      return "workdim";
    default:
      for (const LeafName &Entry : LeafNames)
        if (Entry.Kind == Node.Kind)
          return Entry.Prefix + std::to_string(Node.Index);
      return "?";
    }
  }
  std::vector<std::string> Operands(arity(Node.Operator));
  for (std::size_t I = Operands.size(); I-- > 0;)
    Operands[I] = renderEndingAt(E, Next);
  std::string Text = std::string("(") + opName(Node.Operator);
  for (const std::string &Operand : Operands)
    Text += " " + Operand;
  return Text + ")";
}

void appendText(const Expr &E, std::size_t &Next, std::string &Out) {
  Out += renderEndingAt(E, Next);
}

bool parseLeaf(const std::string &Word, ExprNode &Node) {
  Node = ExprNode{};
  if (Word == "workdim") {
    Node.Kind = Leaf::WorkDim;
    return true;
  }
  auto parseIndex = [&](std::size_t PrefixLength, std::uint32_t Limit) {
    if (Word.size() <= PrefixLength || Word.size() > PrefixLength + 4)
      return false;
    std::uint32_t Value = 0;
    for (std::size_t I = PrefixLength; I < Word.size(); ++I) {
      if (!std::isdigit(static_cast<unsigned char>(Word[I])))
        return false;
      Value = Value * 10 + static_cast<std::uint32_t>(Word[I] - '0');
    }
    if (Value >= Limit)
      return false;
    Node.Index = Value;
    return true;
  };
  if (Word.rfind("arg", 0) == 0) {
    Node.Kind = Leaf::ScalarArg;
    return parseIndex(3, 10000);
  }
  for (const LeafName &Entry : LeafNames) {
    std::string Prefix = Entry.Prefix;
    const std::uint32_t Limit = Entry.Kind == Leaf::LoopCount ? MaxSummaryLoops : 3;
    if (Word.rfind(Prefix, 0) == 0 && parseIndex(Prefix.size(), Limit)) {
      Node.Kind = Entry.Kind;
      return true;
    }
  }
  return false;
}

void skipSpaces(const std::string &Text, std::size_t &Pos) {
  while (Pos < Text.size() && (Text[Pos] == ' ' || Text[Pos] == '\t'))
    ++Pos;
}

bool parseInto(const std::string &Text, std::size_t &Pos, Expr &Out, std::string &Error,
               int Depth) {
  if (Depth > 64) {
    Error = "expression nested too deeply";
    return false;
  }
  skipSpaces(Text, Pos);
  if (Pos >= Text.size()) {
    Error = "expression expected";
    return false;
  }
  if (Text[Pos] == '(') {
    ++Pos;
    std::size_t Start = Pos;
    while (Pos < Text.size() && std::isalpha(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
    std::string Name = Text.substr(Start, Pos - Start);
    const OpName *Found = nullptr;
    for (const OpName &Entry : OpNames)
      if (Name == Entry.Name)
        Found = &Entry;
    if (!Found) {
      Error = "unknown operator '" + Name + "'";
      return false;
    }
    for (int I = 0; I < arity(Found->Operator); ++I)
      if (!parseInto(Text, Pos, Out, Error, Depth + 1))
        return false;
    skipSpaces(Text, Pos);
    if (Pos >= Text.size() || Text[Pos] != ')') {
      Error = std::string("')' expected after the operands of '") + Found->Name + "'";
      return false;
    }
    ++Pos;
    ExprNode Node;
    Node.IsLeaf = false;
    Node.Operator = Found->Operator;
    Out.Nodes.push_back(Node);
    return true;
  }
  std::size_t Start = Pos;
  while (Pos < Text.size() && Text[Pos] != ' ' && Text[Pos] != '\t' && Text[Pos] != ')' &&
         Text[Pos] != '(')
    ++Pos;
  std::string Word = Text.substr(Start, Pos - Start);
  ExprNode Node;
  if (!Word.empty() && (std::isdigit(static_cast<unsigned char>(Word[0])) || Word[0] == '-')) {
    errno = 0;
    char *End = nullptr;
    long long Value = std::strtoll(Word.c_str(), &End, 10);
    if (*End != '\0' || errno == ERANGE || Word == "-") {
      Error = "bad integer '" + Word + "'";
      return false;
    }
    Node.Kind = Leaf::Constant;
    Node.Value = Value;
  } else if (!parseLeaf(Word, Node)) {
    Error = "unknown name '" + Word + "'";
    return false;
  }
  Out.Nodes.push_back(Node);
  return true;
}

} // namespace

int arity(Op Operator) { return Operator == Op::Neg ? 1 : 2; }

bool Expr::operator==(const Expr &Other) const {
  if (Nodes.size() != Other.Nodes.size())
    return false;
  for (std::size_t I = 0; I < Nodes.size(); ++I) {
    const ExprNode &A = Nodes[I], &B = Other.Nodes[I];
    if (A.IsLeaf != B.IsLeaf || A.Kind != B.Kind || A.Operator != B.Operator ||
        A.Index != B.Index || A.Value != B.Value)
      return false;
  }
  return true;
}

bool Expr::usesWorkItemIds() const {
  for (const ExprNode &Node : Nodes)
    if (Node.IsLeaf &&
        (Node.Kind == Leaf::GlobalId || Node.Kind == Leaf::LocalId || Node.Kind == Leaf::GroupId))
      return true;
  return false;
}

Expr constant(std::int64_t Value) {
  Expr E;
  ExprNode Node;
  Node.Value = Value;
  E.Nodes.push_back(Node);
  return E;
}

Expr leaf(Leaf Kind, std::uint32_t Index) {
  Expr E;
  ExprNode Node;
  Node.Kind = Kind;
  Node.Index = Index;
  E.Nodes.push_back(Node);
  return E;
}

Expr apply(Op Operator, const Expr &Lhs, const Expr &Rhs) {
  Expr E;
  E.Nodes = Lhs.Nodes;
  E.Nodes.insert(E.Nodes.end(), Rhs.Nodes.begin(), Rhs.Nodes.end());
  ExprNode Node;
  Node.IsLeaf = false;
  Node.Operator = Operator;
  E.Nodes.push_back(Node);
  return E;
}

Expr negate(const Expr &Operand) {
  Expr E = Operand;
  ExprNode Node;
  Node.IsLeaf = false;
  Node.Operator = Op::Neg;
  E.Nodes.push_back(Node);
  return E;
}

std::string toText(const Expr &E) {
  if (!isWellFormed(E))
    return "(malformed)";
  std::size_t Next = E.Nodes.size();
  std::string Out;
  appendText(E, Next, Out);
  return Out;
}

bool parseExpr(const std::string &Text, std::size_t &Pos, Expr &Out, std::string &Error) {
  Out.Nodes.clear();
  return parseInto(Text, Pos, Out, Error, 0);
}

bool isWellFormed(const Expr &E) {
  int Depth = 0;
  for (const ExprNode &Node : E.Nodes) {
    if (Node.IsLeaf) {
      if (Node.Kind != Leaf::Constant && Node.Kind != Leaf::ScalarArg &&
          Node.Kind != Leaf::WorkDim &&
          Node.Index >= (Node.Kind == Leaf::LoopCount ? MaxSummaryLoops : 3))
        return false;
      ++Depth;
      continue;
    }
    Depth -= arity(Node.Operator) - 1;
    if (Depth < 1)
      return false;
  }
  return Depth == 1;
}

} // namespace libsplit::analysis
