// Numbers, case and JSON strings as the trace, the timeline, the tuning files and the messages
// write them: the same text whatever locale the app installed.
#include "libsplit/support/json.hpp"
#include "libsplit/support/text.hpp"

#include <catch2/catch.hpp>

#include <locale>
#include <sstream>

using namespace libsplit::support;

namespace {
// A locale like de_DE's numbers (decimal comma, dots between thousands), made here: the machine
// need not have it installed.
struct CommaNumbers : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

// Installs a locale for the scope of a test, as an app may for its whole run.
class GlobalLocale {
public:
  explicit GlobalLocale(const std::locale &L) : Previous(std::locale::global(L)) {}
  ~GlobalLocale() { std::locale::global(Previous); }

private:
  std::locale Previous;
};
} // namespace

TEST_CASE("numbers read back the same and ignore the app's locale", "[support]") {
  const GlobalLocale Comma(std::locale(std::locale::classic(), new CommaNumbers));
  std::ostringstream Shown; // what an iostream would write under that locale
  Shown << 1024.5;
  REQUIRE(Shown.str() == "1.024,5"); // the locale is in effect
  CHECK(formatNumber(1024.5) == "1024.5");
  CHECK(formatNumber(0.1) == "0.1");
  CHECK(formatNumber(1e-9) == "1e-09");
  CHECK(std::stod(formatNumber(0.012506082)) == 0.012506082);
  CHECK(formatFixed(1024.5, 3) == "1024.500");
  CHECK(formatFixed(0.04, 1) == "0.0");
  CHECK(formatFixed(2.25, 1) == "2.2"); // round half to even, as printf
}

TEST_CASE("numbers are read whole, with a decimal point whatever the locale", "[support]") {
  const GlobalLocale Comma(std::locale(std::locale::classic(), new CommaNumbers));
  double Value = 0.0;
  CHECK(parseNumber("0.5", Value));
  CHECK(Value == 0.5);
  CHECK(parseNumber(formatNumber(0.012506082), Value));
  CHECK(Value == 0.012506082);
  CHECK(parseNumber("1e-09", Value));
  CHECK(Value == 1e-9);
  CHECK_FALSE(parseNumber("", Value));
  CHECK_FALSE(parseNumber("0,5", Value));
  CHECK_FALSE(parseNumber("0.5s", Value));
  CHECK_FALSE(parseNumber(" 1", Value));
}

TEST_CASE("ASCII lower case only", "[support]") {
  CHECK(lowerAscii("NVIDIA H200") == "nvidia h200");
  CHECK(lowerAscii("pthread-Skylake") == "pthread-skylake");
  CHECK(lowerAscii("\xc3\x89") == "\xc3\x89"); // bytes of a non-ASCII letter left alone
}

TEST_CASE("JSON strings escape quotes, backslashes and control characters", "[support]") {
  CHECK(jsonString("plain") == "\"plain\"");
  CHECK(jsonString("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(jsonString("tab\there\nline") == "\"tab\\u0009here\\u000aline\"");
  CHECK(jsonString(std::string_view("nul\0end", 7)) == "\"nul\\u0000end\"");
  std::string Out = "[";
  appendJsonString(Out, "x");
  CHECK(Out == "[\"x\"");
}
