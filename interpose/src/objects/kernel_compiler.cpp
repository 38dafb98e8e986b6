#include "kernel_compiler.hpp"

#include "cache_files.hpp"

#include "libsplit/analysis/summary_text.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

extern char **environ;

namespace libsplit {

namespace {

std::string directoryOf(const std::string &Path) {
  const auto Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

bool isExecutable(const std::string &Path) { return access(Path.c_str(), X_OK) == 0; }

// The tool sits next to the library in the build tree (build/lib, build/bin) and in an installed
// tree (lib/ or the multiarch lib/<triplet>/, with libexec/libsplit/), so a moved tree still
// finds it.
std::string findTool(const config::Config &Settings) {
  const std::string &Configured = Settings.Cc;
  if (!Configured.empty())
    return Configured;
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&compileForSplitting), &Info) || !Info.dli_fname)
    return {};
  const std::string LibDir = directoryOf(Info.dli_fname);
  for (const char *Relative : {"/../bin/libsplit-cc", "/../libexec/libsplit/libsplit-cc",
                               "/../../libexec/libsplit/libsplit-cc"}) {
    std::string Candidate = LibDir + Relative;
    if (isExecutable(Candidate))
      return Candidate;
  }
  return {};
}

// Runs the tool with LD_PRELOAD removed (the tool must not load libsplit) and stderr kept in a
// file for the log. Returns the exit status, or -1 when it could not run, or StatusTakenByApp.
constexpr int StatusTakenByApp = -2;
int runTool(const std::vector<std::string> &Arguments, const std::string &ErrorFile) {
  std::vector<std::string> Environment;
  for (char **E = environ; *E; ++E)
    if (std::strncmp(*E, "LD_PRELOAD=", 11) != 0)
      Environment.emplace_back(*E);
  std::vector<char *> Argv, Envp;
  for (const std::string &A : Arguments)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  for (std::string &E : Environment)
    Envp.push_back(E.data());
  Envp.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 2, ErrorFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  // The tool starts with default signal handling and nothing blocked, whatever the app set
  // (SIGCHLD ignored, signals masked on this thread).
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  sigset_t Defaults, Nothing;
  sigemptyset(&Defaults);
  sigaddset(&Defaults, SIGCHLD);
  sigaddset(&Defaults, SIGPIPE);
  sigemptyset(&Nothing);
  posix_spawnattr_setsigdefault(&Attributes, &Defaults);
  posix_spawnattr_setsigmask(&Attributes, &Nothing);
  posix_spawnattr_setflags(&Attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t Child = 0;
  const int Spawned = posix_spawn(&Child, Argv[0], &Actions, &Attributes, Argv.data(), Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attributes);
  if (Spawned != 0)
    return -1;
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0) {
    // An app that ignores SIGCHLD, or reaps every child in its handler, takes the status first.
    if (errno == ECHILD)
      return StatusTakenByApp;
    if (errno != EINTR)
      return -1;
  }
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

// Reads the tool's kernel list (format: pass/README.md).
bool parseKernelList(const std::string &Text, CompiledProgram &Out, std::string &Error) {
  std::istringstream In(Text);
  std::string Line;
  if (!std::getline(In, Line) || Line != "libsplit-kernels 2") {
    Error = "kernel list: unknown format";
    return false;
  }
  bool Ended = false;
  while (std::getline(In, Line)) {
    std::istringstream Words(Line);
    std::string Keyword;
    Words >> Keyword;
    if (Keyword == "program") {
      std::string State;
      Words >> State;
      if (State == "rejected") {
        std::getline(Words, Error);
        Error = "the kernel compiler rejected the program:" + Error;
      }
    } else if (Keyword == "kernel") {
      CompiledKernel K;
      std::string ArgsWord, Name, Value, State;
      Words >> K.Name >> ArgsWord >> K.AppArgCount;
      if (ArgsWord != "args" || !Words) {
        Error = "kernel list: bad line '" + Line + "'";
        return false;
      }
      for (int I = 0; I < 3; ++I)
        Words >> Name >> Value;
      Words >> State;
      K.Splittable = State == "splittable";
      if (K.Splittable) {
        std::string Exact;
        K.OffsetExact = Words >> Exact && Exact == "offset-exact";
      } else {
        std::getline(Words, K.Why);
        if (!K.Why.empty() && K.Why.front() == ' ')
          K.Why.erase(0, 1);
      }
      Out.Kernels.push_back(std::move(K));
    } else if (Keyword == "end") {
      Ended = true;
    }
  }
  if (!Ended) {
    Error = "kernel list: truncated";
    return false;
  }
  return true;
}

// Reads the region summary (analysis/README.md) into the listed kernels. A kernel splits only
// when both the list and the summary say it can, and when the devices' copies of every argument
// it updates with global atomics can be combined (the kernel compiler refuses the others
// already; the plans are what the launch combines by).
bool attachRegions(const std::string &Text, CompiledProgram &Out, std::string &Error) {
  analysis::ProgramSummary Summary;
  if (!analysis::parseSummary(Text, Summary, Error))
    return false;
  for (CompiledKernel &K : Out.Kernels) {
    const analysis::KernelSummary *Regions = Summary.find(K.Name);
    if (!Regions) {
      // A summary cut between two kernels parses; the list says what must be there.
      Error = "region summary: kernel " + K.Name + " is missing";
      return false;
    }
    K.Regions = *Regions;
    if (K.Splittable && !Regions->Splittable) {
      K.Splittable = false;
      K.Why = Regions->NotSplittableReason;
    }
    K.AtomicMerges.resize(Regions->Args.size());
    for (std::size_t I = 0; I < Regions->Args.size() && K.Splittable; ++I) {
      std::string Why;
      if (!analysis::planAtomicMerge(*Regions, I, K.AtomicMerges[I], Why)) {
        K.Splittable = false;
        K.Why = Why;
      }
    }
  }
  return true;
}

} // namespace

const CompiledKernel *CompiledProgram::find(const std::string &Name) const {
  for (const CompiledKernel &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

CompiledProgram compileForSplitting(const std::vector<std::string> &Sources,
                                    const std::string &BuildOptions, const config::Config &Settings,
                                    config::Logger &Log) {
  const auto Start = std::chrono::steady_clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
        .count();
  };
  CompiledProgram Result;
  const std::string Tool = findTool(Settings);
  if (Tool.empty()) {
    Result.Error = "the kernel compiler libsplit-cc was not found (set LIBSPLIT_CC)";
    return Result;
  }
  struct stat ToolStat {};
  stat(Tool.c_str(), &ToolStat);
  std::string Joined;
  for (const std::string &S : Sources)
    Joined += S;
  char Cwd[4096] = ".";
  if (!getcwd(Cwd, sizeof(Cwd)))
    std::strcpy(Cwd, ".");
  // The key covers everything the output depends on: the tool itself, the options, the
  // sources, and the directory quoted #includes are searched from.
  std::uint64_t Key = Fnv1aStart;
  Key = fnv1a(Key, Tool + ":" + std::to_string(ToolStat.st_size) + ":" +
                       std::to_string(ToolStat.st_mtime));
  Key = fnv1a(Key, BuildOptions);
  Key = fnv1a(Key, Cwd);
  Key = fnv1a(Key, Joined);
  char KeyText[17];
  std::snprintf(KeyText, sizeof(KeyText), "%016llx", static_cast<unsigned long long>(Key));

  // libsplit-cc writes into the cache, which keeps its output for the next runs, or, where the
  // cache cannot be written (no HOME, a read-only home, as on some clusters' compute nodes),
  // into a directory of its own, removed once its output is read. A read-only cache is still
  // read: a home filled from a login node serves the compute nodes.
  const std::string CacheKernels = Settings.CacheDir + "/kernels";
  const std::string Base = CacheKernels + "/" + KeyText;
  std::string ListText, SummaryText;
  const bool Cached = !Settings.CacheDir.empty() && readFile(Base + ".kernels", ListText) &&
                      readFile(Base + ".cl", Result.Source) &&
                      readFile(Base + ".summary", SummaryText) &&
                      parseKernelList(ListText, Result, Result.Error) &&
                      attachRegions(SummaryText, Result, Result.Error);
  if (Cached)
    Log.debug(config::DebugCategory::Compile, "kernel compiler: cache hit ", KeyText, " in ",
              elapsedMs(), " ms");
  if (!Cached) {
    Result = CompiledProgram{};
    const bool Keeps = !Settings.CacheDir.empty() && writableDirectory(CacheKernels);
    std::optional<ScratchDirectory> Scratch;
    if (!Keeps) {
      Scratch.emplace();
      if (Scratch->path().empty()) {
        Result.Error = "no directory to compile in: the cache directory '" + Settings.CacheDir +
                       "' cannot be written, nor can TMPDIR or /tmp";
        return Result;
      }
      Log.once("compile-not-kept", config::LogLevel::Info,
               Settings.CacheDir.empty()
                   ? std::string("no cache directory")
                   : "the cache directory '" + Settings.CacheDir + "' cannot be written",
               ": kernels are compiled in directories of their own under TMPDIR and compiled "
               "again by the next run");
    }
    const std::string Unique =
        (Keeps ? Base : Scratch->path() + "/" + KeyText) + "." + std::to_string(getpid());
    // Outputs an earlier process of the same pid left (killed mid-compile) must not pass for
    // this run's, should its exit status be lost (an app that ignores SIGCHLD).
    for (const char *Suffix : {".out.cl", ".out.list", ".out.summary"})
      std::remove((Unique + Suffix).c_str());
    if (!writeFileAtomically(Unique + ".in.cl", Joined)) {
      Result.Error = "cannot write to " + Unique + ".in.cl";
      return Result;
    }
    const int Status =
        runTool({Tool, "-o", Unique + ".out.cl", "--kernels", Unique + ".out.list", "--summary",
                 Unique + ".out.summary", "--build-options", BuildOptions, "--name",
                 std::string(Cwd) + "/program.cl", Unique + ".in.cl"},
                Unique + ".err");
    std::string Diagnostics;
    readFile(Unique + ".err", Diagnostics);
    // Without its status, the outputs tell: libsplit-cc renames each into place whole, the
    // summary last, and exits with success once it has.
    const bool Ok = (Status == 0 || Status == StatusTakenByApp) &&
                    readFile(Unique + ".out.list", ListText) &&
                    readFile(Unique + ".out.cl", Result.Source) &&
                    readFile(Unique + ".out.summary", SummaryText) &&
                    parseKernelList(ListText, Result, Result.Error) &&
                    attachRegions(SummaryText, Result, Result.Error);
    if (Ok && Keeps) {
      // Publish atomically: another process may be compiling the same program right now. The
      // summary goes last: a reader takes the entry only when all three are there.
      std::rename((Unique + ".out.cl").c_str(), (Base + ".cl").c_str());
      std::rename((Unique + ".out.list").c_str(), (Base + ".kernels").c_str());
      std::rename((Unique + ".out.summary").c_str(), (Base + ".summary").c_str());
    } else if (!Ok && Result.Error.empty()) {
      Result.Error = (Status == StatusTakenByApp
                          ? std::string("libsplit-cc left no output (its exit status went to the "
                                        "app's SIGCHLD disposition)")
                          : "libsplit-cc exited with status " + std::to_string(Status)) +
                     (Diagnostics.empty() ? "" : ": " + Diagnostics.substr(0, 2000));
    }
    for (const char *Suffix : {".in.cl", ".out.cl", ".out.list", ".out.summary", ".err"})
      std::remove((Unique + Suffix).c_str());
    if (!Ok)
      return Result;
    Log.debug(config::DebugCategory::Compile, "kernel compiler: ran libsplit-cc for ", KeyText,
              " in ", elapsedMs(), " ms");
  }
  Result.Ok = Result.Error.empty();
  Result.Key = KeyText;
  return Result;
}

} // namespace libsplit
