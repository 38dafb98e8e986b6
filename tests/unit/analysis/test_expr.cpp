#include "libsplit/analysis/expr.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::analysis;

static Expr parsed(const std::string &Text) {
  Expr E;
  std::string Error;
  std::size_t Pos = 0;
  INFO(Text);
  REQUIRE(parseExpr(Text, Pos, E, Error));
  REQUIRE(Pos == Text.size());
  return E;
}

TEST_CASE("expressions print and parse back", "[analysis][expr]") {
  for (const char *Text :
       {"42", "-7", "gid0", "(add (mul gid1 arg3) 4)", "(neg (div gsize2 lsize2))",
        "(max (min ngroups0 goff1) (rem workdim 3))", "(and (ashr grp0 2) (shl lid2 3))",
        "(sub arg12 -9223372036854775807)"}) {
    Expr E = parsed(Text);
    CHECK(isWellFormed(E));
    CHECK(toText(E) == Text);
  }
}

TEST_CASE("expression builders match the text form", "[analysis][expr]") {
  Expr E = apply(Op::Add, apply(Op::Mul, leaf(Leaf::GlobalId, 0), constant(4)), constant(3));
  CHECK(toText(E) == "(add (mul gid0 4) 3)");
  CHECK(E == parsed("(add (mul gid0 4) 3)"));
  CHECK(E.usesWorkItemIds());
  CHECK_FALSE(parsed("(mul arg2 gsize0)").usesWorkItemIds());
}

TEST_CASE("malformed expressions are rejected with a reason", "[analysis][expr]") {
  for (const char *Text : {"", "(", "(add 1)", "(add 1 2", "(frob 1 2)", "gid3", "arg", "argx",
                           "99999999999999999999", "-", "(neg)", "lsize", "gid0x"}) {
    Expr E;
    std::string Error;
    std::size_t Pos = 0;
    INFO(Text);
    const bool Ok = parseExpr(Text, Pos, E, Error);
    CHECK_FALSE((Ok && Pos == std::string(Text).size()));
    if (!Ok)
      CHECK_FALSE(Error.empty());
  }
}

TEST_CASE("hand-built postfix programs are checked", "[analysis][expr]") {
  Expr Bad;
  ExprNode Add;
  Add.IsLeaf = false;
  Bad.Nodes.push_back(Add);
  CHECK_FALSE(isWellFormed(Bad));
  Expr TwoValues = constant(1);
  TwoValues.Nodes.push_back(constant(2).Nodes[0]);
  CHECK_FALSE(isWellFormed(TwoValues));
  CHECK(toText(TwoValues) == "(malformed)");
}
