// The Logger: prefixes and levels, debug categories, LIBSPLIT_LOG_FILE, once(), whole lines
// from many threads, and stderr when the file cannot be opened.
#include "config/log.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace libsplit::config;

namespace {

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
public:
  TempDir() {
    std::string Pattern = (std::filesystem::temp_directory_path() / "libsplit-log-XXXXXX");
    REQUIRE(::mkdtemp(Pattern.data()));
    Path = Pattern;
  }
  ~TempDir() {
    std::error_code Ignored;
    std::filesystem::remove_all(Path, Ignored);
  }
  std::string file(const char *Name) const { return (Path / Name).string(); }

private:
  std::filesystem::path Path;
};

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

// Points fd 2 at a file for the lifetime of the object, to see what goes to stderr.
class StderrCapture {
public:
  explicit StderrCapture(const std::string &Path) : Saved(::dup(2)) {
    int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(Fd >= 0);
    ::dup2(Fd, 2);
    ::close(Fd);
  }
  ~StderrCapture() {
    ::dup2(Saved, 2);
    ::close(Saved);
  }

private:
  int Saved;
};

} // namespace

TEST_CASE("messages carry the prefix of their level", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  {
    Logger Log(LogLevel::Info, 0, Path);
    CHECK(Log.fileError().empty());
    Log.error("kernel ", "vecadd", " failed: ", -5);
    Log.warn("share ", 0.25, " too small: ", true);
    Log.info("plain ", std::string("info"), ' ', std::string_view("line"), " ", 42u);
    Log.debug(DebugCategory::Split, "not shown");
    Log.log(LogLevel::Debug, "not shown either");
  }
  CHECK(readFile(Path) == "libsplit: error: kernel vecadd failed: -5\n"
                          "libsplit: warning: share 0.25 too small: true\n"
                          "libsplit: plain info line 42\n");
}

TEST_CASE("levels filter messages", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  {
    Logger Log(LogLevel::Error, 0, Path);
    CHECK(Log.enabled(LogLevel::Error));
    CHECK_FALSE(Log.enabled(LogLevel::Warn));
    Log.warn("hidden");
    Log.info("hidden");
    Log.error("shown");
  }
  CHECK(readFile(Path) == "libsplit: error: shown\n");
}

TEST_CASE("debug categories select debug messages", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  {
    Logger Log(LogLevel::Warn, debugBit(DebugCategory::Mem) | debugBit(DebugCategory::Balance),
               Path);
    CHECK(Log.enabled(DebugCategory::Mem));
    CHECK(Log.enabled(DebugCategory::Balance));
    CHECK_FALSE(Log.enabled(DebugCategory::Split));
    CHECK_FALSE(Log.enabled(LogLevel::Info));
    Log.debug(DebugCategory::Mem, "copy ", 4096, " bytes");
    Log.debug(DebugCategory::Split, "hidden");
    Log.debug(DebugCategory::Balance, "shares 0.5,0.5");
  }
  CHECK(readFile(Path) == "libsplit: debug: mem: copy 4096 bytes\n"
                          "libsplit: debug: balance: shares 0.5,0.5\n");

  // LIBSPLIT_LOG=debug with no category chosen shows them all.
  Logger Everything(LogLevel::Debug, 0, Dir.file("all.txt"));
  CHECK(Everything.categories() == AllDebugCategories);
  for (std::size_t I = 0; I < DebugCategoryNames.size(); ++I)
    CHECK(Everything.enabled(static_cast<DebugCategory>(I)));
  Logger Chosen(LogLevel::Debug, debugBit(DebugCategory::Api), Dir.file("api.txt"));
  CHECK(Chosen.enabled(DebugCategory::Api));
  CHECK_FALSE(Chosen.enabled(DebugCategory::Mem));
}

TEST_CASE("every line of a message gets the prefix", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  {
    Logger Log(LogLevel::Warn, 0, Path);
    Log.warn("build log of program 3:\nline one\nline two\n");
    Log.warn("");
  }
  CHECK(readFile(Path) == "libsplit: warning: build log of program 3:\n"
                          "libsplit: warning: line one\n"
                          "libsplit: warning: line two\n"
                          "libsplit: warning: \n");
}

TEST_CASE("the log file is appended to", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  std::ofstream(Path) << "from an earlier run\n";
  {
    Logger Log(LogLevel::Warn, 0, Path);
    Log.warn("new");
  }
  {
    Logger Again(LogLevel::Warn, 0, Path);
    Again.warn("newer");
  }
  CHECK(readFile(Path) ==
        "from an earlier run\nlibsplit: warning: new\nlibsplit: warning: newer\n");
}

TEST_CASE("once() prints a key only the first time", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  {
    Logger Log(LogLevel::Warn, 0, Path);
    CHECK(Log.once("unsplit:vecadd", LogLevel::Warn, "kernel vecadd runs unsplit: atomics"));
    CHECK_FALSE(Log.once("unsplit:vecadd", LogLevel::Warn, "kernel vecadd runs unsplit: again"));
    CHECK(Log.once("unsplit:matmul", LogLevel::Warn, "kernel matmul runs unsplit: 1 group"));
    // Below the level: not printed and not remembered.
    CHECK_FALSE(Log.once("quiet", LogLevel::Info, "hidden"));
    CHECK_FALSE(Log.once("unsplit:vecadd", LogLevel::Error, "same key, other level"));
  }
  CHECK(readFile(Path) == "libsplit: warning: kernel vecadd runs unsplit: atomics\n"
                          "libsplit: warning: kernel matmul runs unsplit: 1 group\n");
}

TEST_CASE("lines from many threads stay whole", "[log]") {
  TempDir Dir;
  std::string Path = Dir.file("log.txt");
  constexpr int Threads = 8;
  constexpr int PerThread = 2000;
  const std::string Padding(150, 'x');
  {
    Logger Log(LogLevel::Info, 0, Path);
    std::vector<std::thread> Workers;
    for (int T = 0; T < Threads; ++T) {
      Workers.emplace_back([&Log, &Padding, T] {
        for (int M = 0; M < PerThread; ++M)
          Log.info("thread ", T, " message ", M, " ", Padding, "\nsecond line ", T, " ", M);
      });
    }
    for (std::thread &Worker : Workers)
      Worker.join();
  }
  std::istringstream Lines(readFile(Path));
  std::string First, Second;
  std::set<std::pair<int, int>> Seen;
  while (std::getline(Lines, First)) {
    REQUIRE(std::getline(Lines, Second));
    int T = -1, M = -1, T2 = -2, M2 = -2;
    char Rest[256] = {};
    REQUIRE(std::sscanf(First.c_str(), "libsplit: thread %d message %d %200s", &T, &M, Rest) == 3);
    CHECK(Rest == Padding);
    REQUIRE(std::sscanf(Second.c_str(), "libsplit: second line %d %d", &T2, &M2) == 2);
    CHECK(T == T2); // the two lines of one message are adjacent
    CHECK(M == M2);
    Seen.insert({T, M});
  }
  CHECK(Seen.size() == static_cast<std::size_t>(Threads * PerThread));
}

TEST_CASE("a log file that cannot be opened falls back to stderr, saying so", "[log]") {
  TempDir Dir;
  std::string Captured = Dir.file("stderr.txt");
  std::string Error;
  {
    StderrCapture Capture(Captured);
    Logger Log(LogLevel::Warn, 0, Dir.file("missing/dir/log.txt"));
    Error = Log.fileError();
    Log.warn("still visible");
  }
  CHECK(Error == "No such file or directory");
  CHECK(readFile(Captured) == "libsplit: warning: LIBSPLIT_LOG_FILE: cannot open '" +
                                  Dir.file("missing/dir/log.txt") +
                                  "': No such file or directory; logging to stderr\n"
                                  "libsplit: warning: still visible\n");
}

TEST_CASE("logging leaves errno as the app left it", "[log]") {
  TempDir Dir;
  Logger Log(LogLevel::Warn, 0, Dir.file("log.txt"));
  errno = EDOM;
  Log.warn("x");
  CHECK(errno == EDOM);
}

TEST_CASE("message parts format without the locale", "[log]") {
  using libsplit::config::detail::formatMessage;
  const char *Null = nullptr;
  CHECK(formatMessage("a", 'b', std::string("c"), std::string_view("d")) == "abcd");
  CHECK(formatMessage(-3, " ", 18446744073709551615ull, " ", 1.5, " ", 1e-7) ==
        "-3 18446744073709551615 1.5 1e-07");
  CHECK(formatMessage(Null) == "(null)");
  CHECK(formatMessage(false) == "false");
  CHECK(formatMessage(reinterpret_cast<const void *>(0x1234)) == "0x1234");
  CHECK(formatMessage(DebugCategory::Mem) == "1");
}
