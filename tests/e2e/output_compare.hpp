// Compares two raw output files element by element: the verdict of every end-to-end test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace libsplit::test {

enum class ElementType { F32, F64, I32, U32 };

bool parseElementType(const std::string &Name, ElementType &Type);

struct CompareResult {
  bool Identical = false;       // byte for byte
  bool WithinTolerance = false; // every element within the relative tolerance
  std::size_t Elements = 0;     // elements compared (when the sizes agree)
  std::size_t Differing = 0;    // elements whose bytes differ
  std::size_t FirstDifference = 0;
  double MaxRelativeError = 0.0; // over differing elements; NaN vs number counts as infinite
  std::string Problem;           // non-empty when the files cannot be compared (size, type)
};

// Relative error of element i is |a-b| / max(|a|, |b|, tiny); integers must match exactly.
CompareResult compareOutputs(const std::vector<std::uint8_t> &Expected,
                             const std::vector<std::uint8_t> &Actual, ElementType Type,
                             double Tolerance);

std::string describe(const CompareResult &Result, const std::vector<std::uint8_t> &Expected,
                     const std::vector<std::uint8_t> &Actual, ElementType Type);

} // namespace libsplit::test
