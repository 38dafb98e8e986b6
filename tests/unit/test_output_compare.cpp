#include "output_compare.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace libsplit::test;

template <typename T> static std::vector<std::uint8_t> bytesOf(const std::vector<T> &Values) {
  std::vector<std::uint8_t> Bytes(Values.size() * sizeof(T));
  std::memcpy(Bytes.data(), Values.data(), Bytes.size());
  return Bytes;
}

TEST_CASE("identical outputs are identical", "[compare]") {
  auto A = bytesOf(std::vector<float>{1.0f, 2.0f, 3.0f});
  CompareResult R = compareOutputs(A, A, ElementType::F32, 0.0);
  CHECK(R.Identical);
  CHECK(R.WithinTolerance);
  CHECK(R.Elements == 3);
}

TEST_CASE("a small float difference is within a tolerance but not identical", "[compare]") {
  auto A = bytesOf(std::vector<float>{1.0f, 2.0f, 3.0f});
  auto B = bytesOf(std::vector<float>{1.0f, std::nextafter(2.0f, 3.0f), 3.0f});
  CompareResult R = compareOutputs(A, B, ElementType::F32, 1e-6);
  CHECK_FALSE(R.Identical);
  CHECK(R.WithinTolerance);
  CHECK(R.Differing == 1);
  CHECK(R.FirstDifference == 1);
  CHECK_FALSE(compareOutputs(A, B, ElementType::F32, 0.0).WithinTolerance);
}

TEST_CASE("NaN where a number was expected is never within tolerance", "[compare]") {
  auto A = bytesOf(std::vector<float>{1.0f, 2.0f});
  auto B = bytesOf(std::vector<float>{1.0f, std::nanf("")});
  CHECK_FALSE(compareOutputs(A, B, ElementType::F32, 1e9).WithinTolerance);
}

TEST_CASE("integers must match exactly whatever the tolerance", "[compare]") {
  auto A = bytesOf(std::vector<std::int32_t>{10, 20});
  auto B = bytesOf(std::vector<std::int32_t>{10, 21});
  CHECK_FALSE(compareOutputs(A, B, ElementType::I32, 0.5).WithinTolerance);
}

TEST_CASE("outputs of different sizes cannot be compared", "[compare]") {
  auto A = bytesOf(std::vector<double>{1.0, 2.0});
  auto B = bytesOf(std::vector<double>{1.0});
  CompareResult R = compareOutputs(A, B, ElementType::F64, 1.0);
  CHECK_FALSE(R.Problem.empty());
  CHECK_FALSE(R.WithinTolerance);
  CHECK_FALSE(R.Identical);
}

TEST_CASE("a normwise tolerance scales errors by the largest expected magnitude", "[compare]") {
  // A covariance-like output: one large entry, one near zero that differs by 2% of itself.
  auto A = bytesOf(std::vector<float>{100.0f, 0.001f});
  auto B = bytesOf(std::vector<float>{100.0f, 0.00102f});
  Tolerance Elementwise, Normwise;
  REQUIRE(parseTolerance("1e-4", Elementwise));
  REQUIRE(parseTolerance("1e-4@norm", Normwise));
  CHECK_FALSE(Elementwise.Normwise);
  CHECK(Normwise.Normwise);
  CHECK(Normwise.Value == Approx(1e-4));
  CHECK_FALSE(compareOutputs(A, B, ElementType::F32, Elementwise).WithinTolerance);
  CompareResult R = compareOutputs(A, B, ElementType::F32, Normwise);
  CHECK(R.WithinTolerance);
  CHECK(R.MaxRelativeError == Approx(2e-7).epsilon(0.01));
  // A large entry off by more than 1e-4 of the largest magnitude still fails.
  auto C = bytesOf(std::vector<float>{100.1f, 0.001f});
  CHECK_FALSE(compareOutputs(A, C, ElementType::F32, Normwise).WithinTolerance);
  // NaN is never within tolerance.
  auto D = bytesOf(std::vector<float>{100.0f, std::nanf("")});
  CHECK_FALSE(compareOutputs(A, D, ElementType::F32, Normwise).WithinTolerance);
}

TEST_CASE("malformed tolerances are refused", "[compare]") {
  Tolerance T;
  for (const char *Bad : {"", "x", "1e-4@", "1e-4@max", "-1", "nan", "@norm", "1e-4 "})
    CHECK_FALSE(parseTolerance(Bad, T));
  CHECK(parseTolerance("0", T));
  CHECK(T.Value == 0.0);
}
