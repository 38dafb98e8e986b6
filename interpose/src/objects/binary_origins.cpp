#include "binary_origins.hpp"

#include "cache_files.hpp"

#include <cstdio>
#include <sstream>
#include <string_view>

namespace libsplit {

namespace {

constexpr std::string_view Magic = "libsplit-binary-origin 1\n";

std::string recordPath(const std::string &CacheDir, std::string_view Binary) {
  char Name[64];
  std::snprintf(Name, sizeof(Name), "/%016llx-%zu.origin",
                static_cast<unsigned long long>(fnv1a(Fnv1aStart, Binary)), Binary.size());
  return CacheDir + "/binaries" + Name;
}

// Magic, a line "binary-bytes source-bytes options-bytes", then the three, back to back.
std::string encode(std::string_view Binary, const BinaryOrigin &Origin) {
  std::string Text(Magic);
  Text += std::to_string(Binary.size()) + " " + std::to_string(Origin.Source.size()) + " " +
          std::to_string(Origin.Options.size()) + "\n";
  Text += Binary;
  Text += Origin.Source;
  Text += Origin.Options;
  return Text;
}

std::optional<BinaryOrigin> decode(const std::string &Text, std::string_view Binary) {
  if (Text.compare(0, Magic.size(), Magic) != 0)
    return std::nullopt;
  const std::size_t LineEnd = Text.find('\n', Magic.size());
  if (LineEnd == std::string::npos)
    return std::nullopt;
  std::istringstream Sizes(Text.substr(Magic.size(), LineEnd - Magic.size()));
  std::size_t BinaryBytes = 0, SourceBytes = 0, OptionBytes = 0;
  if (!(Sizes >> BinaryBytes >> SourceBytes >> OptionBytes) ||
      Text.size() - (LineEnd + 1) != BinaryBytes + SourceBytes + OptionBytes ||
      BinaryBytes != Binary.size() || Text.compare(LineEnd + 1, BinaryBytes, Binary) != 0)
    return std::nullopt;
  BinaryOrigin Origin;
  Origin.Source = Text.substr(LineEnd + 1 + BinaryBytes, SourceBytes);
  Origin.Options = Text.substr(LineEnd + 1 + BinaryBytes + SourceBytes, OptionBytes);
  return Origin;
}

} // namespace

void recordBinaryOrigin(const unsigned char *Binary, std::size_t Size, const BinaryOrigin &Origin,
                        const std::string &CacheDir, config::Logger &Log) {
  if (!Binary || Size == 0 || CacheDir.empty() ||
      Origin.Source.find("#include") != std::string::npos)
    return;
  const std::string_view Bytes(reinterpret_cast<const char *>(Binary), Size);
  const std::string Path = recordPath(CacheDir, Bytes);
  std::string Existing;
  if (readFile(Path, Existing) && decode(Existing, Bytes))
    return;
  makeDirectories(CacheDir + "/binaries");
  if (!writeFileAtomically(Path, encode(Bytes, Origin)))
    Log.once("binary-origin-write", config::LogLevel::Info,
             "cannot record a program binary's source in ", Path,
             ": a program created from it will run unsplit");
}

std::optional<BinaryOrigin> findBinaryOrigin(const unsigned char *Binary, std::size_t Size,
                                             const std::string &CacheDir) {
  if (!Binary || Size == 0 || CacheDir.empty())
    return std::nullopt;
  const std::string_view Bytes(reinterpret_cast<const char *>(Binary), Size);
  std::string Text;
  if (!readFile(recordPath(CacheDir, Bytes), Text))
    return std::nullopt;
  return decode(Text, Bytes);
}

} // namespace libsplit
