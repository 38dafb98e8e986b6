#include "libsplit/balancer/balancer.hpp"
#include "libsplit/balancer/warm_start.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

using namespace libsplit::balancer;
namespace fs = std::filesystem;

static LaunchKey key(const std::string &Kernel) {
  LaunchKey K;
  K.Kernel = Kernel;
  K.WorkDim = 2;
  K.Global = {1024, 512, 1};
  K.Local = {16, 16, 1};
  K.SplitDim = 1;
  return K;
}

namespace {
// A fresh directory per test, removed afterwards.
struct TempDir {
  fs::path Path;
  TempDir() {
    std::random_device Seed;
    Path = fs::temp_directory_path() /
           ("libsplit-balancer-test-" + std::to_string(std::mt19937_64(Seed())()));
    fs::create_directories(Path);
  }
  ~TempDir() {
    std::error_code Ignored;
    fs::remove_all(Path, Ignored);
  }
};
} // namespace

TEST_CASE("records round-trip through the text format", "[warmstart]") {
  std::vector<WarmStartRecord> Records = {{key("matmul"), {0.1 + 0.2, 1.0 - (0.1 + 0.2)}},
                                          {key("odd name,%\twith\nstuff"), {1.0, 0.0}},
                                          {key(""), {0.25, 0.25, 0.5}}};
  std::string Text = formatWarmStart("gpu 0, cpu 1", Records);
  CHECK(Text.rfind("libsplit-balancer-warm-start 1\ndevices =gpu%200%2C%20cpu%201\n", 0) == 0);
  CHECK(Text.find("key =matmul 2 1024,512,1 16,16,1 1 0.30000000000000004,0.7\n") !=
        std::string::npos);
  WarmStartLoad Load = parseWarmStart(Text, "gpu 0, cpu 1", "test");
  REQUIRE(Load.Error.empty());
  REQUIRE(Load.Records.size() == 3);
  for (std::size_t I = 0; I < 3; ++I) {
    CHECK(Load.Records[I].Key == Records[I].Key);
    CHECK(Load.Records[I].Shares == Records[I].Shares); // bit for bit
  }
}

TEST_CASE("a corrupt file is ignored as a whole, with the line", "[warmstart]") {
  std::string Good = formatWarmStart("sig", {{key("k"), {0.5, 0.5}}});
  auto errorOf = [](const std::string &Text) { return parseWarmStart(Text, "sig", "f").Error; };
  CHECK(errorOf(Good).empty());
  CHECK(errorOf("") == "f:1: file ends before the 'devices' line; warm start ignored");
  CHECK(errorOf("garbage\n") ==
        "f:1: not a libsplit balancer warm-start file (version 1); warm start ignored");
  CHECK(errorOf(Good + "key =x 1 1,1,1 1,1,1 0 0.5,0.4\n") ==
        "f:4: shares do not sum to 1; warm start ignored");
  CHECK(errorOf(Good + "key =x 4 1,1,1 1,1,1 0 1\n").find("work dimension") != std::string::npos);
  CHECK(errorOf(Good + "key =x 1 1,1,1 1,1,1 1 1\n").find("split dimension") != std::string::npos);
  CHECK(errorOf(Good + "key =x 1 1,1 1,1,1 0 1\n").find("sizes") != std::string::npos);
  CHECK(errorOf(Good + "key x 1 1,1,1 1,1,1 0 1\n").find("kernel") != std::string::npos);
  CHECK(errorOf(Good + "key =x%4 1 1,1,1 1,1,1 0 1\n").find("kernel") != std::string::npos);
  CHECK(errorOf(Good + "key =x 1 1,1,1 1,1,1 0 -1,2\n").find("non-negative") != std::string::npos);
  CHECK(errorOf(Good.substr(0, Good.size() - 10)).find("f:3:") == 0);
  WarmStartLoad Corrupt = parseWarmStart(Good + "key\n", "sig", "f");
  CHECK(Corrupt.Records.empty());
  // Comments, blank lines and CRLF are fine.
  CHECK(errorOf("# saved by hand\r\n\r\n" + Good).empty());
}

TEST_CASE("records made on other devices do not apply", "[warmstart]") {
  std::string Text = formatWarmStart("gpu", {{key("k"), {0.5, 0.5}}});
  WarmStartLoad Load = parseWarmStart(Text, "cpu", "f");
  CHECK(Load.Records.empty());
  CHECK(Load.Error == "f:2: recorded for other devices ('gpu'); warm start ignored");
}

TEST_CASE("save and load through a directory", "[warmstart]") {
  TempDir Dir;
  WarmStartLoad Missing = loadWarmStart(Dir.Path, "sig");
  CHECK_FALSE(Missing.Found);
  CHECK(Missing.Error.empty());

  std::vector<WarmStartRecord> Records = {{key("k"), {0.75, 0.25}}};
  REQUIRE(saveWarmStart(Dir.Path, "sig", Records).empty());
  // Replaced atomically: the final file only, no temporary left behind.
  std::vector<fs::path> Files;
  for (const fs::directory_entry &E : fs::directory_iterator(Dir.Path))
    Files.push_back(E.path().filename());
  CHECK(Files == std::vector<fs::path>{std::string(WarmStartFileName)});

  WarmStartLoad Load = loadWarmStart(Dir.Path, "sig");
  CHECK(Load.Found);
  REQUIRE(Load.Records.size() == 1);
  CHECK(Load.Records[0].Shares == Records[0].Shares);

  REQUIRE(saveWarmStart(Dir.Path, "sig", {}).empty());
  CHECK(loadWarmStart(Dir.Path, "sig").Records.empty());

  std::ofstream(Dir.Path / std::string(WarmStartFileName)) << "libsplit-balancer-warm-start 1\n"
                                                              "devices =sig\nkey =k 1\n";
  WarmStartLoad Bad = loadWarmStart(Dir.Path, "sig");
  CHECK(Bad.Found);
  CHECK(Bad.Records.empty());
  CHECK(Bad.Error.find(":3: expected 'key") != std::string::npos);

  CHECK_FALSE(saveWarmStart(Dir.Path / "no" / "such" / "dir", "sig", Records).empty());
}

static std::vector<DeviceMeasurement> measure(const Split &S, const std::vector<double> &Cost) {
  std::vector<DeviceMeasurement> M(S.Slices.size());
  for (std::size_t I = 0; I < M.size(); ++I) {
    M[I].Groups = S.Slices[I].Groups;
    M[I].FirstGroup = S.Slices[I].FirstGroup;
    M[I].KernelSeconds = static_cast<double>(M[I].Groups) * Cost[I];
  }
  return M;
}

TEST_CASE("a seeded balancer starts from the converged shares and holds them", "[warmstart]") {
  LaunchKey K = key("k");
  Balancer First;
  for (int I = 0; I < 3; ++I)
    First.observe(K, measure(First.propose(K, 1000, 2), {1e-6, 3e-6}));
  std::vector<WarmStartRecord> Records = First.warmStartRecords();
  REQUIRE(Records.size() == 1);
  CHECK(Records[0].Shares == std::vector<double>{0.75, 0.25});

  Balancer Second;
  Second.seed(Records);
  // Seeded but not yet seen keys are saved again, not lost.
  CHECK(Second.warmStartRecords().size() == 1);
  Split S = Second.propose(K, 1000, 2);
  CHECK(S.Slices[0].Groups == 750);
  CHECK(Second.trace(K)->State == "initial");
  Second.observe(K, measure(S, {1e-6, 3e-6}));
  CHECK(Second.trace(K)->State == "converged");
  // A record for another device count is not used.
  CHECK(Second.propose(K, 1000, 3).Slices[0].Groups == 334);
}

TEST_CASE("a balancer knows a key it was seeded with or launched", "[warmstart]") {
  Balancer B;
  CHECK_FALSE(B.knows(key("seeded")));
  B.seed({{key("seeded"), {0.5, 0.5}}});
  CHECK(B.knows(key("seeded")));
  CHECK_FALSE(B.knows(key("launched")));
  B.propose(key("launched"), 100, 2);
  CHECK(B.knows(key("launched")));
}

TEST_CASE("a searching key has nothing to save", "[warmstart]") {
  Balancer B;
  LaunchKey K = key("k");
  B.observe(K, measure(B.propose(K, 1000, 2), {1e-6, 3e-6}));
  CHECK(B.trace(K)->State == "search");
  CHECK(B.warmStartRecords().empty());
}
