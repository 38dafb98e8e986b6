// Soundness and precision of the region analysis on PoCL (tests/regions/README.md).
//
//   regions_soundness <libsplit-cc> <corpus dir> <work dir> <case>
//
// For the kernels of corpus/<case>.cl that have a `//@ launch`, and for slices of 2 and 3
// parts along every dimension: the partition-ready kernel runs the slice alone, and
//  - every byte it writes (seen against two different initial contents) must lie in the
//    slice's evaluated write or atomic regions;
//  - with every byte outside the slice's read, write and atomic regions replaced by other
//    data (what a device holding only those regions would see), the bytes it writes must not
//    change: nothing it reads outside its regions matters;
//  - `disjoint=D`: slices along D write disjoint regions;
//  - `tight`: each write interval's first and last bytes are written, and changing each read
//    interval's first or last 4 bytes changes what the slice writes (the regions are no
//    larger than what the statements touch, at their ends).
#include "BufferData.h"
#include "ClDevice.h"
#include "CorpusSpec.h"

#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/analysis/summary_text.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace libsplit;
using namespace libsplit::test;

namespace {

using Bytes = std::vector<std::uint8_t>;
using Contents = std::vector<Bytes>;

bool readFile(const std::string &Path, std::string &Out) {
  std::ifstream File(Path);
  if (!File)
    return false;
  std::stringstream Text;
  Text << File.rdbuf();
  Out = Text.str();
  return true;
}

/// Kernel name -> number of app arguments, from the kernel list (pass/README.md).
std::map<std::string, unsigned> readKernelList(const std::string &Text) {
  std::map<std::string, unsigned> Counts;
  std::istringstream In(Text);
  std::string Line;
  while (std::getline(In, Line)) {
    std::istringstream Words(Line);
    std::string Keyword, Name, ArgsWord;
    unsigned Count = 0;
    if (Words >> Keyword >> Name >> ArgsWord >> Count && Keyword == "kernel" && ArgsWord == "args")
      Counts[Name] = Count;
  }
  return Counts;
}

bool inside(const analysis::IntervalSet &Set, bool Whole, std::int64_t Byte) {
  return Whole || Set.contains(Byte, Byte + 1);
}

struct Checker {
  ClDevice &Device;
  const analysis::KernelSummary &Kernel;
  const LaunchSpec &Spec;
  unsigned AppArgs;
  std::vector<std::string> Failures;
  unsigned Slices = 0, Runs = 0;

  void fail(const std::string &Where, const std::string &What) {
    if (Failures.size() < 40)
      Failures.push_back(Spec.Kernel + " " + Where + ": " + What);
  }

  /// Every buffer's contents for \p Seed (each buffer its own data: a copy must change bytes).
  Contents initial(std::uint32_t Seed) {
    Contents Data(Spec.Args.size());
    for (std::size_t I = 0; I < Spec.Args.size(); ++I)
      if (Spec.Args[I].What == ArgSpec::Kind::Buffer) {
        std::string Error;
        Data[I] = makeBufferData(Spec.Args[I].Init, Spec.Args[I].Bytes,
                                 Seed * 131u + static_cast<std::uint32_t>(I), Error);
        if (!Error.empty())
          fail("setup", Error);
      }
    return Data;
  }

  bool run(const analysis::Slice &S, Contents &Data, const std::string &Where) {
    SliceLaunch Launch;
    Launch.Offset = Spec.Offset;
    Launch.Global = Spec.Global;
    Launch.Local = Spec.Local;
    Launch.Offset[S.SplitDim] += S.FirstGroup * Spec.Local[S.SplitDim];
    Launch.Global[S.SplitDim] = (S.EndGroup - S.FirstGroup) * Spec.Local[S.SplitDim];
    Appended Extra;
    Extra.FirstIndex = AppArgs;
    Extra.SplitDim = S.SplitDim;
    Extra.NumGroups = Spec.Global[S.SplitDim] / Spec.Local[S.SplitDim];
    Extra.SplitOrigin = Spec.Offset[S.SplitDim];
    std::string Error;
    ++Runs;
    if (!Device.run(Spec.Kernel, Spec, Extra, Launch, Data, Error)) {
      fail(Where, Error);
      return false;
    }
    return true;
  }

  /// The bytes the runtime gathers back from a slice: its write and atomic regions.
  bool gathered(const analysis::ArgRegions &R, std::int64_t Byte) {
    return inside(R.Write, R.WriteWhole, Byte) || inside(R.Atomic, R.AtomicWhole, Byte);
  }

  void checkSlice(const analysis::NDRange &Range, const analysis::LaunchArgs &Args,
                  const analysis::Slice &S, std::vector<analysis::ArgRegions> &Regions) {
    const std::string Where = "dim " + std::to_string(S.SplitDim) + " groups [" +
                              std::to_string(S.FirstGroup) + ", " + std::to_string(S.EndGroup) +
                              ")";
    ++Slices;
    Regions = analysis::evaluateSlice(Kernel, Range, Args, S);
    // Two runs that differ only in the initial bytes of the buffers the slice may write
    // (every byte flipped; index data re-drawn): a byte written with the same value in both
    // runs cannot equal its initial contents in both, unless what is written depends on it.
    const Contents Base = initial(0), Redrawn = initial(1), Garbage = initial(2);
    Contents Other = Base;
    for (std::size_t I = 0; I < Spec.Args.size(); ++I) {
      const analysis::ArgRegions &R = Regions[I];
      if (R.Write.empty() && R.Atomic.empty() && !R.WriteWhole && !R.AtomicWhole)
        continue;
      const std::string &Init = Spec.Args[I].Init;
      const bool Index = Init.rfind("int:", 0) == 0 || Init.rfind("rowptr:", 0) == 0;
      for (std::size_t B = 0; B < Other[I].size(); ++B)
        Other[I][B] = Index ? Redrawn[I][B] : static_cast<std::uint8_t>(~Base[I][B]);
    }
    Contents A = Base, A2 = Other;
    if (!run(S, A, Where) || !run(S, A2, Where))
      return;

    // 1. Writes: every changed byte is in the write or atomic regions.
    std::vector<std::vector<bool>> Written(Spec.Args.size());
    for (std::size_t I = 0; I < Spec.Args.size(); ++I) {
      Written[I].assign(Base[I].size(), false);
      for (std::size_t B = 0; B < Base[I].size(); ++B) {
        if (A[I][B] == Base[I][B] && A2[I][B] == Other[I][B])
          continue;
        Written[I][B] = true;
        if (!gathered(Regions[I], static_cast<std::int64_t>(B))) {
          fail(Where, "argument " + std::to_string(I) + " byte " + std::to_string(B) +
                          " is written outside the write regions");
          break;
        }
      }
    }

    // 2. Reads: bytes outside read/write/atomic regions replaced; written bytes unchanged.
    Contents Partial = Base;
    for (std::size_t I = 0; I < Spec.Args.size(); ++I) {
      const analysis::ArgRegions &R = Regions[I];
      const bool Whole = R.ReadWhole || R.WriteWhole || R.AtomicWhole;
      for (std::size_t B = 0; B < Base[I].size() && !Whole; ++B) {
        const auto Byte = static_cast<std::int64_t>(B);
        if (!inside(R.Read, false, Byte) && !gathered(R, Byte))
          Partial[I][B] = Garbage[I][B];
      }
    }
    if (!run(S, Partial, Where))
      return;
    for (std::size_t I = 0; I < Spec.Args.size(); ++I)
      for (std::size_t B = 0; B < Base[I].size(); ++B)
        if (gathered(Regions[I], static_cast<std::int64_t>(B)) && Partial[I][B] != A[I][B]) {
          fail(Where, "argument " + std::to_string(I) + " byte " + std::to_string(B) +
                          " differs when data outside the regions changes: the slice reads "
                          "outside its read regions");
          break;
        }

    if (Spec.Tight)
      checkTight(S, Where, Regions, Base, A, Written);
  }

  void checkTight(const analysis::Slice &S, const std::string &Where,
                  const std::vector<analysis::ArgRegions> &Regions, const Contents &Base,
                  const Contents &A, const std::vector<std::vector<bool>> &Written) {
    for (std::size_t I = 0; I < Spec.Args.size(); ++I) {
      const auto Size = static_cast<std::int64_t>(Base[I].size());
      const analysis::ArgRegions &R = Regions[I];
      // Elements are written whole: some byte of the first and of the last 4 must change (a
      // single byte may keep its value, the sign and exponent byte of a float often does).
      for (const analysis::ByteRange &W : R.Write.ranges()) {
        if (W.Begin < 0 || W.End > Size) {
          fail(Where, "argument " + std::to_string(I) + " write interval [" +
                          std::to_string(W.Begin) + ", " + std::to_string(W.End) +
                          ") leaves the buffer");
          continue;
        }
        for (std::int64_t Start : {W.Begin, std::max(W.Begin, W.End - 4)}) {
          bool Any = false;
          for (std::int64_t B = Start; B < std::min(Start + 4, W.End); ++B)
            Any |= Written[I][static_cast<std::size_t>(B)];
          if (!Any)
            fail(Where, "argument " + std::to_string(I) + " write interval [" +
                            std::to_string(W.Begin) + ", " + std::to_string(W.End) +
                            ") is not written at bytes from " + std::to_string(Start));
        }
      }
      for (const analysis::ByteRange &Read : R.Read.ranges()) {
        if (Read.Begin < 0 || Read.End > Size) {
          fail(Where, "argument " + std::to_string(I) + " read interval [" +
                          std::to_string(Read.Begin) + ", " + std::to_string(Read.End) +
                          ") leaves the buffer");
          continue;
        }
        for (std::int64_t Start : {Read.Begin, std::max(Read.Begin, Read.End - 4)}) {
          Contents Perturbed = Base;
          for (std::int64_t B = Start; B < std::min(Start + 4, Read.End); ++B)
            Perturbed[I][static_cast<std::size_t>(B)] ^= 0xFF;
          if (!run(S, Perturbed, Where))
            return;
          bool Changed = false;
          for (std::size_t J = 0; J < Spec.Args.size() && !Changed; ++J)
            for (std::size_t B = 0; B < A[J].size() && !Changed; ++B)
              Changed =
                  gathered(Regions[J], static_cast<std::int64_t>(B)) && Perturbed[J][B] != A[J][B];
          if (!Changed)
            fail(Where, "argument " + std::to_string(I) + " read interval [" +
                            std::to_string(Read.Begin) + ", " + std::to_string(Read.End) +
                            "): bytes from " + std::to_string(Start) + " do not matter");
        }
      }
    }
  }

  void checkLaunch() {
    analysis::NDRange Range;
    Range.WorkDim = Spec.WorkDim;
    for (unsigned D = 0; D < 3; ++D) {
      Range.Global[D] = Spec.Global[D];
      Range.Local[D] = Spec.Local[D];
      Range.Offset[D] = Spec.Offset[D];
    }
    analysis::LaunchArgs Args;
    for (const ArgSpec &Arg : Spec.Args)
      Args.ScalarBytes.push_back(Arg.What == ArgSpec::Kind::Scalar ? Arg.Value : Bytes{});
    for (unsigned D = 0; D < Spec.WorkDim; ++D) {
      const std::uint64_t Groups = Spec.Global[D] / Spec.Local[D];
      for (std::uint64_t Parts : {2u, 3u}) {
        if (Groups < Parts)
          continue;
        std::vector<std::vector<analysis::ArgRegions>> All;
        for (std::uint64_t P = 0; P < Parts; ++P) {
          analysis::Slice S{D, Groups * P / Parts, Groups * (P + 1) / Parts};
          All.emplace_back();
          checkSlice(Range, Args, S, All.back());
        }
        bool MustBeDisjoint = false;
        for (unsigned Dim : Spec.Disjoint)
          MustBeDisjoint |= Dim == D;
        for (std::size_t P = 0; P < All.size() && MustBeDisjoint; ++P)
          for (std::size_t Q = P + 1; Q < All.size(); ++Q)
            if (!analysis::writesDisjoint(All[P], All[Q]))
              fail("dim " + std::to_string(D), std::to_string(Parts) + " slices " +
                                                   std::to_string(P) + " and " + std::to_string(Q) +
                                                   " have overlapping write regions");
      }
    }
  }
};

/// For the self-check: every bounded access loses its first and last 4 bytes, so that the
/// test must find writes and reads outside the regions.
void shrinkRegions(analysis::ProgramSummary &Summary) {
  for (analysis::KernelSummary &Kernel : Summary.Kernels)
    for (analysis::ArgSummary &Arg : Kernel.Args)
      for (analysis::Access &A : Arg.Accesses)
        if (!A.Unknown) {
          A.First = analysis::apply(analysis::Op::Add, A.First, analysis::constant(4));
          A.Last = analysis::apply(analysis::Op::Add, A.Last, analysis::constant(-4));
        }
}

} // namespace

int main(int Argc, char **Argv) {
  const bool SelfCheck = Argc == 6 && std::string(Argv[5]) == "--self-check";
  if (Argc != 5 && !SelfCheck) {
    std::cerr << "usage: regions_soundness <libsplit-cc> <corpus dir> <work dir> <case> "
                 "[--self-check]\n";
    return 2;
  }
  const std::string Tool = Argv[1], Corpus = Argv[2], Work = Argv[3], Case = Argv[4];
  CorpusFile File;
  std::string Error;
  if (!readCorpusFile(Corpus + "/" + Case + ".cl", File, Error)) {
    std::cerr << Error << "\n";
    return 1;
  }
  const std::string Out = Work + "/" + Case;
  const std::string Command = "'" + Tool + "' '" + Corpus + "/" + Case + ".cl' -o '" + Out +
                              ".cl' --kernels '" + Out + ".kernels' --summary '" + Out +
                              ".summary' --build-options '" + File.Options + "'";
  if (std::system(Command.c_str()) != 0) {
    std::cerr << "failed: " << Command << "\n";
    return 1;
  }
  std::string SummaryText, ListText, Source;
  analysis::ProgramSummary Summary;
  if (!readFile(Out + ".summary", SummaryText) || !readFile(Out + ".kernels", ListText) ||
      !readFile(Out + ".cl", Source) || !analysis::parseSummary(SummaryText, Summary, Error)) {
    std::cerr << "cannot read libsplit-cc's outputs: " << Error << "\n";
    return 1;
  }
  if (SelfCheck)
    shrinkRegions(Summary);
  const std::map<std::string, unsigned> AppArgs = readKernelList(ListText);
  int Failed = 0;
  // The summary names the list's kernels, in its order, and never splits one it refuses.
  {
    std::istringstream In(ListText);
    std::size_t Index = 0;
    for (std::string Line; std::getline(In, Line);) {
      if (Line.rfind("kernel ", 0) != 0)
        continue;
      std::istringstream Words(Line.substr(7));
      std::string Name;
      Words >> Name;
      const bool Unsplittable = Line.find(" unsplittable ") != std::string::npos;
      if (Index >= Summary.Kernels.size() || Summary.Kernels[Index].Name != Name ||
          (Unsplittable && Summary.Kernels[Index].Splittable)) {
        std::cerr << "FAIL the summary disagrees with the kernel list about " << Name << "\n";
        ++Failed;
      }
      ++Index;
    }
    if (Index != Summary.Kernels.size()) {
      std::cerr << "FAIL the summary and the kernel list have different kernels\n";
      ++Failed;
    }
  }

  ClDevice Device(Error);
  if (!Error.empty() || !Device.build(Source, File.Options, Error)) {
    std::cerr << Error << "\n";
    return 1;
  }
  for (const LaunchSpec &Spec : File.Launches) {
    const analysis::KernelSummary *Kernel = Summary.find(Spec.Kernel);
    auto Count = AppArgs.find(Spec.Kernel);
    if (!Kernel || !Kernel->Splittable || Count == AppArgs.end() ||
        Count->second != Spec.Args.size() || Kernel->Args.size() != Spec.Args.size()) {
      std::cerr << "FAIL " << Spec.Kernel << ": not splittable, or its arguments differ from "
                << "the launch description (line " << Spec.Line << ")\n";
      ++Failed;
      continue;
    }
    Checker Check{Device, *Kernel, Spec, Count->second, {}, 0, 0};
    Check.checkLaunch();
    std::cout << (Check.Failures.empty() ? "ok   " : "FAIL ") << Spec.Kernel << ": " << Check.Slices
              << " slices, " << Check.Runs << " launches\n";
    for (const std::string &Failure : Check.Failures)
      std::cout << "  " << Failure << "\n";
    Failed += !Check.Failures.empty();
  }
  if (SelfCheck) {
    // Every launch must have failed against the shrunken regions.
    std::cout << (Failed == static_cast<int>(File.Launches.size()) ? "self-check ok: " : "FAIL: ")
              << Failed << " of " << File.Launches.size() << " launches caught\n";
    return Failed == static_cast<int>(File.Launches.size()) ? 0 : 1;
  }
  return Failed == 0 ? 0 : 1;
}
