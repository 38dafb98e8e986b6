//===- libsplit_main.cpp - The libsplit launcher --------------------------===//
//
//   libsplit [options] [--] PROGRAM [ARGS...]
//
// Sets the LIBSPLIT_* controls from its options, prepends libsplit.so to LD_PRELOAD and execs
// PROGRAM: the launcher is a convenience over `LD_PRELOAD=libsplit.so PROGRAM`, never a
// different mode. Its options come from controls.def, like everything else about controls.
//
//===----------------------------------------------------------------------===//
#include "config/config.hpp"
#include "list_devices.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

using namespace libsplit::config;

constexpr int ExitUsage = 2;
constexpr int ExitCannotExecute = 126; // the shell's codes, which scripts already understand
constexpr int ExitNotFound = 127;

void printUsage(std::ostream &Out) {
  Out << "usage: libsplit [options] [--] PROGRAM [ARGS...]\n"
         "\n"
         "Runs PROGRAM with libsplit.so preloaded: each OpenCL NDRange it launches is split\n"
         "across the selected devices. Same as LD_PRELOAD=/path/libsplit.so PROGRAM with the\n"
         "LIBSPLIT_* variables below set.\n"
         "\n"
         "Options (each sets a control and overrides it in the environment, with a warning):\n";
  for (const ControlInfo &Info : Controls) {
    if (Info.Option.empty())
      continue;
    std::string Left =
        "  " + std::string(Info.Option) + (Info.Kind == ControlKind::Bool ? "" : " VALUE");
    Left.resize(std::max<std::size_t>(Left.size() + 2, 26), ' ');
    Out << Left << "sets " << Info.Name << (Info.Kind == ControlKind::Bool ? "=1" : "") << "\n";
  }
  Out << "  --dry-run               print the environment and command instead of running it\n"
         "  --list-devices          print the OpenCL devices with their LIBSPLIT_DEVICES "
         "indices\n"
         "  -h, --help              print this help and the controls table\n"
         "\n"
         "LD_PRELOAD has no effect on statically linked programs and on set-user-ID programs;\n"
         "libsplit cannot split their kernels.\n";
}

// One control the command line sets.
struct Setting {
  const ControlInfo *Info;
  std::string Value;
  std::string Option; // the option that set it, for the override warning
};

const ControlInfo *findOption(std::string_view Option) {
  for (const ControlInfo &Info : Controls) {
    if (!Info.Option.empty() && Info.Option == Option)
      return &Info;
  }
  return nullptr;
}

bool isReadable(const std::string &Path) { return ::access(Path.c_str(), R_OK) == 0; }

// Absolute and without symlinks: the app may chdir before loading OpenCL, and a relative
// LD_PRELOAD entry would then name nothing.
std::string absolutePath(const std::string &Path) {
  char Buffer[PATH_MAX];
  return ::realpath(Path.c_str(), Buffer) ? std::string(Buffer) : std::string();
}

std::string ownDirectory() {
  char Buffer[PATH_MAX];
  ssize_t Length = ::readlink("/proc/self/exe", Buffer, sizeof(Buffer) - 1);
  if (Length <= 0)
    return {};
  std::string Path(Buffer, static_cast<std::size_t>(Length));
  return Path.substr(0, Path.rfind('/'));
}

// LIBSPLIT_LIBRARY (Explicit, from the controls), else libsplit.so in the lib/ beside the
// launcher's bin/: true of an install tree and of the build tree alike (build/bin/libsplit,
// build/lib/libsplit.so).
std::string findLibrary(const std::string &Explicit, Logger &Log) {
  if (!Explicit.empty()) {
    std::string Path = absolutePath(Explicit.c_str());
    if (Path.empty() || !isReadable(Path))
      Log.error("LIBSPLIT_LIBRARY: cannot read '", Explicit, "': ", std::strerror(errno));
    return Path;
  }
  std::string Directory = ownDirectory();
  std::vector<std::string> Candidates = {Directory + "/../lib/libsplit.so"};
#ifdef LIBSPLIT_INSTALL_LIBDIR
  // Debian's multiarch libdir (lib/x86_64-linux-gnu) when installed under /usr.
  if (std::string_view(LIBSPLIT_INSTALL_LIBDIR) != "lib")
    Candidates.push_back(Directory + "/../" LIBSPLIT_INSTALL_LIBDIR "/libsplit.so");
#endif
  for (const std::string &Candidate : Candidates) {
    if (isReadable(Candidate))
      return absolutePath(Candidate);
  }
  std::string Tried;
  for (const std::string &Candidate : Candidates)
    Tried += (Tried.empty() ? "" : ", ") + Candidate;
  Log.error("cannot find libsplit.so (tried ", Tried, "); set LIBSPLIT_LIBRARY to its path");
  return {};
}

// LD_PRELOAD with Library first and no second copy of it; the user's other entries keep their
// order (ld.so accepts both ':' and ' ' between entries).
std::string preloadWith(const std::string &Library, const char *Current) {
  std::string Result = Library;
  std::string_view Rest = Current ? Current : "";
  while (!Rest.empty()) {
    std::size_t End = Rest.find_first_of(": ");
    std::string_view Entry = Rest.substr(0, End);
    if (!Entry.empty() && Entry != Library)
      Result += ":" + std::string(Entry);
    Rest = End == std::string_view::npos ? std::string_view() : Rest.substr(End + 1);
  }
  return Result;
}

std::string shellQuote(std::string_view Text) {
  bool Plain = !Text.empty() && Text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
                                                       "NOPQRSTUVWXYZ0123456789_./:=,+-@%") ==
                                    std::string_view::npos;
  if (Plain)
    return std::string(Text);
  std::string Out = "'";
  for (char C : Text)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

} // namespace

int main(int Argc, char **Argv) {
  Logger Log(LogLevel::Warn);
  std::vector<Setting> Settings;
  bool DryRun = false;
  bool BalancerGiven = false;
  int First = 1;
  for (; First < Argc; ++First) {
    std::string_view Arg = Argv[First];
    if (Arg == "--") {
      ++First;
      break;
    }
    if (Arg.empty() || Arg[0] != '-')
      break;
    if (Arg == "-h" || Arg == "--help") {
      printUsage(std::cout);
      std::cout << "\n" << controlsTable();
      return std::cout.flush() ? 0 : 1;
    }
    if (Arg == "--list-devices")
      return libsplit::listDevices(readConfig(std::getenv));
    if (Arg == "--dry-run") {
      DryRun = true;
      continue;
    }
    std::size_t Equals = Arg.find('=');
    std::string_view Option = Arg.substr(0, Equals);
    const ControlInfo *Info = findOption(Option);
    if (!Info) {
      Log.error("unknown option '", Arg, "'; libsplit --help lists them");
      return ExitUsage;
    }
    std::string Value;
    if (Equals != std::string_view::npos) {
      Value = std::string(Arg.substr(Equals + 1));
    } else if (Info->Kind == ControlKind::Bool) {
      Value = "1";
    } else if (First + 1 < Argc) {
      Value = Argv[++First];
    } else {
      Log.error(Option, " needs a value: ", Info->Accepted);
      return ExitUsage;
    }
    BalancerGiven |= Info->Id == ControlId::Balancer;
    Settings.push_back({Info, Value, std::string(Option)});
  }
  if (First >= Argc) {
    printUsage(std::cerr);
    return ExitUsage;
  }
  // --static means "use these shares": say so to the balancer too, unless --balancer chose.
  for (std::size_t I = 0, End = Settings.size(); I < End && !BalancerGiven; ++I) {
    if (Settings[I].Info->Id == ControlId::Static)
      Settings.push_back({&controlInfo(ControlId::Balancer), "static", Settings[I].Option});
  }

  // Compare with the environment as the user gave it, not as an earlier option changed it.
  std::vector<std::string> Original;
  for (const Setting &Item : Settings) {
    const char *Old = std::getenv(std::string(Item.Info->Name).c_str());
    Original.push_back(Old ? Old : "");
  }
  for (std::size_t I = 0; I < Settings.size(); ++I) {
    const Setting &Item = Settings[I];
    std::string Name(Item.Info->Name);
    if (!Original[I].empty() && Item.Value != Original[I])
      Log.warn(Item.Option, " sets ", Name, "=", Item.Value, ", overriding ", Original[I],
               " from the environment");
    ::setenv(Name.c_str(), Item.Value.c_str(), 1);
  }

  // The runtime would run pass-through on a malformed value; at the command line, where the
  // user can fix it at once, refusing is more useful than a silently unsplit run.
  Config Checked = readConfig(std::getenv);
  if (!Checked.Errors.empty()) {
    for (const std::string &Error : Checked.Errors)
      Log.error(Error);
    Log.error("not starting ", Argv[First], "; fix the value above");
    return ExitUsage;
  }

  std::string Library = findLibrary(Checked.Library, Log);
  if (Library.empty())
    return ExitUsage;
  if (Library.find_first_of(": ") != std::string::npos) {
    Log.error("cannot preload '", Library, "': LD_PRELOAD cannot hold a path with ':' or ' '");
    return ExitUsage;
  }
  std::string Preload = preloadWith(Library, std::getenv("LD_PRELOAD"));
  ::setenv("LD_PRELOAD", Preload.c_str(), 1);

  if (DryRun) {
    std::cout << "LD_PRELOAD=" << shellQuote(Preload) << "\n";
    for (const ControlInfo &Info : Controls) {
      if (const char *Value = std::getenv(std::string(Info.Name).c_str()))
        std::cout << Info.Name << "=" << shellQuote(Value) << "\n";
    }
    for (int I = First; I < Argc; ++I)
      std::cout << (I == First ? "" : " ") << shellQuote(Argv[I]);
    std::cout << "\n";
    return std::cout.flush() ? 0 : 1;
  }

  ::execvp(Argv[First], Argv + First);
  int Error = errno;
  Log.error("cannot run '", Argv[First], "': ", std::strerror(Error));
  return Error == ENOENT ? ExitNotFound : ExitCannotExecute;
}
