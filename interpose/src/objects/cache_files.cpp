#include "cache_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace libsplit {

std::uint64_t fnv1a(std::uint64_t Hash, std::string_view Bytes) {
  for (unsigned char C : Bytes) {
    Hash ^= C;
    Hash *= 1099511628211ull;
  }
  return Hash ^ Bytes.size();
}

bool readFile(const std::string &Path, std::string &Text) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  Text = Buffer.str();
  return true;
}

bool writeFileAtomically(const std::string &Path, const std::string &Text) {
  const std::string Temporary = Path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream Out(Temporary, std::ios::binary);
    if (!Out.write(Text.data(), static_cast<std::streamsize>(Text.size())))
      return false;
  }
  return std::rename(Temporary.c_str(), Path.c_str()) == 0;
}

void makeDirectories(const std::string &Path) {
  for (std::size_t Slash = Path.find('/', 1); Slash != std::string::npos;
       Slash = Path.find('/', Slash + 1))
    mkdir(Path.substr(0, Slash).c_str(), 0755);
  mkdir(Path.c_str(), 0755);
}

bool writableDirectory(const std::string &Path) {
  makeDirectories(Path);
  return access(Path.c_str(), W_OK | X_OK) == 0;
}

ScratchDirectory::ScratchDirectory() {
  // TMPDIR where it is an absolute path that takes one, else /tmp.
  const char *Temporary = std::getenv("TMPDIR");
  for (const std::string &Parent :
       {std::string(Temporary && Temporary[0] == '/' ? Temporary : ""), std::string("/tmp")}) {
    if (Parent.empty())
      continue;
    std::string Template = Parent + "/libsplit-XXXXXX";
    std::vector<char> Name(Template.begin(), Template.end());
    Name.push_back('\0');
    if (mkdtemp(Name.data())) {
      Path = Name.data();
      return;
    }
  }
}

ScratchDirectory::~ScratchDirectory() {
  if (Path.empty())
    return;
  try {
    std::error_code Ignored;
    std::filesystem::remove_all(Path, Ignored);
  } catch (...) {
    // Out of memory while listing it: the directory stays, the app goes on.
  }
}

} // namespace libsplit
