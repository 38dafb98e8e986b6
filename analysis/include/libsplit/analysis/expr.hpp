//===- expr.hpp - Integer expressions over launch parameters --------------===//
//
// The index expressions of a region summary: integers built from constants, the kernel's scalar
// arguments, NDRange queries and work-item ids. Stored as a flat postfix program so that the
// runtime evaluates one without allocating or recursing (see evaluator.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace libsplit::analysis {

// What a leaf stands for. Work-item values (GlobalId, LocalId, GroupId) range over the slice
// being evaluated; the others are fixed for the whole launch, as the partition-ready kernel sees
// them (full-launch sizes and the app's own offset).
enum class Leaf : std::uint8_t {
  Constant,
  ScalarArg,    // value of kernel argument `Index`, read as that argument's declared scalar type
  GlobalId,     // get_global_id(Dim)
  LocalId,      // get_local_id(Dim)
  GroupId,      // get_group_id(Dim) of the full launch
  GlobalSize,   // get_global_size(Dim) of the full launch
  LocalSize,    // get_local_size(Dim)
  NumGroups,    // get_num_groups(Dim) of the full launch
  GlobalOffset, // get_global_offset(Dim): the app's own offset
  WorkDim,      // get_work_dim()
  LoopCount,    // how many iterations loop Index of the kernel has run (0 in its first): see
                // KernelSummary::LoopLast
};

// Loops of a kernel whose counters a summary may name (loop0 .. loop3).
constexpr std::uint32_t MaxSummaryLoops = 4;

// Operators, in C semantics on 64-bit signed integers. Division truncates toward zero.
enum class Op : std::uint8_t {
  Add,
  Sub,
  Mul,
  Div, // signed, truncating
  Rem, // signed remainder, sign of the dividend
  Min,
  Max,
  Shl,  // by a non-negative amount
  AShr, // arithmetic shift right (floor division by a power of two)
  And,  // bitwise and; bounded only when one side is a non-negative range
  Neg,  // unary minus
};

int arity(Op Operator);

struct ExprNode {
  bool IsLeaf = true;
  Leaf Kind = Leaf::Constant;
  Op Operator = Op::Add;
  std::uint32_t Index = 0; // dimension (ids, sizes) or argument index (ScalarArg)
  std::int64_t Value = 0;  // Constant only
};

// A postfix program: each operator pops its operands and pushes its result; a well-formed
// expression leaves exactly one value. Built with the helpers below or parsed from text.
struct Expr {
  std::vector<ExprNode> Nodes;

  bool operator==(const Expr &Other) const;
  bool usesWorkItemIds() const;
};

Expr constant(std::int64_t Value);
Expr leaf(Leaf Kind, std::uint32_t Index);
Expr apply(Op Operator, const Expr &Lhs, const Expr &Rhs);
Expr negate(const Expr &Operand);

// Text form, an S-expression: `(add (mul gid0 4) arg3)`. Leaves: decimal integers, `gidD`,
// `lidD`, `grpD`, `gsizeD`, `lsizeD`, `ngroupsD`, `goffD` (D in 0..2), `workdim`, `argN`.
std::string toText(const Expr &E);

// Parses one expression at Text[Pos...], advancing Pos. On failure returns false and sets Error.
bool parseExpr(const std::string &Text, std::size_t &Pos, Expr &Out, std::string &Error);

// Postfix well-formedness (stack never underflows, one value left, dimensions < 3).
bool isWellFormed(const Expr &E);

} // namespace libsplit::analysis
