//===- summary.hpp - What each kernel argument reads and writes -----------===//
//
// The kernel compiler (pass/, in its own process) writes one KernelSummary per kernel; the
// runtime reads it (summary_text.hpp) and evaluates it at each launch (evaluator.hpp).
//
// A region is a union of guarded statements:
//   if id in [Lower(s), Upper(s)] for each guard : bytes [First(id, s), Last(id, s)]
// where ids are work-item values and s the launch's scalars. A statement the compiler cannot
// bound soundly is Unknown: the runtime must assume the whole buffer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/analysis/expr.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace libsplit::analysis {

enum class ArgKind : std::uint8_t { Global, Constant, Local, Scalar, Other };

// How a scalar argument's bytes become an integer (only integer scalars appear in expressions).
enum class ScalarType : std::uint8_t { None, I8, U8, I16, U16, I32, U32, I64, U64 };

enum class AccessKind : std::uint8_t {
  Read,
  Write,
  // Global atomics, recorded with their operation: the runtime may combine per-device partial
  // results for the commutative ones and must not split a kernel with the others.
  AtomicAdd,
  AtomicSub,
  AtomicInc,
  AtomicDec,
  AtomicMin,
  AtomicMax,
  AtomicAnd,
  AtomicOr,
  AtomicXor,
  AtomicXchg,
  AtomicCmpXchg,
};

bool isAtomic(AccessKind Kind);
bool writesMemory(AccessKind Kind);

// The element an atomic operation updates, as the source typed it. Per-device results combine
// at this width, and atomic_min/atomic_max compare signed or unsigned by it. Float elements
// (atomic_xchg on float, floating-point atomic add extensions) never combine exactly; Unknown
// is an element the analysis could not type (a builtin without a mangled name, an odd width).
enum class AtomicElement : std::uint8_t { Unknown, I32, U32, I64, U64, F32, F64 };

// A work-item value restricted to [Lower, Upper] (inclusive) for the statement to execute.
struct Guard {
  Leaf Id = Leaf::GlobalId; // GlobalId, LocalId or GroupId
  std::uint32_t Dim = 0;
  Expr Lower;
  Expr Upper;
};

// Where an unknown region's index came from, so the runtime may refine it later (e.g. CSR
// row pointers): the access loads its index from argument `SourceArg`, bytes [First, Last].
struct Indirection {
  std::uint32_t SourceArg = 0;
  Expr First;
  Expr Last;
};

struct Access {
  AccessKind Kind = AccessKind::Read;
  AtomicElement Element = AtomicElement::Unknown; // atomic kinds only
  bool Unknown = false;
  std::vector<Guard> Guards; // all must hold
  Expr First;                // first byte touched, relative to the argument's pointer
  Expr Last;                 // last byte touched (inclusive)
  std::optional<Indirection> Via;
  std::string Why; // for an Unknown access: a one-line reason (shown by --explain)
};

struct ArgSummary {
  ArgKind Kind = ArgKind::Other;
  ScalarType Scalar = ScalarType::None; // for Kind == Scalar with an integer type
  std::string Name;
  std::vector<Access> Accesses;
};

struct KernelSummary {
  std::string Name;
  // Per loop N whose counter the accesses name (loopN): the counter's last value, an expression
  // over the arguments, the ids and the counters of loops before N; loopN runs over
  // [0, LoopLast[N]] (an access in the loop is the union over those iterations).
  std::vector<Expr> LoopLast;
  std::vector<ArgSummary> Args; // the app's arguments, in order (appended ones excluded)
  bool Splittable = true;
  std::string NotSplittableReason;
};

struct ProgramSummary {
  std::vector<KernelSummary> Kernels;
  const KernelSummary *find(const std::string &Name) const;
};

} // namespace libsplit::analysis
