// Files of libsplit's cache directory (LIBSPLIT_CACHE_DIR): reading, writing so that a reader in
// another process never sees half a file, and the hash that names entries.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace libsplit {

// 64-bit FNV-1a of Bytes, continued from Hash, with the length mixed in.
std::uint64_t fnv1a(std::uint64_t Hash, std::string_view Bytes);
constexpr std::uint64_t Fnv1aStart = 14695981039346656037ull;

bool readFile(const std::string &Path, std::string &Text);
// Writes a temporary file next to Path, then renames it over Path.
bool writeFileAtomically(const std::string &Path, const std::string &Text);
void makeDirectories(const std::string &Path);
// Makes Path's directories; whether this process may then write into it (not on a read-only
// home, for example).
bool writableDirectory(const std::string &Path);

// A directory of its own under TMPDIR (else /tmp), for files that are not to be kept: removed,
// with whatever is left in it, when the object goes. Empty path where none could be made.
class ScratchDirectory {
public:
  ScratchDirectory();
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

} // namespace libsplit
