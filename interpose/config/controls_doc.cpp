//===- controls_doc.cpp - libsplit-controls-doc: docs/controls.md ---------===//
//
// Prints docs/controls.md as generated from controls.def, writes it (--output FILE), or checks
// that the committed file is current (--check FILE, the ctest test docs.controls).
//
//===----------------------------------------------------------------------===//
#include "config/config.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

const char *Usage = "usage: libsplit-controls-doc [--output FILE | --check FILE]\n";

int check(const std::string &Path, const std::string &Expected) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Actual;
  Actual << In.rdbuf();
  if (In && Actual.str() == Expected)
    return 0;
  std::cerr << "libsplit: error: " << Path
            << (In ? " is out of date with interpose/config/controls.def" : " cannot be read")
            << "; regenerate it with\n"
               "  cmake --build <build-dir> --target libsplit-update-controls-doc\n";
  // Show the first difference, so that a stale file is easy to see in the test log.
  std::istringstream Want(Expected), Have(Actual.str());
  std::string WantLine, HaveLine;
  for (unsigned Line = 1;; ++Line) {
    bool MoreWant = static_cast<bool>(std::getline(Want, WantLine));
    bool MoreHave = static_cast<bool>(std::getline(Have, HaveLine));
    if (!MoreWant && !MoreHave)
      break;
    if (MoreWant != MoreHave || WantLine != HaveLine) {
      std::cerr << "first difference at line " << Line
                << ":\n  expected: " << (MoreWant ? WantLine : "(end of file)")
                << "\n  found:    " << (MoreHave ? HaveLine : "(end of file)") << "\n";
      break;
    }
  }
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Markdown = libsplit::config::controlsMarkdown();
  if (Argc == 1) {
    std::cout << Markdown;
    return std::cout ? 0 : 1;
  }
  if (Argc == 3 && std::string_view(Argv[1]) == "--check")
    return check(Argv[2], Markdown);
  if (Argc == 3 && std::string_view(Argv[1]) == "--output") {
    std::ofstream Out(Argv[2], std::ios::binary | std::ios::trunc);
    Out << Markdown;
    if (Out.flush())
      return 0;
    std::cerr << "libsplit: error: cannot write " << Argv[2] << "\n";
    return 1;
  }
  std::cerr << Usage;
  return 2;
}
