//===- json.hpp - JSON strings, one escaping rule --------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace libsplit::support {

// Text as a JSON string: quotes and backslashes escaped, control characters as \u00XX (kept, so
// that a name with a tab still reads back as it was).
inline void appendJsonString(std::string &Out, std::string_view Text) {
  static constexpr char Hex[] = "0123456789abcdef";
  Out += '"';
  for (char C : Text) {
    const auto Byte = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (Byte < 0x20) {
      Out += "\\u00";
      Out += Hex[Byte >> 4];
      Out += Hex[Byte & 0xf];
    } else {
      Out += C;
    }
  }
  Out += '"';
}

inline std::string jsonString(std::string_view Text) {
  std::string Out;
  appendJsonString(Out, Text);
  return Out;
}

} // namespace libsplit::support
