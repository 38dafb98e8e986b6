// Compares two raw output files element by element: the verdict of every end-to-end test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace libsplit::test {

enum class ElementType { F32, F64, I32, U32 };

bool parseElementType(const std::string &Name, ElementType &Type);

// The manifest's tolerance: "1e-4" bounds each element's error relative to itself; "1e-4@norm"
// bounds it relative to the largest magnitude of the expected output (normwise), for apps whose
// own check scales errors by the terms' magnitude: there an element near zero (an off-diagonal
// covariance) may differ across vendors by far more than 1e-4 of itself.
struct Tolerance {
  double Value = 0.0;
  bool Normwise = false;
};
bool parseTolerance(const std::string &Text, Tolerance &Out);

struct CompareResult {
  bool Identical = false;       // byte for byte
  bool WithinTolerance = false; // every element within the relative tolerance
  std::size_t Elements = 0;     // elements compared (when the sizes agree)
  std::size_t Differing = 0;    // elements whose bytes differ
  std::size_t FirstDifference = 0;
  double MaxRelativeError = 0.0; // over differing elements; NaN vs number counts as infinite
  bool Normwise = false;         // MaxRelativeError is relative to the largest expected magnitude
  std::string Problem;           // non-empty when the files cannot be compared (size, type)
};

// Relative error of element i is |a-b| / max(|a|, |b|, tiny); integers must match exactly.
CompareResult compareOutputs(const std::vector<std::uint8_t> &Expected,
                             const std::vector<std::uint8_t> &Actual, ElementType Type,
                             double Tolerance);
CompareResult compareOutputs(const std::vector<std::uint8_t> &Expected,
                             const std::vector<std::uint8_t> &Actual, ElementType Type,
                             const Tolerance &Bound);

std::string describe(const CompareResult &Result, const std::vector<std::uint8_t> &Expected,
                     const std::vector<std::uint8_t> &Actual, ElementType Type);

} // namespace libsplit::test
