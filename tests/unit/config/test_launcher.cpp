// The libsplit launcher, run as a child process with a controlled environment: help, options
// to controls, override warnings, LD_PRELOAD, finding libsplit.so, exit codes.
#include "config/config.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace libsplit::config;
namespace fs = std::filesystem;

namespace {

class TempDir {
public:
  TempDir() {
    std::string Pattern = (fs::temp_directory_path() / "libsplit-launcher-XXXXXX");
    REQUIRE(::mkdtemp(Pattern.data()));
    Path = Pattern;
  }
  ~TempDir() {
    std::error_code Ignored;
    fs::remove_all(Path, Ignored);
  }
  fs::path Path;
};

std::string readFile(const fs::path &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

struct Run {
  int Status = -1;
  std::string Out;
  std::string Err;
};

// Runs Program with exactly Arguments (after argv[0]) and Environment.
Run run(const std::string &Program, const std::vector<std::string> &Arguments,
        const std::vector<std::string> &Environment) {
  TempDir Dir;
  fs::path OutPath = Dir.Path / "out", ErrPath = Dir.Path / "err";
  std::vector<char *> Argv, Envp;
  std::string Argv0 = Program;
  Argv.push_back(Argv0.data());
  std::vector<std::string> Args = Arguments, Env = Environment;
  for (std::string &Arg : Args)
    Argv.push_back(Arg.data());
  Argv.push_back(nullptr);
  for (std::string &Entry : Env)
    Envp.push_back(Entry.data());
  Envp.push_back(nullptr);

  pid_t Child = ::fork();
  REQUIRE(Child >= 0);
  if (Child == 0) {
    int Out = ::open(OutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int Err = ::open(ErrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(Out, 1);
    ::dup2(Err, 2);
    ::execve(Program.c_str(), Argv.data(), Envp.data());
    ::_exit(99);
  }
  int Status = 0;
  REQUIRE(::waitpid(Child, &Status, 0) == Child);
  Run Result;
  Result.Status = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  Result.Out = readFile(OutPath);
  Result.Err = readFile(ErrPath);
  return Result;
}

Run launch(const std::vector<std::string> &Arguments, std::vector<std::string> Environment = {}) {
  Environment.push_back("PATH=/usr/bin:/bin");
  // In the sanitizer build the launcher is instrumented, and ASan refuses to start when
  // LD_PRELOAD (which some tests hand it) names libraries ahead of its runtime.
  Environment.push_back("ASAN_OPTIONS=verify_asan_link_order=0");
  return run(LIBSPLIT_LAUNCHER_PATH, Arguments, Environment);
}

// A shared library that is harmless to preload: the C library this test itself uses.
std::string harmlessLibrary() {
  Dl_info Info{};
  REQUIRE(::dladdr(reinterpret_cast<void *>(&::getpid), &Info));
  return fs::canonical(Info.dli_fname).string();
}

// Another, for LD_PRELOAD entries of the user's own that must be kept.
std::string otherLibrary() {
  Dl_info Info{};
  double (*Cosine)(double) = &::cos;
  REQUIRE(::dladdr(reinterpret_cast<void *>(Cosine), &Info));
  return fs::canonical(Info.dli_fname).string();
}

} // namespace

TEST_CASE("--help prints usage, every option and the controls table", "[launcher]") {
  Run R = launch({"--help"});
  CHECK(R.Status == 0);
  CHECK(R.Err.empty());
  CHECK(R.Out.rfind("usage: libsplit [options] [--] PROGRAM [ARGS...]\n", 0) == 0);
  for (const ControlInfo &Info : Controls) {
    INFO(Info.Name);
    CHECK(R.Out.find("\n" + std::string(Info.Name) + " ") != std::string::npos);
    if (!Info.Option.empty())
      CHECK(R.Out.find("  " + std::string(Info.Option) + " ") != std::string::npos);
  }
  CHECK(launch({"-h"}).Out == R.Out);
}

TEST_CASE("no program is a usage error", "[launcher]") {
  Run R = launch({});
  CHECK(R.Status == 2);
  CHECK(R.Out.empty());
  CHECK(R.Err.rfind("usage: libsplit", 0) == 0);
  CHECK(launch({"--log", "info", "--"}).Status == 2);
}

TEST_CASE("--list-devices lists the devices with their indices", "[launcher]") {
  // Whatever the machine has, the header and the platform lines come first; on the test
  // platform (PoCL) there is at least one device, listed as P:D.
  Run R = launch({"--list-devices"});
  CHECK(R.Status == 0);
  CHECK(R.Out.rfind("P:D   type   selected  device (LIBSPLIT_DEVICES=all)\n", 0) == 0);
  CHECK(R.Out.find("platform 0: ") != std::string::npos);
  CHECK(R.Out.find("0:0   ") != std::string::npos);
}

TEST_CASE("bad options and values stop the launcher", "[launcher]") {
  std::string Library = "LIBSPLIT_LIBRARY=" + harmlessLibrary();
  Run Unknown = launch({"--frobnicate", "--", "/bin/true"}, {Library});
  CHECK(Unknown.Status == 2);
  CHECK(Unknown.Err == "libsplit: error: unknown option '--frobnicate'; libsplit --help lists "
                       "them\n");

  Run Missing = launch({"--log"}, {Library});
  CHECK(Missing.Status == 2);
  CHECK(Missing.Err == "libsplit: error: --log needs a value: error, warn, info, debug\n");

  Run Bad = launch({"--log", "verbose", "--", "/bin/true"}, {Library});
  CHECK(Bad.Status == 2);
  CHECK(Bad.Err == "libsplit: error: LIBSPLIT_LOG: unknown value 'verbose'; accepted: error, "
                   "warn, info, debug\n"
                   "libsplit: error: not starting /bin/true; fix the value above\n");

  // A malformed value already in the environment is caught the same way.
  Run Inherited = launch({"/bin/true"}, {Library, "LIBSPLIT_DEFER=lazy"});
  CHECK(Inherited.Status == 2);
  CHECK(Inherited.Err.rfind("libsplit: error: LIBSPLIT_DEFER: unknown value 'lazy'", 0) == 0);
}

TEST_CASE("options set controls, overriding the environment with a warning", "[launcher]") {
  std::string Library = harmlessLibrary();
  std::string Other = otherLibrary();
  REQUIRE(Other != Library);
  Run R = launch({"--dry-run", "--log", "info", "--devices=gpu", "--summary", "--static", "0.6,0.4",
                  "--defer", "copy", "--", "/bin/echo", "a b", "--log"},
                 {"LIBSPLIT_LIBRARY=" + Library, "LD_PRELOAD=" + Other + " " + Library,
                  "LIBSPLIT_LOG=debug", "LIBSPLIT_DEFER=copy", "LIBSPLIT_BALANCER=broyden"});
  CHECK(R.Status == 0);
  CHECK(R.Out == "LD_PRELOAD=" + Library + ":" + Other + // first, once, others kept
                     "\n"
                     "LIBSPLIT_DEVICES=gpu\n"
                     "LIBSPLIT_LOG=info\n"
                     "LIBSPLIT_SUMMARY=1\n"
                     "LIBSPLIT_BALANCER=static\n"
                     "LIBSPLIT_STATIC=0.6,0.4\n"
                     "LIBSPLIT_DEFER=copy\n"
                     "LIBSPLIT_LIBRARY=" +
                     Library + "\n/bin/echo 'a b' --log\n");
  // Same value as the environment: no warning for --defer.
  CHECK(R.Err == "libsplit: warning: --log sets LIBSPLIT_LOG=info, overriding debug from the "
                 "environment\n"
                 "libsplit: warning: --static sets LIBSPLIT_BALANCER=static, overriding broyden "
                 "from the environment\n");
}

TEST_CASE("an explicit --balancer is not overridden by --static", "[launcher]") {
  std::string Library = harmlessLibrary();
  Run R = launch({"--dry-run", "--static", "0.5,0.5", "--balancer", "uniform", "/bin/true"},
                 {"LIBSPLIT_LIBRARY=" + Library});
  CHECK(R.Status == 0);
  CHECK(R.Out.find("LIBSPLIT_BALANCER=uniform\n") != std::string::npos);
  CHECK(R.Err.empty());
}

TEST_CASE("the program runs with libsplit.so first in LD_PRELOAD", "[launcher]") {
  std::string Library = harmlessLibrary();
  Run R = launch({"--devices", "1:0", "--", "sh", "-c",
                  "printf '%s|%s|%s' \"$LD_PRELOAD\" \"$LIBSPLIT_DEVICES\" \"$0\"", "arg0"},
                 {"LIBSPLIT_LIBRARY=" + Library, "LD_PRELOAD=" + Library});
  CHECK(R.Status == 0);
  CHECK(R.Err.empty());
  CHECK(R.Out == Library + "|1:0|arg0"); // not preloaded twice
}

TEST_CASE("the program's exit status comes back", "[launcher]") {
  Run R = launch({"/bin/sh", "-c", "exit 7"}, {"LIBSPLIT_LIBRARY=" + harmlessLibrary()});
  CHECK(R.Status == 7);
}

TEST_CASE("a program that cannot run exits 127 or 126", "[launcher]") {
  std::string Library = "LIBSPLIT_LIBRARY=" + harmlessLibrary();
  Run Missing = launch({"--", "/nonexistent/app", "x"}, {Library});
  CHECK(Missing.Status == 127);
  CHECK(Missing.Err ==
        "libsplit: error: cannot run '/nonexistent/app': No such file or directory\n");

  Run NotInPath = launch({"libsplit-no-such-program"}, {Library});
  CHECK(NotInPath.Status == 127);

  TempDir Dir;
  fs::path Script = Dir.Path / "not-executable";
  std::ofstream(Script) << "#!/bin/sh\n";
  Run Denied = launch({Script.string()}, {Library});
  CHECK(Denied.Status == 126);
  CHECK(Denied.Err == "libsplit: error: cannot run '" + Script.string() + "': Permission denied\n");
}

TEST_CASE("libsplit.so is found in ../lib next to the launcher", "[launcher]") {
  TempDir Dir;
  fs::create_directories(Dir.Path / "bin");
  fs::create_directories(Dir.Path / "lib");
  fs::path Launcher = Dir.Path / "bin" / "libsplit";
  fs::copy_file(LIBSPLIT_LAUNCHER_PATH, Launcher);

  Run Absent = run(Launcher.string(), {"/bin/true"}, {"PATH=/usr/bin:/bin"});
  CHECK(Absent.Status == 2);
  CHECK(Absent.Err.rfind("libsplit: error: cannot find libsplit.so (tried " +
                             (Dir.Path / "bin").string() + "/../lib/libsplit.so",
                         0) == 0);
  CHECK(Absent.Err.find("set LIBSPLIT_LIBRARY to its path\n") != std::string::npos);

  fs::copy_file(harmlessLibrary(), Dir.Path / "lib" / "libsplit.so");
  Run Found = run(Launcher.string(), {"--dry-run", "/bin/true"}, {"PATH=/usr/bin:/bin"});
  CHECK(Found.Status == 0);
  CHECK(Found.Out ==
        "LD_PRELOAD=" + fs::canonical(Dir.Path / "lib" / "libsplit.so").string() + "\n/bin/true\n");
}

TEST_CASE("LIBSPLIT_LIBRARY must name a readable file", "[launcher]") {
  Run R = launch({"/bin/true"}, {"LIBSPLIT_LIBRARY=/nonexistent/libsplit.so"});
  CHECK(R.Status == 2);
  CHECK(R.Err == "libsplit: error: LIBSPLIT_LIBRARY: cannot read '/nonexistent/libsplit.so': "
                 "No such file or directory\n");
}
