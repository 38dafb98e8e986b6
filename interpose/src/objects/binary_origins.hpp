// Where a program binary the app saved came from, so that a program it creates from that binary
// later (an app that caches its builds) splits like one created from source. When the app reads
// the binaries of a program it built from source (clGetProgramInfo(CL_PROGRAM_BINARIES)),
// libsplit records each binary with that source and the build's options in its cache directory;
// clCreateProgramWithBinary looks the bytes up. A record holds the whole binary and matches only
// the same bytes, never a hash alone: a wrong match would run another program's kernels.
#pragma once

#include "config/log.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace libsplit {

struct BinaryOrigin {
  std::string Source;  // the app's sources, concatenated as clCreateProgramWithSource does
  std::string Options; // the build options the binary was made with
};

// The records live under CacheDir (LIBSPLIT_CACHE_DIR). Records nothing for a source with
// #include: the files it names may differ by the time the binary comes back (another working
// directory, an edited header); a record that cannot be written is logged once to Log.
void recordBinaryOrigin(const unsigned char *Binary, std::size_t Size, const BinaryOrigin &Origin,
                        const std::string &CacheDir, config::Logger &Log);
std::optional<BinaryOrigin> findBinaryOrigin(const unsigned char *Binary, std::size_t Size,
                                             const std::string &CacheDir);

} // namespace libsplit
