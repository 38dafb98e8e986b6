// Execution equivalence of the partition-ready kernels (pass/README.md):
// for one case of EquivalenceCases.cpp, the app's kernel runs once over the
// app's NDRange; then the partition-ready kernel made by libsplit-cc runs as
// 1, 2, 3 and 7 slices of whole work-groups along every dimension, each slice
// launched with global offset = app offset + first group * local size, on
// fresh sentinel-filled buffers. Every output must be byte-identical, including
// the slack after each output buffer (no write out of range).
//
// Usage: pass_equivalence <libsplit-cc> <kernels dir> <work dir> <case>

#include "EquivalenceCases.h"
#include "KernelList.h"
#include "OpenCLRunner.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace libsplit::test;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::ostringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

std::string shellQuote(const std::string &Word) {
  std::string Quoted = "'";
  for (char C : Word)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

std::vector<std::string> expandOptions(const EquivalenceCase &Case, const std::string &Kernels) {
  std::vector<std::string> Options;
  for (std::string Option : Case.Options) {
    size_t At = Option.find("@KERNELS@");
    if (At != std::string::npos)
      Option.replace(At, 9, Kernels);
    Options.push_back(Option);
  }
  return Options;
}

std::string joinOptions(const std::vector<std::string> &Options) {
  std::string Joined;
  for (const std::string &Option : Options)
    Joined += (Joined.empty() ? "" : " ") + Option;
  return Joined;
}

/// The slices of the app's launch along \p Dim: groups [I*N/K, (I+1)*N/K).
std::vector<Launch> slices(const EquivalenceCase &Case, unsigned Dim, size_t Count) {
  size_t Groups = Case.App.Global[Dim] / Case.App.Local[Dim];
  std::vector<Launch> Result;
  for (size_t I = 0; I < Count; ++I) {
    size_t First = I * Groups / Count, Last = (I + 1) * Groups / Count;
    if (First == Last)
      continue;
    Launch Slice = Case.App;
    Slice.Offset[Dim] = Case.App.Offset[Dim] + First * Case.App.Local[Dim];
    Slice.Global[Dim] = (Last - First) * Case.App.Local[Dim];
    Result.push_back(Slice);
  }
  return Result;
}

AppendedArgs appended(const EquivalenceCase &Case, const ListedKernel &Kernel, unsigned Dim) {
  AppendedArgs Args;
  Args.Indices = {Kernel.SplitDimIndex, Kernel.NumGroupsIndex, Kernel.SplitOriginIndex};
  Args.SplitDim = Dim;
  Args.NumGroups = Case.App.Global[Dim] / Case.App.Local[Dim];
  Args.SplitOrigin = Case.App.Offset[Dim];
  return Args;
}

/// Empty when equal; otherwise where the first difference is.
std::string compare(const std::vector<std::vector<unsigned char>> &Expected,
                    const std::vector<std::vector<unsigned char>> &Actual) {
  if (Expected.size() != Actual.size())
    return "different number of outputs";
  for (size_t B = 0; B < Expected.size(); ++B) {
    if (Expected[B].size() != Actual[B].size())
      return "output " + std::to_string(B) + " has a different size";
    for (size_t I = 0; I < Expected[B].size(); ++I)
      if (Expected[B][I] != Actual[B][I]) {
        char Where[160];
        std::snprintf(Where, sizeof(Where),
                      "output %zu differs first at byte %zu (64-bit word %zu): expected 0x%02x, "
                      "got 0x%02x",
                      B, I, I / 8, Expected[B][I], Actual[B][I]);
        return Where;
      }
  }
  return "";
}

/// A slice that did not run must be visible: the reference has to overwrite
/// the sentinel everywhere.
std::string checkCoverage(const std::vector<std::vector<unsigned char>> &Reference) {
  for (size_t B = 0; B < Reference.size(); ++B)
    for (size_t I = 0; I + 4 <= Reference[B].size() / 2; I += 4) // Not the slack.
      if (Reference[B][I] == Sentinel && Reference[B][I + 1] == Sentinel &&
          Reference[B][I + 2] == Sentinel && Reference[B][I + 3] == Sentinel)
        return "the app's kernel leaves output " + std::to_string(B) + " unwritten at byte " +
               std::to_string(I) + ": the test could not see a missing slice";
  return "";
}

int fail(const std::string &Message) {
  std::cerr << "FAIL: " << Message << "\n";
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 5) {
    std::cerr << "usage: pass_equivalence <libsplit-cc> <kernels dir> <work dir> <case>\n";
    return 2;
  }
  std::string Tool = Argv[1], Kernels = Argv[2], Work = Argv[3], Name = Argv[4];
  const EquivalenceCase *Found = nullptr;
  for (const EquivalenceCase &Case : equivalenceCases())
    if (Case.Name == Name)
      Found = &Case;
  if (!Found)
    return fail("no case named '" + Name + "'");
  const EquivalenceCase &Case = *Found;

  // 1. The partition-ready source and kernel list.
  std::vector<std::string> Options = expandOptions(Case, Kernels);
  std::string SourcePath = Work + "/" + Case.Name + ".cl";
  std::string ListPath = Work + "/" + Case.Name + ".kernels";
  std::string Command = shellQuote(Tool) + " " + shellQuote(Kernels + "/" + Case.File) + " -o " +
                        shellQuote(SourcePath) + " --kernels " + shellQuote(ListPath) + " --";
  for (const std::string &Option : Options)
    Command += " " + shellQuote(Option);
  std::cout << "$ " << Command << std::endl;
  if (std::system(Command.c_str()) != 0)
    return fail("libsplit-cc failed");
  std::string Error;
  std::optional<KernelList> List = parseKernelList(readFile(ListPath), Error);
  if (!List)
    return fail("kernel list: " + Error);
  const ListedKernel *Listed = List->find(Case.Kernel);
  if (!Listed)
    return fail("kernel '" + Case.Kernel + "' is not in the kernel list");
  if (!Listed->Splittable)
    return fail("kernel '" + Case.Kernel + "' is unsplittable: " + Listed->Reason);
  unsigned NumArgs = static_cast<unsigned>(Case.Args.size());
  if (Listed->NumArgs != NumArgs || Listed->SplitDimIndex != int(NumArgs) ||
      Listed->NumGroupsIndex != int(NumArgs + 1) || Listed->SplitOriginIndex != int(NumArgs + 2))
    return fail("kernel list gives unexpected argument indices");
  if (Listed->OffsetExact != Case.OffsetExact)
    return fail(std::string("kernel list says the kernel is ") +
                (Listed->OffsetExact ? "" : "not ") + "offset-exact");

  // 2. The app's kernel over the app's NDRange: the reference.
  OpenCLRunner Runner(Error);
  if (!Error.empty())
    return fail(Error);
  std::string BuildOptions = joinOptions(Options);
  ProgramHandle Original = Runner.build(readFile(Kernels + "/" + Case.File), BuildOptions, Error);
  if (!Original)
    return fail("original program: " + Error);
  ProgramHandle Rewritten = Runner.build(readFile(SourcePath), BuildOptions, Error);
  if (!Rewritten)
    return fail("partition-ready program: " + Error);
  auto Reference =
      Runner.run(Original.get(), Case.Kernel, Case.WorkDim, Case.Args, {Case.App}, {}, Error);
  if (!Error.empty())
    return fail("reference run: " + Error);
  if (std::string Gap = checkCoverage(Reference); !Gap.empty())
    return fail(Gap);

  // 3. The partition-ready kernel, whole and sliced along every dimension.
  int Failures = 0;
  for (unsigned Dim = 0; Dim < Case.WorkDim; ++Dim) {
    for (size_t Count : {1, 2, 3, 7}) {
      std::vector<Launch> Slices = slices(Case, Dim, Count);
      // In reverse: a slice must not depend on an earlier one having run.
      std::vector<Launch> Order(Slices.rbegin(), Slices.rend());
      std::vector<AppendedArgs> Extra(Order.size(), appended(Case, *Listed, Dim));
      auto Outputs =
          Runner.run(Rewritten.get(), Case.Kernel, Case.WorkDim, Case.Args, Order, Extra, Error);
      std::string Verdict = Error.empty() ? compare(Reference, Outputs) : Error;
      Error.clear();
      std::cout << (Verdict.empty() ? "ok   " : "FAIL ") << "dim " << Dim << ", " << Count
                << " slice(s)" << (Verdict.empty() ? "" : ": " + Verdict) << "\n";
      Failures += !Verdict.empty();
    }
  }

  // 3b. An offset-exact kernel (the runtime then runs slices on the app's
  // device from the app's own program): the original kernel, sliced with
  // global offsets alone, matches the reference.
  if (Listed->OffsetExact)
    for (unsigned Dim = 0; Dim < Case.WorkDim; ++Dim) {
      std::vector<Launch> Slices = slices(Case, Dim, 3);
      std::vector<Launch> Order(Slices.rbegin(), Slices.rend());
      auto Outputs =
          Runner.run(Original.get(), Case.Kernel, Case.WorkDim, Case.Args, Order, {}, Error);
      std::string Verdict = Error.empty() ? compare(Reference, Outputs) : Error;
      Error.clear();
      std::cout << (Verdict.empty() ? "ok   " : "FAIL ") << "offset-exact: the app's kernel, dim "
                << Dim << ", 3 slices" << (Verdict.empty() ? "" : ": " + Verdict) << "\n";
      Failures += !Verdict.empty();
    }

  // 4. Controls: each must produce a difference, or the checks above prove
  // nothing.
  if (Case.SelfCheck) {
    auto expectDifference = [&](const char *What, cl_program Program,
                                const std::vector<Launch> &Launches,
                                const std::vector<AppendedArgs> &Extra) {
      auto Outputs =
          Runner.run(Program, Case.Kernel, Case.WorkDim, Case.Args, Launches, Extra, Error);
      bool Differs = !Error.empty() || !compare(Reference, Outputs).empty();
      Error.clear();
      std::cout << (Differs ? "ok   " : "FAIL ") << "control: " << What
                << (Differs ? " is detected" : " went unnoticed") << "\n";
      Failures += !Differs;
    };
    std::vector<Launch> Three = slices(Case, 0, 3);
    std::vector<AppendedArgs> Extra(Three.size(), appended(Case, *Listed, 0));
    expectDifference("the app's kernel run as 3 slices (no rewrite)", Original.get(), Three, {});
    std::vector<Launch> Skipped(Three.begin(), Three.end() - 1);
    expectDifference("a slice left out", Rewritten.get(), Skipped,
                     std::vector<AppendedArgs>(Skipped.size(), Extra[0]));
    std::vector<AppendedArgs> NoOrigin = Extra;
    for (AppendedArgs &Args : NoOrigin)
      Args.SplitOrigin = 0;
    expectDifference("splitorigin 0 with a non-zero app offset", Rewritten.get(), Three, NoOrigin);
    std::vector<AppendedArgs> WrongGroups = Extra;
    for (AppendedArgs &Args : WrongGroups)
      Args.NumGroups += 1;
    expectDifference("a wrong numgroups", Rewritten.get(), Three, WrongGroups);
  }
  if (Failures)
    return fail(std::to_string(Failures) + " check(s) failed");
  std::cout << "PASS " << Case.Name << "\n";
  return 0;
}
