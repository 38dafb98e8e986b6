#include "libsplit/analysis/summary_text.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace libsplit::analysis;

static const char *const Sample = R"(libsplit-summary 3
kernel vecadd splittable
loop 0 last (sub arg3 1)
loop 1 last (add loop0 gid0)
arg 0 global - a
  access read guard gid0 0 (sub arg3 1) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 1 global - b
  access read guard gid0 0 (sub arg3 1) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 2 global - c
  access write guard gid0 0 (sub arg3 1) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 3 scalar u32 n
end
kernel spmv unsplittable indirect write through col_idx
arg 0 global - row_ptr
  access read bytes (mul gid0 4) (add (mul gid0 4) 7)
arg 1 global - x
  access read unknown via arg0 (mul gid0 4) (add (mul gid0 4) 7) why index loaded from memory
arg 2 global - hist
  access atomic_add u32 guard gid0 0 100 guard lid1 (neg 1) 5 bytes 0 255
arg 3 local - tile
arg 4 global - bounds
  access atomic_min i64 bytes 0 7
  access atomic_xchg f32 unknown why the index is computed in floating point
end
)";

TEST_CASE("a summary prints back exactly as it was parsed", "[analysis][summary]") {
  ProgramSummary Program;
  std::string Error;
  REQUIRE(parseSummary(Sample, Program, Error));
  REQUIRE(Program.Kernels.size() == 2);
  const KernelSummary *Spmv = Program.find("spmv");
  REQUIRE(Spmv);
  CHECK_FALSE(Spmv->Splittable);
  CHECK(Spmv->NotSplittableReason == "indirect write through col_idx");
  REQUIRE(Spmv->Args[1].Accesses.size() == 1);
  const Access &Indirect = Spmv->Args[1].Accesses[0];
  CHECK(Indirect.Unknown);
  REQUIRE(Indirect.Via);
  CHECK(Indirect.Via->SourceArg == 0);
  CHECK(Indirect.Why == "index loaded from memory");
  CHECK(Spmv->Args[2].Accesses[0].Kind == AccessKind::AtomicAdd);
  CHECK(Spmv->Args[2].Accesses[0].Element == AtomicElement::U32);
  CHECK(Spmv->Args[2].Accesses[0].Guards.size() == 2);
  CHECK(Spmv->Args[4].Accesses[0].Element == AtomicElement::I64);
  CHECK(Spmv->Args[4].Accesses[1].Element == AtomicElement::F32);
  CHECK(Spmv->Args[4].Accesses[1].Unknown);
  CHECK(Program.Kernels[0].Args[3].Scalar == ScalarType::U32);
  REQUIRE(Program.Kernels[0].LoopLast.size() == 2);
  CHECK(toText(Program.Kernels[0].LoopLast[1]) == "(add loop0 gid0)");
  CHECK(toText(Program) == Sample);
}

TEST_CASE("a version 2 summary (no loops) is still read", "[analysis][summary]") {
  ProgramSummary Program;
  std::string Error;
  REQUIRE(parseSummary("libsplit-summary 2\nkernel k splittable\narg 0 global - a\n  access "
                       "read bytes 0 3\nend\n",
                       Program, Error));
  CHECK(Program.Kernels[0].LoopLast.empty());
}

TEST_CASE("malformed summaries are rejected with the line", "[analysis][summary]") {
  const std::pair<const char *, const char *> Cases[] = {
      {"", "line 1"},
      {"libsplit-summary 1\n", "line 1"}, // version 1 had no atomic element types
      {"libsplit-summary 4\n", "line 1"},
      {"libsplit-summary 3\nkernel k splittable\nloop 1 last 5\nend\n", "numbered"},
      {"libsplit-summary 3\nkernel k splittable\nloop 0 last loop0\nend\n", "itself"},
      {"libsplit-summary 3\nkernel k splittable\nloop 0 last loop1\nend\n", "later loop"},
      {"libsplit-summary 3\nkernel k splittable\narg 0 global - a\nloop 0 last 5\nend\n",
       "after its arguments"},
      {"libsplit-summary 3\nkernel k splittable\nloop 0 last 1\nloop 1 last 1\nloop 2 last 1\n"
       "loop 3 last 1\nloop 4 last 1\nend\n",
       "at most 4"},
      {"libsplit-summary 2\nkernel k splittable\n", "no 'end'"},
      {"libsplit-summary 2\nkernel k splittable\narg 1 global - a\nend\n", "line 3"},
      {"libsplit-summary 2\nkernel k maybe\nend\n", "line 2"},
      {"libsplit-summary 2\nkernel k splittable\narg 0 global - a\n  access read bytes 0\nend\n",
       "line 4"},
      {"libsplit-summary 2\nkernel k splittable\narg 0 global - a\n  access peek bytes 0 1\nend\n",
       "unknown access kind"},
      {"libsplit-summary 2\nkernel k splittable\narg 0 global - a\n  access atomic_or bytes 0 3\n"
       "end\n",
       "unknown atomic element 'bytes'"},
      {"libsplit-summary 2\nkernel k splittable\narg 0 global - a\n  access atomic_or i16 bytes 0 "
       "1\nend\n",
       "unknown atomic element 'i16'"},
      {"libsplit-summary 2\nkernel k splittable\nend\nkernel k splittable\nend\n", "twice"},
      {"libsplit-summary 2\narg 0 global - a\n", "outside a kernel"},
      {"libsplit-summary 2\nkernel k splittable\nwhat\nend\n", "unknown keyword"},
  };
  for (const auto &[Text, Expected] : Cases) {
    ProgramSummary Program;
    std::string Error;
    INFO(Text);
    CHECK_FALSE(parseSummary(Text, Program, Error));
    CHECK_THAT(Error, Catch::Contains(Expected));
    CHECK(Program.Kernels.empty());
  }
}

TEST_CASE("every truncation of a summary is rejected or keeps whole kernels",
          "[analysis][summary]") {
  const std::string Text = Sample;
  for (std::size_t Length = 0; Length < Text.size(); ++Length) {
    ProgramSummary Program;
    std::string Error;
    if (!parseSummary(Text.substr(0, Length), Program, Error))
      continue;
    // Only a cut right after the header or after an "end" line can parse: complete kernels.
    std::string Prefix = Text.substr(0, Length);
    if (Prefix.back() == '\n')
      Prefix.pop_back();
    INFO(Length);
    const bool AfterEnd = Prefix.size() >= 3 && Prefix.compare(Prefix.size() - 3, 3, "end") == 0;
    CHECK((AfterEnd || Prefix == "libsplit-summary 3"));
    CHECK(Program.Kernels.empty() != AfterEnd);
  }
}

// A randomized fuzz of the parser (CI has no libFuzzer): mutated inputs must never crash, and
// anything accepted must print to a text that parses to the same text again.
TEST_CASE("mutated summaries never crash the parser", "[analysis][summary][fuzz]") {
  std::mt19937 Rng(12345);
  const std::string Alphabet = "()-0123456789 abcdefgikmnoprstuvwxyz_\n\t";
  int Accepted = 0;
  for (int Round = 0; Round < 20000; ++Round) {
    std::string Text = Sample;
    const int Mutations = 1 + static_cast<int>(Rng() % 4);
    for (int M = 0; M < Mutations; ++M) {
      const std::size_t At = Rng() % Text.size();
      switch (Rng() % 4) {
      case 0:
        Text[At] = Alphabet[Rng() % Alphabet.size()];
        break;
      case 1:
        Text.insert(At, 1, Alphabet[Rng() % Alphabet.size()]);
        break;
      case 2:
        Text.erase(At, 1 + Rng() % 8);
        break;
      default:
        Text[At] = static_cast<char>(Rng() % 256);
        break;
      }
      if (Text.empty())
        Text = "x";
    }
    ProgramSummary Program;
    std::string Error;
    if (!parseSummary(Text, Program, Error)) {
      CHECK_FALSE(Error.empty());
      continue;
    }
    ++Accepted;
    const std::string Printed = toText(Program);
    ProgramSummary Again;
    REQUIRE(parseSummary(Printed, Again, Error));
    CHECK(toText(Again) == Printed);
  }
  CHECK(Accepted > 0); // some mutations (e.g. in names) are still valid summaries
}
