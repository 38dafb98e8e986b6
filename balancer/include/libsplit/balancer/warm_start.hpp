//===- warm_start.hpp - Converged shares saved across runs ---------------===//
//
// A later run of the same application starts each key from the shares an earlier run converged
// to. The file is text, one record per line, in the directory the runtime chooses:
//
//   libsplit-balancer-warm-start 1
//   devices <signature>
//   key <kernel> <workdim> <g0>,<g1>,<g2> <l0>,<l1>,<l2> <splitdim> <share0>,<share1>,...
//
// <signature> is the caller's description of the devices (records made on other devices do not
// apply); it and <kernel> are escaped: '%' followed by two hex digits for '%', space, tab, CR,
// LF and ',', and a leading '=' so that an empty string still forms a field. Shares are written
// so that they read back to the same doubles. Lines starting with '#' and blank lines are
// ignored. Files are replaced atomically (a temporary file in the same directory, then rename).
// A file that does not parse is ignored as a whole, with an error naming the line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "libsplit/balancer/launch_key.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace libsplit::balancer {

struct WarmStartRecord {
  LaunchKey Key;
  std::vector<double> Shares; // one per device, sum 1
};

inline constexpr std::string_view WarmStartFileName = "balancer-warm-start.txt";

std::string formatWarmStart(std::string_view DeviceSignature,
                            const std::vector<WarmStartRecord> &Records);

struct WarmStartLoad {
  std::vector<WarmStartRecord> Records;
  bool Found = false; // the file existed
  std::string Error;  // non-empty: the file was ignored, this says why
};

// Parses formatWarmStart's output; Origin names the text in error messages.
WarmStartLoad parseWarmStart(std::string_view Text, std::string_view DeviceSignature,
                             std::string_view Origin);

// Returns an error message, empty on success.
std::string saveWarmStart(const std::filesystem::path &Directory, std::string_view DeviceSignature,
                          const std::vector<WarmStartRecord> &Records);
WarmStartLoad loadWarmStart(const std::filesystem::path &Directory,
                            std::string_view DeviceSignature);

} // namespace libsplit::balancer
