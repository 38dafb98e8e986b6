#include "libsplit/analysis/atomic_merge.hpp"
#include "libsplit/analysis/summary_text.hpp"

#include <catch2/catch.hpp>

using namespace libsplit::analysis;

static KernelSummary kernelFrom(const std::string &Body) {
  ProgramSummary Program;
  std::string Error;
  INFO(Error);
  REQUIRE(parseSummary("libsplit-summary 2\n" + Body, Program, Error));
  REQUIRE(Program.Kernels.size() == 1);
  return Program.Kernels[0];
}

// The plan for the kernel's argument 0, or the refusal.
struct Planned {
  bool Ok = false;
  AtomicMerge Plan;
  std::string Why;
};

static Planned planFor(const std::string &Accesses, const std::string &Kind = "global") {
  const KernelSummary K =
      kernelFrom("kernel k splittable\narg 0 " + Kind + " - counters\n" + Accesses + "end\n");
  Planned Out;
  Out.Ok = planAtomicMerge(K, 0, Out.Plan, Out.Why);
  return Out;
}

TEST_CASE("each atomic operation maps to its combination", "[analysis][atomics]") {
  CHECK(combineFor(AccessKind::AtomicAdd, AtomicElement::I32) == Combine{CombineOp::Sum, 4, false});
  CHECK(combineFor(AccessKind::AtomicSub, AtomicElement::U64) == Combine{CombineOp::Sum, 8, false});
  CHECK(combineFor(AccessKind::AtomicInc, AtomicElement::U32) == Combine{CombineOp::Sum, 4, false});
  CHECK(combineFor(AccessKind::AtomicDec, AtomicElement::I64) == Combine{CombineOp::Sum, 8, false});
  CHECK(combineFor(AccessKind::AtomicMin, AtomicElement::I32) == Combine{CombineOp::Min, 4, true});
  CHECK(combineFor(AccessKind::AtomicMin, AtomicElement::U32) == Combine{CombineOp::Min, 4, false});
  CHECK(combineFor(AccessKind::AtomicMax, AtomicElement::I64) == Combine{CombineOp::Max, 8, true});
  CHECK(combineFor(AccessKind::AtomicMax, AtomicElement::U64) == Combine{CombineOp::Max, 8, false});
  CHECK(combineFor(AccessKind::AtomicAnd, AtomicElement::I32) == Combine{CombineOp::And, 4, false});
  CHECK(combineFor(AccessKind::AtomicOr, AtomicElement::U32) == Combine{CombineOp::Or, 4, false});
  CHECK(combineFor(AccessKind::AtomicXor, AtomicElement::I64) == Combine{CombineOp::Xor, 8, false});
  // Never combined: order-dependent operations, floating point, untyped elements, plain access.
  CHECK_FALSE(combineFor(AccessKind::AtomicXchg, AtomicElement::I32));
  CHECK_FALSE(combineFor(AccessKind::AtomicCmpXchg, AtomicElement::U32));
  CHECK_FALSE(combineFor(AccessKind::AtomicAdd, AtomicElement::F32));
  CHECK_FALSE(combineFor(AccessKind::AtomicMax, AtomicElement::F64));
  CHECK_FALSE(combineFor(AccessKind::AtomicMin, AtomicElement::Unknown));
  CHECK_FALSE(combineFor(AccessKind::Read, AtomicElement::I32));
  CHECK_FALSE(combineFor(AccessKind::Write, AtomicElement::I32));
}

TEST_CASE("one kind of combination covers the whole argument", "[analysis][atomics]") {
  // A histogram: atomic_inc and atomic_add (one class) at data-dependent bins.
  const Planned P = planFor("  access atomic_inc u32 unknown why index loaded from memory\n"
                            "  access atomic_add i32 bytes (mul 4 gid0) (add (mul 4 gid0) 3)\n"
                            "  access atomic_sub u32 bytes 0 3\n"
                            "  access atomic_dec i32 bytes 0 3\n");
  REQUIRE(P.Ok);
  REQUIRE(P.Plan.Ranges.size() == 1);
  CHECK(P.Plan.Ranges[0].Whole);
  CHECK(P.Plan.Ranges[0].How == Combine{CombineOp::Sum, 4, false});
}

TEST_CASE("a {sum, min, max} record combines field by field", "[analysis][atomics]") {
  const Planned P = planFor("  access atomic_add i32 guard lid0 0 0 bytes 0 3\n"
                            "  access atomic_min i32 guard lid0 0 0 bytes 4 7\n"
                            "  access atomic_max u32 guard lid0 0 0 bytes 8 11\n"
                            "  access atomic_or u64 bytes 16 31\n");
  REQUIRE(P.Ok);
  REQUIRE(P.Plan.Ranges.size() == 4);
  CHECK_FALSE(P.Plan.Ranges[0].Whole);
  CHECK(P.Plan.Ranges[0].How == Combine{CombineOp::Sum, 4, false});
  CHECK(P.Plan.Ranges[1].How == Combine{CombineOp::Min, 4, true});
  CHECK(P.Plan.Ranges[1].First == 4);
  CHECK(P.Plan.Ranges[1].Last == 7);
  CHECK(P.Plan.Ranges[2].How == Combine{CombineOp::Max, 4, false});
  CHECK(P.Plan.Ranges[3].How == Combine{CombineOp::Or, 8, false});
  CHECK(P.Plan.Ranges[3].First == 16);
  CHECK(P.Plan.Ranges[3].Last == 31);
}

TEST_CASE("each byte is combined once", "[analysis][atomics]") {
  // add and sub on one field, an or on two words and on the second alone, touching sums.
  const Planned P = planFor("  access atomic_xor u32 bytes 24 27\n"
                            "  access atomic_add i32 bytes 0 3\n"
                            "  access atomic_or u32 bytes 8 15\n"
                            "  access atomic_sub i32 bytes 0 3\n"
                            "  access atomic_or u32 bytes 12 15\n"
                            "  access atomic_inc u32 bytes 4 7\n");
  REQUIRE(P.Ok);
  REQUIRE(P.Plan.Ranges.size() == 3);
  CHECK(P.Plan.Ranges[0].How == Combine{CombineOp::Sum, 4, false});
  CHECK(P.Plan.Ranges[0].First == 0);
  CHECK(P.Plan.Ranges[0].Last == 7);
  CHECK(P.Plan.Ranges[1].How == Combine{CombineOp::Or, 4, false});
  CHECK(P.Plan.Ranges[1].First == 8);
  CHECK(P.Plan.Ranges[1].Last == 15);
  CHECK(P.Plan.Ranges[2].How == Combine{CombineOp::Xor, 4, false});
  CHECK(P.Plan.Ranges[2].First == 24);
}

TEST_CASE("what cannot be combined is refused with the reason", "[analysis][atomics]") {
  const std::pair<const char *, const char *> Cases[] = {
      {"  access atomic_xchg i32 bytes 0 3\n", "atomic_xchg i32 on counters: the result depends"},
      {"  access atomic_cmpxchg u32 bytes 0 3\n", "atomic_cmpxchg u32 on counters"},
      {"  access atomic_xchg f32 bytes 0 3\n", "atomic_xchg f32"},
      {"  access atomic_add f32 bytes 0 3\n", "cannot be combined exactly"},
      {"  access atomic_max - bytes 0 3\n", "atomic_max - on counters"},
      {"  access atomic_add i32 bytes 0 3\n  access write bytes 4 7\n",
       "counters is updated atomically and also read or written plainly"},
      {"  access read bytes 0 3\n  access atomic_inc u32 bytes 0 3\n", "also read or written"},
      // Two classes where the offsets may overlap: symbolic, unknown, or the same bytes.
      {"  access atomic_add i32 bytes 0 3\n  access atomic_min i32 bytes (mul 4 gid0) "
       "(add (mul 4 gid0) 3)\n",
       "at offsets that may overlap"},
      {"  access atomic_add i32 bytes 0 3\n  access atomic_or i32 unknown\n", "may overlap"},
      {"  access atomic_add i32 bytes 0 7\n  access atomic_max i32 bytes 4 7\n",
       "updated by atomic_max i32 and atomic_add i32 on bytes that may overlap"},
      // Signed and unsigned minima differ: they may not share bytes either.
      {"  access atomic_min i32 bytes 0 3\n  access atomic_min u32 bytes 0 3\n",
       "atomic_min u32 and atomic_min i32 on bytes that may overlap"},
      {"  access atomic_add i64 bytes 4 11\n  access atomic_and i32 bytes 0 3\n", "may overlap"},
  };
  for (const auto &[Accesses, Expected] : Cases) {
    INFO(Accesses);
    const Planned P = planFor(Accesses);
    CHECK_FALSE(P.Ok);
    CHECK_THAT(P.Why, Catch::Contains(Expected));
    CHECK(P.Plan.empty());
  }
}

TEST_CASE("arguments without global atomics need no plan", "[analysis][atomics]") {
  for (const Planned &P :
       {planFor("  access read bytes 0 3\n  access write bytes 4 7\n"), planFor(""),
        // Local memory is per work-group: its atomics never meet another device's.
        planFor("  access atomic_inc u32 bytes 0 255\n  access read bytes 0 255\n", "local")}) {
    CHECK(P.Ok);
    CHECK(P.Plan.empty());
  }
  KernelSummary K = kernelFrom("kernel k splittable\narg 0 scalar i32 n\nend\n");
  AtomicMerge Plan;
  std::string Why;
  CHECK(planAtomicMerge(K, 0, Plan, Why));
  CHECK(planAtomicMerge(K, 7, Plan, Why)); // no such argument
  CHECK(Plan.empty());
}
