#include "output_compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace libsplit::test {

bool parseElementType(const std::string &Name, ElementType &Type) {
  if (Name == "f32")
    Type = ElementType::F32;
  else if (Name == "f64")
    Type = ElementType::F64;
  else if (Name == "i32")
    Type = ElementType::I32;
  else if (Name == "u32")
    Type = ElementType::U32;
  else
    return false;
  return true;
}

static std::size_t elementSize(ElementType Type) { return Type == ElementType::F64 ? 8 : 4; }

static double elementAt(const std::vector<std::uint8_t> &Bytes, std::size_t Index,
                        ElementType Type) {
  const std::uint8_t *At = Bytes.data() + Index * elementSize(Type);
  switch (Type) {
  case ElementType::F32: {
    float Value;
    std::memcpy(&Value, At, sizeof Value);
    return Value;
  }
  case ElementType::F64: {
    double Value;
    std::memcpy(&Value, At, sizeof Value);
    return Value;
  }
  case ElementType::I32: {
    std::int32_t Value;
    std::memcpy(&Value, At, sizeof Value);
    return Value;
  }
  case ElementType::U32: {
    std::uint32_t Value;
    std::memcpy(&Value, At, sizeof Value);
    return Value;
  }
  }
  return 0.0;
}

static double relativeError(double A, double B, ElementType Type) {
  const bool Floating = Type == ElementType::F32 || Type == ElementType::F64;
  if (!Floating || std::isnan(A) || std::isnan(B) || std::isinf(A) || std::isinf(B))
    return std::numeric_limits<double>::infinity();
  const double Scale = std::max({std::fabs(A), std::fabs(B), 1e-30});
  return std::fabs(A - B) / Scale;
}

CompareResult compareOutputs(const std::vector<std::uint8_t> &Expected,
                             const std::vector<std::uint8_t> &Actual, ElementType Type,
                             double Tolerance) {
  CompareResult Result;
  const std::size_t Size = elementSize(Type);
  if (Expected.size() != Actual.size()) {
    Result.Problem = "sizes differ: " + std::to_string(Expected.size()) + " vs " +
                     std::to_string(Actual.size()) + " bytes";
    return Result;
  }
  if (Expected.size() % Size != 0) {
    Result.Problem =
        "size " + std::to_string(Expected.size()) + " is not a whole number of elements";
    return Result;
  }
  Result.Elements = Expected.size() / Size;
  for (std::size_t I = 0; I < Result.Elements; ++I) {
    if (std::memcmp(Expected.data() + I * Size, Actual.data() + I * Size, Size) == 0)
      continue;
    if (Result.Differing++ == 0)
      Result.FirstDifference = I;
    Result.MaxRelativeError =
        std::max(Result.MaxRelativeError,
                 relativeError(elementAt(Expected, I, Type), elementAt(Actual, I, Type), Type));
  }
  Result.Identical = Result.Differing == 0;
  Result.WithinTolerance = Result.MaxRelativeError <= Tolerance;
  return Result;
}

std::string describe(const CompareResult &Result, const std::vector<std::uint8_t> &Expected,
                     const std::vector<std::uint8_t> &Actual, ElementType Type) {
  std::ostringstream Out;
  if (!Result.Problem.empty())
    return "cannot compare: " + Result.Problem;
  if (Result.Identical) {
    Out << "identical (" << Expected.size() << " bytes)";
    return Out.str();
  }
  Out.precision(9);
  Out << Result.Differing << " of " << Result.Elements << " elements differ, max relative error "
      << Result.MaxRelativeError << "; first at element " << Result.FirstDifference << ": expected "
      << elementAt(Expected, Result.FirstDifference, Type) << ", got "
      << elementAt(Actual, Result.FirstDifference, Type);
  return Out.str();
}

} // namespace libsplit::test
