//===- text.hpp - Numbers and case without the app's locale ----------------===//
#pragma once

#include <charconv>
#include <string>
#include <string_view>

namespace libsplit::support {

// The shortest text that reads back to the same double. std::to_chars ignores the locale the app
// may have set, which printf, strtod and iostreams follow.
inline std::string formatNumber(double Value) {
  char Buffer[64];
  auto [End, Error] = std::to_chars(Buffer, Buffer + sizeof(Buffer), Value);
  return Error == std::errc() ? std::string(Buffer, End) : std::string("nan");
}

// Value with Digits digits after the point (as printf's "%.*f", whatever the locale).
inline std::string formatFixed(double Value, int Digits) {
  char Buffer[352]; // the longest double in fixed notation, with its digits after the point
  auto [End, Error] =
      std::to_chars(Buffer, Buffer + sizeof(Buffer), Value, std::chars_format::fixed, Digits);
  return Error == std::errc() ? std::string(Buffer, End) : std::string("nan");
}

// Text as a whole read as a double, whatever the locale (strtod would stop at the '.' of "0.5"
// in a locale whose decimal point is ','); false for empty text or anything after the number.
inline bool parseNumber(std::string_view Text, double &Out) {
  const char *End = Text.data() + Text.size();
  auto [Stop, Error] = std::from_chars(Text.data(), End, Out);
  return !Text.empty() && Error == std::errc() && Stop == End;
}

// ASCII lower case: std::tolower follows the app's locale, and keywords and names compared here
// are ASCII.
inline char lowerAscii(char C) {
  return C >= 'A' && C <= 'Z' ? static_cast<char>(C - 'A' + 'a') : C;
}

inline std::string lowerAscii(std::string_view Text) {
  std::string Out(Text);
  for (char &C : Out)
    C = lowerAscii(C);
  return Out;
}

} // namespace libsplit::support
