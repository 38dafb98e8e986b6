//===- OpenCLNames.cpp - OpenCL builtins as Clang names them in the IR ----===//

#include "OpenCLNames.h"

#include <cctype>

namespace libsplit::regions {

namespace {

/// Reads a decimal number at the front of \p Text.
bool takeNumber(llvm::StringRef &Text, unsigned &Value) {
  std::size_t Digits = 0;
  while (Digits < Text.size() && std::isdigit(static_cast<unsigned char>(Text[Digits])))
    ++Digits;
  if (Digits == 0 || Text.substr(0, Digits).getAsInteger(10, Value))
    return false;
  Text = Text.drop_front(Digits);
  return true;
}

/// The name part and the parameter part of `_Z<length><name><parameters>`.
bool splitMangled(llvm::StringRef Symbol, llvm::StringRef &Name, llvm::StringRef &Params) {
  if (!Symbol.consume_front("_Z"))
    return false;
  unsigned Length = 0;
  if (!takeNumber(Symbol, Length) || Length > Symbol.size())
    return false;
  Name = Symbol.take_front(Length);
  Params = Symbol.drop_front(Length);
  return true;
}

std::optional<std::uint64_t> builtinTypeSize(char Code) {
  switch (Code) {
  case 'b': // bool
  case 'c': // char
  case 'a': // signed char
  case 'h': // unsigned char
    return 1;
  case 's':
  case 't':
    return 2;
  case 'i':
  case 'j':
  case 'f':
    return 4;
  case 'l':
  case 'm':
  case 'x':
  case 'y':
  case 'd':
    return 8;
  default:
    return std::nullopt;
  }
}

/// Skips one type at the front of \p Text, returning its size in bytes when it
/// is a scalar or vector (pointers: 8, unknown: nullopt).
bool skipType(llvm::StringRef &Text, std::optional<std::uint64_t> &Size) {
  Size.reset();
  if (Text.empty())
    return false;
  if (Text.consume_front("Dh")) { // half
    Size = 2;
    return true;
  }
  if (Text.consume_front("Dv")) { // Dv<N>_<element>
    unsigned Lanes = 0;
    std::optional<std::uint64_t> Element;
    if (!takeNumber(Text, Lanes) || !Text.consume_front("_") || !skipType(Text, Element))
      return false;
    if (Element)
      Size = *Element * (Lanes == 3 ? 4 : Lanes); // 3-element vectors take 4 slots
    return true;
  }
  if (Text.consume_front("P")) {
    std::optional<std::uint64_t> Pointee;
    if (!skipType(Text, Pointee))
      return false;
    Size = 8;
    return true;
  }
  if (Text.consume_front("U")) { // vendor qualifier: U<length><name>, e.g. U3AS1
    unsigned Length = 0;
    if (!takeNumber(Text, Length) || Length > Text.size())
      return false;
    Text = Text.drop_front(Length);
    return skipType(Text, Size);
  }
  if (Text.consume_front("K") || Text.consume_front("V"))
    return skipType(Text, Size);
  if (std::isdigit(static_cast<unsigned char>(Text.front()))) { // a source name: ocl_event
    unsigned Length = 0;
    if (!takeNumber(Text, Length) || Length > Text.size())
      return false;
    Text = Text.drop_front(Length);
    return true;
  }
  if (Text.front() == 'S') // substitution: the type is not spelled out here
    return false;
  Size = builtinTypeSize(Text.front());
  Text = Text.drop_front(); // an unknown code leaves Size empty
  return true;
}

/// The mangled pointee type of pointer parameter \p Index of \p Symbol, qualifiers (const,
/// volatile, address spaces, _Atomic) skipped: "i..." for `volatile __global int *`.
std::optional<llvm::StringRef> mangledPointee(llvm::StringRef Symbol, unsigned Index) {
  llvm::StringRef Name, Params;
  if (!splitMangled(Symbol, Name, Params))
    return std::nullopt;
  for (unsigned I = 0; I < Index; ++I) {
    std::optional<std::uint64_t> Ignored;
    if (!skipType(Params, Ignored))
      return std::nullopt;
  }
  if (!Params.consume_front("P"))
    return std::nullopt;
  while (true) {
    if (Params.consume_front("K") || Params.consume_front("V"))
      continue;
    if (Params.startswith("U")) {
      Params = Params.drop_front();
      unsigned Length = 0;
      if (!takeNumber(Params, Length) || Length > Params.size())
        return std::nullopt;
      Params = Params.drop_front(Length);
      continue;
    }
    break;
  }
  if (Params.empty() || Params.startswith("P"))
    return std::nullopt;
  return Params;
}

} // namespace

llvm::StringRef sourceName(llvm::StringRef Symbol) {
  llvm::StringRef Name, Params;
  if (splitMangled(Symbol, Name, Params))
    return Name;
  return Symbol;
}

std::optional<std::uint64_t> mangledPointeeSize(llvm::StringRef Symbol, unsigned Index) {
  std::optional<llvm::StringRef> Pointee = mangledPointee(Symbol, Index);
  std::optional<std::uint64_t> Size;
  if (!Pointee || !skipType(*Pointee, Size))
    return std::nullopt;
  return Size;
}

std::optional<char> mangledPointeeScalar(llvm::StringRef Symbol, unsigned Index) {
  std::optional<llvm::StringRef> Pointee = mangledPointee(Symbol, Index);
  if (!Pointee || !builtinTypeSize(Pointee->front()))
    return std::nullopt;
  return Pointee->front();
}

} // namespace libsplit::regions
