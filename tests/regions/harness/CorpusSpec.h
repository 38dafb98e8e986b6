// The launch descriptions in the corpus files: `//@` lines after each kernel say how the
// soundness test runs it (see tests/regions/README.md).
//
//   //@ options <clBuildProgram options>              (once per file)
//   //@ launch <kernel> global=AxB local=CxD [offset=ExF] [disjoint=0,1] [tight]
//   //@ arg buffer <bytes> <float|bytes|zero|int:M|rowptr:R:K>
//   //@ arg int|uint|long|ulong <value>    //@ arg float <value>    //@ arg local <bytes>
#ifndef LIBSPLIT_TESTS_REGIONS_CORPUSSPEC_H
#define LIBSPLIT_TESTS_REGIONS_CORPUSSPEC_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace libsplit::test {

struct ArgSpec {
  enum class Kind { Buffer, Scalar, Local } What = Kind::Scalar;
  std::size_t Bytes = 0;           // buffer or local size
  std::string Init;                // buffer contents
  std::vector<std::uint8_t> Value; // scalar bytes, as clSetKernelArg takes them
};

struct LaunchSpec {
  std::string Kernel;
  unsigned WorkDim = 1;
  std::array<std::size_t, 3> Global{1, 1, 1}, Local{1, 1, 1}, Offset{0, 0, 0};
  std::vector<unsigned> Disjoint; // dimensions whose slices must write disjoint bytes
  bool Tight = false;             // interval ends must be touched
  std::vector<ArgSpec> Args;
  int Line = 0;
};

struct CorpusFile {
  std::string Source;
  std::string Options;
  std::vector<LaunchSpec> Launches;
};

/// Reads \p Path; returns false with \p Error naming the line on a malformed directive.
bool readCorpusFile(const std::string &Path, CorpusFile &Out, std::string &Error);

} // namespace libsplit::test

#endif // LIBSPLIT_TESTS_REGIONS_CORPUSSPEC_H
