// compare_outputs TYPE TOLERANCE EXPECTED ACTUAL [--exact]   (TOLERANCE: see parseTolerance)
// Exit 0 when ACTUAL matches EXPECTED (byte for byte with --exact, else within TOLERANCE).
#include "output_compare.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

using namespace libsplit::test;

static bool readFile(const char *Path, std::vector<std::uint8_t> &Bytes) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  Bytes.assign(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
  return true;
}

int main(int Argc, char **Argv) {
  const bool Exact = Argc == 6 && std::string(Argv[5]) == "--exact";
  ElementType Type;
  Tolerance Bound;
  if ((Argc != 5 && !Exact) || !parseElementType(Argv[1], Type) ||
      !parseTolerance(Argv[2], Bound)) {
    std::fprintf(stderr, "usage: compare_outputs f32|f64|i32|u32 TOLERANCE EXPECTED ACTUAL "
                         "[--exact]\n  TOLERANCE: a number >= 0 (relative to each element) or "
                         "NUMBER@norm (relative to the largest magnitude)\n");
    return 2;
  }
  std::vector<std::uint8_t> Expected, Actual;
  if (!readFile(Argv[3], Expected) || !readFile(Argv[4], Actual)) {
    std::fprintf(stderr, "compare_outputs: cannot read %s or %s\n", Argv[3], Argv[4]);
    return 2;
  }
  CompareResult Result = compareOutputs(Expected, Actual, Type, Exact ? Tolerance{} : Bound);
  const bool Pass = Result.Problem.empty() && (Exact ? Result.Identical : Result.WithinTolerance);
  std::printf("compare: %s: %s\n", Pass ? "match" : "MISMATCH",
              describe(Result, Expected, Actual, Type).c_str());
  if (Pass && !Result.Identical)
    std::printf("compare: not byte-identical, accepted within the app's tolerance %s\n", Argv[2]);
  return Pass ? 0 : 1;
}
