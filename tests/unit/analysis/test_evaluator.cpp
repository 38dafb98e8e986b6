#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/analysis/summary_text.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <set>

using namespace libsplit::analysis;

static KernelSummary kernelFrom(const std::string &Body) {
  ProgramSummary Program;
  std::string Error;
  INFO(Error);
  REQUIRE(parseSummary("libsplit-summary 2\n" + Body, Program, Error));
  REQUIRE(Program.Kernels.size() == 1);
  return Program.Kernels[0];
}

template <typename T> static std::vector<std::uint8_t> bytesOf(T Value) {
  std::vector<std::uint8_t> Bytes(sizeof(T));
  std::memcpy(Bytes.data(), &Value, sizeof(T));
  return Bytes;
}

static const char *const VecAdd = R"(kernel vecadd splittable
arg 0 global - a
  access read guard gid0 0 (sub arg3 1) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 1 global - b
  access read guard gid0 0 (sub arg3 1) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 2 global - c
  access write guard gid0 0 (sub arg3 1) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 3 scalar u32 n
end
)";

TEST_CASE("a 1D slice touches exactly its elements", "[analysis][eval]") {
  KernelSummary K = kernelFrom(VecAdd);
  NDRange R;
  R.Global = {1024, 1, 1};
  R.Local = {64, 1, 1};
  LaunchArgs Args;
  Args.ScalarBytes = {{}, {}, {}, bytesOf<std::uint32_t>(1000)};

  auto Low = evaluateSlice(K, R, Args, Slice{0, 0, 4});
  REQUIRE(Low[2].Write.ranges().size() == 1);
  CHECK(Low[2].Write.ranges()[0] == ByteRange{0, 4 * 256});
  CHECK(Low[0].Read.ranges()[0] == ByteRange{0, 4 * 256});
  CHECK_FALSE(Low[2].WriteWhole);
  CHECK(Low[3].Read.empty());

  // The guard i < n cuts the last slice short; a slice wholly past n touches nothing.
  auto High = evaluateSlice(K, R, Args, Slice{0, 12, 16});
  CHECK(High[2].Write.ranges()[0] == ByteRange{4 * 768, 4 * 1000});
  Args.ScalarBytes[3] = bytesOf<std::uint32_t>(700);
  CHECK(evaluateSlice(K, R, Args, Slice{0, 12, 16})[2].Write.empty());

  CHECK(writesDisjoint(Low, High));
  CHECK(disjointWriteDims(K, R, Args) == std::vector<std::uint32_t>{0});
}

TEST_CASE("the app's own global offset shifts the ids", "[analysis][eval]") {
  KernelSummary K = kernelFrom(VecAdd);
  NDRange R;
  R.Global = {256, 1, 1};
  R.Local = {64, 1, 1};
  R.Offset = {100, 0, 0};
  LaunchArgs Args;
  Args.ScalarBytes = {{}, {}, {}, bytesOf<std::uint32_t>(100000)};
  auto Regions = evaluateSlice(K, R, Args, Slice{0, 1, 2});
  CHECK(Regions[2].Write.ranges()[0] == ByteRange{4 * 164, 4 * 228});
}

static const char *const Stencil = R"(kernel stencil splittable
arg 0 global - in
  access read guard gid0 1 (sub arg2 2) guard gid1 1 (sub arg3 2) bytes (mul (add (mul (sub gid1 1) arg2) gid0) 4) (add (mul (add (mul (add gid1 1) arg2) gid0) 4) 3)
arg 1 global - out
  access write guard gid0 0 (sub arg2 1) guard gid1 0 (sub arg3 1) bytes (mul (add (mul gid1 arg2) gid0) 4) (add (mul (add (mul gid1 arg2) gid0) 4) 3)
arg 2 scalar i32 nx
arg 3 scalar i32 ny
end
)";

TEST_CASE("a 2D stencil splits by rows with disjoint writes and a one-row halo",
          "[analysis][eval]") {
  KernelSummary K = kernelFrom(Stencil);
  NDRange R;
  R.WorkDim = 2;
  R.Global = {64, 64, 1};
  R.Local = {16, 16, 1};
  LaunchArgs Args;
  Args.ScalarBytes = {{}, {}, bytesOf<std::int32_t>(64), bytesOf<std::int32_t>(64)};
  auto Top = evaluateSlice(K, R, Args, Slice{1, 0, 2});    // rows 0..31
  auto Bottom = evaluateSlice(K, R, Args, Slice{1, 2, 4}); // rows 32..63
  CHECK(Top[1].Write.ranges()[0] == ByteRange{0, 32 * 64 * 4});
  // Reads rows 0..32 (row 31's stencil needs row 32): the halo.
  CHECK(Top[0].Read.ranges()[0] == ByteRange{64 * 4 + 4 - 64 * 4, (32 * 64 + 62) * 4 + 4});
  CHECK(writesDisjoint(Top, Bottom));
  // Column halves of a row-major array overlap as hulls: dimension 0 does not qualify.
  CHECK(disjointWriteDims(K, R, Args) == std::vector<std::uint32_t>{1});
}

TEST_CASE("what cannot be bounded becomes the whole buffer", "[analysis][eval]") {
  KernelSummary K = kernelFrom(R"(kernel k splittable
arg 0 global - overflow
  access write bytes (mul gid0 9223372036854775807) (mul gid0 9223372036854775807)
arg 1 global - divzero
  access read bytes (div 100 (sub gid0 5)) 200
arg 2 global - indirect
  access read unknown via arg3 0 3 why index loaded from memory
arg 3 global - counters
  access atomic_add i32 bytes 0 3
  access atomic_max i32 bytes 4 7
arg 4 scalar - f
end
)");
  NDRange R;
  R.Global = {64, 1, 1};
  R.Local = {8, 1, 1};
  LaunchArgs Args;
  Args.ScalarBytes.resize(5);
  auto Regions = evaluateSlice(K, R, Args, Slice{0, 0, 8});
  CHECK(Regions[0].WriteWhole);
  CHECK(Regions[1].ReadWhole);
  CHECK(Regions[2].ReadWhole);
  CHECK(Regions[3].Atomic.ranges()[0] == ByteRange{0, 8});
  CHECK(Regions[3].AtomicKinds ==
        ((1u << unsigned(AccessKind::AtomicAdd)) | (1u << unsigned(AccessKind::AtomicMax))));
  CHECK(Regions[3].Write.empty());
  // Whole-buffer writes are never disjoint from another slice's writes.
  auto Other = evaluateSlice(K, R, Args, Slice{0, 0, 1});
  CHECK_FALSE(writesDisjoint(Regions, Other));
}

TEST_CASE("a scalar of the wrong size is not trusted", "[analysis][eval]") {
  KernelSummary K = kernelFrom(VecAdd);
  NDRange R;
  R.Global = {64, 1, 1};
  R.Local = {64, 1, 1};
  LaunchArgs Args;
  Args.ScalarBytes = {{}, {}, {}, bytesOf<std::uint64_t>(10)}; // declared u32
  auto Regions = evaluateSlice(K, R, Args, Slice{0, 0, 1});
  // The guard's upper bound is unknown, so only the slice's own ids bound the region.
  CHECK(Regions[2].Write.ranges()[0] == ByteRange{0, 256});
}

// Soundness: for random affine-with-division expressions, every value taken by a work-item of
// the slice lies inside the evaluated range.
TEST_CASE("evaluated regions contain every work-item's bytes", "[analysis][eval]") {
  std::mt19937 Rng(99);
  auto pick = [&](int N) { return static_cast<int>(Rng() % static_cast<unsigned>(N)); };
  const char *Terms[] = {"gid0", "gid1", "lid0", "lid1", "grp0", "grp1", "arg1", "7", "-3"};
  const char *Ops[] = {"add", "sub", "mul", "div", "rem", "min", "max", "and"};
  std::function<std::string(int)> randomExpr = [&](int Depth) -> std::string {
    if (Depth == 0 || pick(3) == 0)
      return Terms[pick(9)];
    return std::string("(") + Ops[pick(8)] + " " + randomExpr(Depth - 1) + " " +
           randomExpr(Depth - 1) + ")";
  };
  auto value = [&](const std::string &Text, std::int64_t Gid0, std::int64_t Gid1, std::int64_t L0,
                   std::int64_t L1, std::int64_t Arg) {
    // Evaluate with a one-work-item "slice" through the evaluator itself would be circular;
    // a tiny independent interpreter of the same text instead.
    std::size_t Pos = 0;
    std::function<std::optional<std::int64_t>()> eval = [&]() -> std::optional<std::int64_t> {
      while (Text[Pos] == ' ')
        ++Pos;
      if (Text[Pos] == '(') {
        ++Pos;
        std::size_t Start = Pos;
        while (Text[Pos] != ' ')
          ++Pos;
        std::string Op = Text.substr(Start, Pos - Start);
        auto A = eval(), B = eval();
        ++Pos; // ')'
        if (!A || !B)
          return std::nullopt;
        if (Op == "add")
          return *A + *B;
        if (Op == "sub")
          return *A - *B;
        if (Op == "mul")
          return *A * *B;
        if (Op == "div")
          return *B == 0 ? std::nullopt : std::optional<std::int64_t>(*A / *B);
        if (Op == "rem")
          return *B == 0 ? std::nullopt : std::optional<std::int64_t>(*A % *B);
        if (Op == "min")
          return std::min(*A, *B);
        if (Op == "max")
          return std::max(*A, *B);
        return *A & *B;
      }
      std::size_t Start = Pos;
      while (Pos < Text.size() && Text[Pos] != ' ' && Text[Pos] != ')')
        ++Pos;
      std::string Word = Text.substr(Start, Pos - Start);
      if (Word == "gid0")
        return Gid0;
      if (Word == "gid1")
        return Gid1;
      if (Word == "lid0")
        return L0;
      if (Word == "lid1")
        return L1;
      if (Word == "grp0")
        return (Gid0 - L0) / 4;
      if (Word == "grp1")
        return Gid1 / 2 - L1 / 2;
      if (Word == "arg1")
        return Arg;
      return std::stoll(Word);
    };
    return eval();
  };

  int Checked = 0;
  for (int Round = 0; Round < 300; ++Round) {
    const std::string Text = randomExpr(3);
    KernelSummary K = kernelFrom("kernel k splittable\narg 0 global - a\n  access read bytes " +
                                 Text + " " + Text + "\narg 1 scalar i32 n\nend\n");
    NDRange R;
    R.WorkDim = 2;
    R.Global = {16, 8, 1};
    R.Local = {4, 2, 1};
    const std::int32_t Arg = static_cast<std::int32_t>(Rng() % 21) - 10;
    LaunchArgs Args;
    Args.ScalarBytes = {{}, bytesOf(Arg)};
    const std::uint32_t Dim = Rng() % 2;
    const std::uint64_t Groups = R.numGroups(Dim);
    const std::uint64_t First = Rng() % Groups, End = First + 1 + Rng() % (Groups - First);
    auto Regions = evaluateSlice(K, R, Args, Slice{Dim, First, End});
    // The same slice with the launch's forms: bounds from the forms where exact.
    const AccessForms Forms = accessForms(K, R, Args);
    auto Formed = evaluateSlice(K, R, Args, Slice{Dim, First, End}, &Forms);
    if (Regions[0].ReadWhole)
      continue;
    REQUIRE(!Formed[0].ReadWhole);
    for (std::int64_t G1 = 0; G1 < 8; ++G1)
      for (std::int64_t G0 = 0; G0 < 16; ++G0) {
        const std::int64_t Group = Dim == 0 ? G0 / 4 : G1 / 2;
        if (Group < std::int64_t(First) || Group >= std::int64_t(End))
          continue;
        auto V = value(Text, G0, G1, G0 % 4, G1 % 2, Arg);
        if (!V)
          continue; // a division by zero the evaluator bounded anyway: no claim to check
        INFO(Text << " at (" << G0 << "," << G1 << ") = " << *V);
        REQUIRE(Regions[0].Read.contains(*V, *V + 1));
        REQUIRE(Formed[0].Read.contains(*V, *V + 1));
        ++Checked;
      }
  }
  CHECK(Checked > 1000);
}

// An LU step's column: a[(k + 1 + gid0) * n + k] of a float matrix, n = 1024.
static const char *const Column = R"(kernel column splittable
arg 0 global - a
  access read bytes (mul 4 (add (mul (add (add arg1 1) gid0) arg2) arg1)) (add (mul 4 (add (mul (add (add arg1 1) gid0) arg2) arg1)) 3)
arg 1 scalar u32 k
arg 2 scalar u32 n
end
)";

TEST_CASE("a column of a row-major matrix is its elements, not the rows between",
          "[analysis][eval]") {
  KernelSummary K = kernelFrom(Column);
  LaunchArgs Args;
  Args.ScalarBytes = {{}, bytesOf<std::uint32_t>(5), bytesOf<std::uint32_t>(1024)};
  NDRange R;
  R.Global = {256, 1, 1};
  R.Local = {64, 1, 1};
  const auto Regions = evaluateSlice(K, R, Args, Slice{0, 0, 2});
  REQUIRE(!Regions[0].ReadWhole);
  const std::vector<ByteRange> &Ranges = Regions[0].Read.ranges();
  REQUIRE(Ranges.size() == 128);
  for (std::size_t Row = 0; Row < Ranges.size(); ++Row) {
    const std::int64_t Element = (5 + 1 + static_cast<std::int64_t>(Row)) * 1024 + 5;
    CHECK(Ranges[Row] == ByteRange{4 * Element, 4 * Element + 4});
  }
  // The same from forms computed once for the launch.
  const AccessForms Forms = accessForms(K, R, Args);
  CHECK(evaluateSlice(K, R, Args, Slice{0, 0, 2}, &Forms)[0].Read.ranges() == Ranges);

  SECTION("more rows than MaxRunsPerAccess: the hull") {
    R.Global = {1024, 1, 1};
    const auto Many = evaluateSlice(K, R, Args, Slice{0, 0, 16});
    CHECK(Many[0].Read.ranges().size() == 1);
  }
  SECTION("a hull under MinExactHullBytes: the hull") {
    Args.ScalarBytes[2] = bytesOf<std::uint32_t>(8);
    const auto Small = evaluateSlice(K, R, Args, Slice{0, 0, 1});
    CHECK(Small[0].Read.ranges().size() == 1);
  }
}

TEST_CASE("rows nearly as wide as the matrix stay one range", "[analysis][eval]") {
  // A 2-D stencil's interior rows, n = 128: the runs would cover nearly all of their hull.
  KernelSummary K = kernelFrom(R"(kernel stencil splittable
arg 0 global - a
  access write guard gid0 1 126 guard gid1 1 126 bytes (mul 4 (add (mul gid1 arg1) gid0)) (add (mul 4 (add (mul gid1 arg1) gid0)) 3)
arg 1 scalar i32 n
end
)");
  LaunchArgs Args;
  Args.ScalarBytes = {{}, bytesOf<std::int32_t>(128)};
  NDRange R;
  R.WorkDim = 2;
  R.Global = {128, 128, 1};
  R.Local = {16, 16, 1};
  CHECK(evaluateSlice(K, R, Args, Slice{1, 0, 4})[0].Write.ranges().size() == 1);
  // Split by columns, each row's half is far from the next: disjoint halves, one run a row.
  const auto Left = evaluateSlice(K, R, Args, Slice{0, 0, 4});
  const auto Right = evaluateSlice(K, R, Args, Slice{0, 4, 8});
  CHECK(Left[0].Write.ranges().size() == 126);
  CHECK(writesDisjoint(Left, Right));
}

// Random affine accesses (products of ids by constants and scalars, 32-bit truncations as the
// compiler writes them): every work-item's bytes are in the region, and a region of several
// runs holds no byte no work-item touches.
TEST_CASE("exact runs hold every work-item's bytes and nothing else", "[analysis][eval]") {
  std::mt19937 Rng(2026);
  auto pick = [&](int N) { return static_cast<int>(Rng() % static_cast<unsigned>(N)); };
  const char *Ids[] = {"gid0", "gid1", "lid0", "lid1", "grp0", "grp1"};
  int Exact = 0;
  for (int Round = 0; Round < 300; ++Round) {
    const std::int32_t N = 64 + pick(400);
    const int Width = 1 + pick(8);
    const int IdA = pick(6), IdB = pick(6);
    std::string Index = "(add (mul " + std::string(Ids[IdA]) + " arg1) (mul " + Ids[IdB] + " " +
                        std::to_string(1 + pick(3)) + "))";
    // A global id beside the local or group id of its dimension: the forms take them as
    // independent, a superset (sound, not exact).
    const bool Independent = IdA == IdB || IdA % 2 != IdB % 2 || (IdA >= 2 && IdB >= 2);
    if (pick(2))
      Index = "(ashr (shl " + Index + " 32) 32)";
    const std::string First = "(mul " + std::to_string(Width) + " " + Index + ")";
    const std::string Last = "(add " + First + " " + std::to_string(Width - 1) + ")";
    KernelSummary K = kernelFrom("kernel k splittable\narg 0 global - a\n  access read bytes " +
                                 First + " " + Last + "\narg 1 scalar i32 n\nend\n");
    NDRange R;
    R.WorkDim = 2;
    R.Global = {64, 64, 1};
    R.Local = {8, 8, 1};
    LaunchArgs Args;
    Args.ScalarBytes = {{}, bytesOf(N)};
    const std::uint32_t Dim = Rng() % 2;
    const std::uint64_t FirstGroup = Rng() % 8,
                        EndGroup = FirstGroup + 1 + Rng() % (8 - FirstGroup);
    const Slice S{Dim, FirstGroup, EndGroup};
    const auto Regions = evaluateSlice(K, R, Args, S);
    const AccessForms Forms = accessForms(K, R, Args);
    REQUIRE(evaluateSlice(K, R, Args, S, &Forms)[0].Read.ranges() == Regions[0].Read.ranges());
    REQUIRE(!Regions[0].ReadWhole);
    std::set<std::int64_t> Touched;
    for (std::int64_t G1 = 0; G1 < 64; ++G1)
      for (std::int64_t G0 = 0; G0 < 64; ++G0) {
        const std::int64_t Group = Dim == 0 ? G0 / 8 : G1 / 8;
        if (Group < std::int64_t(FirstGroup) || Group >= std::int64_t(EndGroup))
          continue;
        const std::int64_t Values[] = {G0, G1, G0 % 8, G1 % 8, G0 / 8, G1 / 8};
        auto idOf = [&](const std::string &Text, std::size_t At) {
          for (int I = 0; I < 6; ++I)
            if (Text.compare(At, std::strlen(Ids[I]), Ids[I]) == 0)
              return Values[I];
          return std::int64_t(0);
        };
        // (add (mul A arg1) (mul B c)): A at the first "(mul ", B at the second.
        const std::size_t A = Index.find("(mul ") + 5;
        const std::size_t B = Index.find("(mul ", A) + 5;
        const std::size_t C = Index.find(' ', B) + 1;
        const std::int64_t Element =
            idOf(Index, A) * N + idOf(Index, B) * std::stoll(Index.substr(C));
        for (std::int64_t Byte = Width * Element; Byte < Width * Element + Width; ++Byte) {
          INFO(First << " n=" << N);
          REQUIRE(Regions[0].Read.contains(Byte, Byte + 1));
          Touched.insert(Byte);
        }
      }
    if (Regions[0].Read.ranges().size() > 1 && Independent) {
      ++Exact;
      CHECK(Regions[0].Read.totalBytes() == static_cast<std::int64_t>(Touched.size()));
    }
  }
  CHECK(Exact > 20);
}

// Gram-Schmidt's projection: work-item j walks down column j, a[i * n + j] for i in [0, m).
static const char *const ColumnsInLoop = R"(kernel project splittable
loop 0 last (sub arg1 1)
arg 0 global - a
  access read bytes (mul 4 (add (mul loop0 arg2) gid0)) (add (mul 4 (add (mul loop0 arg2) gid0)) 3)
arg 1 scalar u32 m
arg 2 scalar u32 n
end
)";

TEST_CASE("a loop's counter keeps its iterations apart: a block of columns, row by row",
          "[analysis][eval]") {
  KernelSummary K = kernelFrom(ColumnsInLoop);
  REQUIRE(K.LoopLast.size() == 1);
  LaunchArgs Args;
  Args.ScalarBytes = {{}, bytesOf<std::uint32_t>(100), bytesOf<std::uint32_t>(256)};
  NDRange R;
  R.Global = {256, 1, 1};
  R.Local = {32, 1, 1};
  // Columns [64, 96) of the 100 rows: 100 runs of 128 bytes, 1 KiB apart.
  const auto Regions = evaluateSlice(K, R, Args, Slice{0, 2, 3});
  const std::vector<ByteRange> &Ranges = Regions[0].Read.ranges();
  REQUIRE(Ranges.size() == 100);
  for (std::int64_t Row = 0; Row < 100; ++Row)
    CHECK(Ranges[Row] == ByteRange{4 * (Row * 256 + 64), 4 * (Row * 256 + 96)});
  const AccessForms Forms = accessForms(K, R, Args);
  CHECK(evaluateSlice(K, R, Args, Slice{0, 2, 3}, &Forms)[0].Read.ranges() == Ranges);
  // Neighbouring blocks of columns read apart: no byte in common (their hulls overlap).
  const auto Left = evaluateSlice(K, R, Args, Slice{0, 0, 2});
  const auto Right = evaluateSlice(K, R, Args, Slice{0, 2, 4});
  CHECK(!Left[0].Read.intersects(Right[0].Read));
  // Half the columns cover more than half of their hull: the hull.
  CHECK(evaluateSlice(K, R, Args, Slice{0, 0, 4})[0].Read.ranges().size() == 1);

  SECTION("a count that cannot be bounded: the whole buffer") {
    KernelSummary Unbounded = kernelFrom(
        std::string(ColumnsInLoop)
            .replace(std::string(ColumnsInLoop).find("(sub arg1 1)"), 12, "(div arg1 0)"));
    CHECK(evaluateSlice(Unbounded, R, Args, Slice{0, 2, 3})[0].ReadWhole);
  }
}

TEST_CASE("a grid-stride loop's work-items read their stripes, not everything after them",
          "[analysis][eval]") {
  // for (i = gid0; i < n; i += gsize0) sum += in[i];
  KernelSummary K = kernelFrom(R"(kernel stride splittable
loop 0 last (div (sub (max gid0 (sub arg1 1)) gid0) gsize0)
arg 0 global - in
  access read bytes (mul 4 (add gid0 (mul loop0 gsize0))) (add (mul 4 (add gid0 (mul loop0 gsize0))) 3)
arg 1 scalar u32 n
end
)");
  LaunchArgs Args;
  Args.ScalarBytes = {{}, bytesOf<std::uint32_t>(8192)};
  NDRange R;
  R.Global = {1024, 1, 1};
  R.Local = {64, 1, 1};
  // Work-items [0, 256) of 1024: 8 stripes of 1 KiB, 4 KiB apart.
  const auto Regions = evaluateSlice(K, R, Args, Slice{0, 0, 4});
  const std::vector<ByteRange> &Ranges = Regions[0].Read.ranges();
  REQUIRE(Ranges.size() == 8);
  for (std::int64_t Stripe = 0; Stripe < 8; ++Stripe)
    CHECK(Ranges[Stripe] == ByteRange{4 * 1024 * Stripe, 4 * 1024 * Stripe + 1024});
  const auto Next = evaluateSlice(K, R, Args, Slice{0, 4, 8});
  CHECK(!Next[0].Read.intersects(Regions[0].Read));
}
