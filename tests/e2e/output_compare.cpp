#include "output_compare.hpp"

#include <cstdlib>

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

bool parseTolerance(const std::string &Text, Tolerance &Out) {
  static const std::string Norm = "@norm";
  std::string Number = Text;
  Out.Normwise =
      Text.size() > Norm.size() && Text.compare(Text.size() - Norm.size(), Norm.size(), Norm) == 0;
  if (Out.Normwise)
    Number.resize(Text.size() - Norm.size());
  char *End = nullptr;
  Out.Value = std::strtod(Number.c_str(), &End);
  return !Number.empty() && End && *End == '\0' && std::isfinite(Out.Value) && Out.Value >= 0.0;
}

CompareResult compareOutputs(const std::vector<std::uint8_t> &Expected,
                             const std::vector<std::uint8_t> &Actual, ElementType Type,
                             double Tolerance) {
  return compareOutputs(Expected, Actual, Type, {Tolerance, false});
}

CompareResult compareOutputs(const std::vector<std::uint8_t> &Expected,
                             const std::vector<std::uint8_t> &Actual, ElementType Type,
                             const Tolerance &Bound) {
  CompareResult Result;
  Result.Normwise = Bound.Normwise;
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
  double Largest = 0.0;
  if (Bound.Normwise)
    for (std::size_t I = 0; I < Result.Elements; ++I) {
      const double Value = std::fabs(elementAt(Expected, I, Type));
      if (std::isfinite(Value))
        Largest = std::max(Largest, Value);
    }
  for (std::size_t I = 0; I < Result.Elements; ++I) {
    if (std::memcmp(Expected.data() + I * Size, Actual.data() + I * Size, Size) == 0)
      continue;
    if (Result.Differing++ == 0)
      Result.FirstDifference = I;
    const double A = elementAt(Expected, I, Type), B = elementAt(Actual, I, Type);
    double Error = relativeError(A, B, Type);
    if (Bound.Normwise && std::isfinite(Error))
      Error = std::fabs(A - B) / std::max(Largest, 1e-30);
    Result.MaxRelativeError = std::max(Result.MaxRelativeError, Error);
  }
  Result.Identical = Result.Differing == 0;
  Result.WithinTolerance = Result.MaxRelativeError <= Bound.Value;
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
      << Result.MaxRelativeError << (Result.Normwise ? " (of the largest magnitude)" : "")
      << "; first at element " << Result.FirstDifference << ": expected "
      << elementAt(Expected, Result.FirstDifference, Type) << ", got "
      << elementAt(Actual, Result.FirstDifference, Type);
  return Out.str();
}

} // namespace libsplit::test
