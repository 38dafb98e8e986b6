// libsplit-cc never crashes on bad input (tests/regions/README.md).
//
//   regions_robustness <libsplit-cc> <robustness dir> <corpus dir> <work dir>
//
// Runs the tool with --summary and --explain on every file of the robustness directory
// (broken and unusual sources), with malformed build options, and on mutants of the corpus
// (lines deleted, duplicated, swapped, characters inserted: fixed seeds). Each run must end
// with status 0 (the summary then parses) or 1 (does not compile), never a signal, and the
// files known to compile or not must do so.
#include "libsplit/analysis/summary_text.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> filesIn(const std::string &Directory) {
  std::vector<std::string> Names;
  if (DIR *D = opendir(Directory.c_str())) {
    while (dirent *Entry = readdir(D)) {
      const std::string Name = Entry->d_name;
      if (Name.size() > 3 && Name.compare(Name.size() - 3, 3, ".cl") == 0)
        Names.push_back(Name);
    }
    closedir(D);
  }
  std::sort(Names.begin(), Names.end());
  return Names;
}

std::string readFile(const std::string &Path) {
  std::ifstream File(Path, std::ios::binary);
  std::stringstream Text;
  Text << File.rdbuf();
  return Text.str();
}

/// Runs the tool; returns its exit status, or -signal.
int runTool(const std::vector<std::string> &Args) {
  const pid_t Child = fork();
  if (Child == 0) {
    const int Null = open("/dev/null", O_WRONLY);
    dup2(Null, 1);
    dup2(Null, 2);
    std::vector<char *> Argv;
    for (const std::string &Arg : Args)
      Argv.push_back(const_cast<char *>(Arg.c_str()));
    Argv.push_back(nullptr);
    execv(Argv[0], Argv.data());
    _exit(127);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  return WIFSIGNALED(Status) ? -WTERMSIG(Status) : WEXITSTATUS(Status);
}

struct Runner {
  std::string Tool, Work;
  int Runs = 0, Failures = 0;

  /// Checks one run on \p Input; \p Expected is 0, 1 or -1 (either).
  void check(const std::string &Label, const std::string &Input, const std::string &Options,
             int Expected) {
    const std::string Summary = Work + "/robustness.summary";
    std::remove(Summary.c_str());
    const int Status =
        runTool({Tool, Input, "--summary", Summary, "--explain", "--build-options", Options});
    ++Runs;
    std::string Problem;
    if (Status < 0)
      Problem = "killed by signal " + std::to_string(-Status);
    else if (Status != 0 && Status != 1)
      Problem = "exit status " + std::to_string(Status);
    else if (Expected >= 0 && Status != Expected)
      Problem = "exit status " + std::to_string(Status) + ", expected " + std::to_string(Expected);
    else if (Status == 0) {
      libsplit::analysis::ProgramSummary Parsed;
      std::string Error;
      if (!libsplit::analysis::parseSummary(readFile(Summary), Parsed, Error))
        Problem = "the summary does not parse: " + Error;
    }
    if (!Problem.empty()) {
      ++Failures;
      std::cout << "FAIL " << Label << ": " << Problem << "\n";
    }
  }
};

/// A copy of \p Text with one random edit.
std::string mutate(const std::string &Text, std::mt19937 &Random) {
  std::vector<std::string> Lines;
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);)
    Lines.push_back(Line);
  if (Lines.empty())
    return Text;
  auto Pick = [&](std::size_t N) { return static_cast<std::size_t>(Random() % N); };
  std::string Out;
  switch (Random() % 5) {
  case 0: // delete a line
    Lines.erase(Lines.begin() + static_cast<long>(Pick(Lines.size())));
    break;
  case 1: // duplicate a line
    Lines.insert(Lines.begin() + static_cast<long>(Pick(Lines.size())), Lines[Pick(Lines.size())]);
    break;
  case 2: // swap two lines
    std::swap(Lines[Pick(Lines.size())], Lines[Pick(Lines.size())]);
    break;
  case 3: { // insert punctuation
    std::string &Line = Lines[Pick(Lines.size())];
    const char *Noise = "{}()[];*&+-<>=!~,\"'#\\";
    Line.insert(Pick(Line.size() + 1), 1, Noise[Pick(20)]);
    break;
  }
  default: { // change a digit or a letter
    std::string &Line = Lines[Pick(Lines.size())];
    if (!Line.empty())
      Line[Pick(Line.size())] = static_cast<char>("0123456789xyzi"[Pick(14)]);
    break;
  }
  }
  for (const std::string &Line : Lines)
    Out += Line + "\n";
  return Out;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 5) {
    std::cerr << "usage: regions_robustness <libsplit-cc> <robustness dir> <corpus dir> "
                 "<work dir>\n";
    return 2;
  }
  Runner Run{Argv[1], Argv[4]};
  const std::string Robustness = Argv[2], Corpus = Argv[3];
  // What each broken or unusual file must give (others: either).
  const std::map<std::string, int> Expected = {{"syntax_error.cl", 1}, {"unknown_type.cl", 1},
                                               {"unterminated.cl", 1}, {"binary.cl", 1},
                                               {"empty.cl", 0},        {"no_kernels.cl", 0},
                                               {"recursion.cl", 0},    {"huge_expression.cl", 0},
                                               {"many_args.cl", 0},    {"odd_control.cl", 0}};
  for (const std::string &Name : filesIn(Robustness)) {
    auto Found = Expected.find(Name);
    Run.check(Name, Robustness + "/" + Name, "", Found == Expected.end() ? -1 : Found->second);
  }
  const std::string Stencils = Corpus + "/stencils.cl";
  Run.check("bad -cl-std", Stencils, "-cl-std=CL9.9", 1);
  Run.check("dangling -D", Stencils, "-D", 0);
  Run.check("missing -I directory", Stencils, "-I /nonexistent/dir -DX=1", 0);
  Run.check("C++ for OpenCL", Stencils, "-cl-std=CLC++", -1);
  Run.check("quotes", Stencils, "-DNAME=\"a b\" '-DX=1", -1);

  std::mt19937 Random(20240601u);
  const int MutantsPerFile = 4;
  for (const std::string &Name : filesIn(Corpus)) {
    const std::string Text = readFile(Corpus + "/" + Name);
    for (int I = 0; I < MutantsPerFile; ++I) {
      std::string Mutant = mutate(Text, Random);
      if (I % 2)
        Mutant = mutate(Mutant, Random);
      const std::string Path = Run.Work + "/mutant.cl";
      std::ofstream(Path, std::ios::binary) << Mutant;
      Run.check(Name + " mutant " + std::to_string(I), Path, "", -1);
    }
  }
  std::cout << Run.Runs << " runs, " << Run.Failures << " failures\n";
  return Run.Failures == 0 ? 0 : 1;
}
