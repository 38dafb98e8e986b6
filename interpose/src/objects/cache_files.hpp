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

} // namespace libsplit
