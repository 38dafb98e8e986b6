// Speed of the region evaluator (the target: under 2 microseconds per argument per device, so
// that evaluating regions costs a launch little): evaluates a 2D stencil's summary for a slice,
// many times, and reports the time per argument evaluation.
#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/analysis/summary_text.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

int main() {
  const char *Text = R"(libsplit-summary 2
kernel stencil splittable
arg 0 global - in
  access read guard gid0 1 (sub arg2 2) guard gid1 1 (sub arg3 2) bytes (mul (add (mul (sub gid1 1) arg2) gid0) 4) (add (mul (add (mul (add gid1 1) arg2) gid0) 4) 3)
  access read guard gid0 0 (sub arg2 1) guard gid1 0 (sub arg3 1) bytes (mul (add (mul gid1 arg2) gid0) 4) (add (mul (add (mul gid1 arg2) gid0) 4) 3)
arg 1 global - out
  access write guard gid0 0 (sub arg2 1) guard gid1 0 (sub arg3 1) bytes (mul (add (mul gid1 arg2) gid0) 4) (add (mul (add (mul gid1 arg2) gid0) 4) 3)
arg 2 scalar i32 nx
arg 3 scalar i32 ny
end
)";
  libsplit::analysis::ProgramSummary Program;
  std::string Error;
  if (!libsplit::analysis::parseSummary(Text, Program, Error)) {
    std::fprintf(stderr, "%s\n", Error.c_str());
    return 1;
  }
  libsplit::analysis::NDRange R;
  R.WorkDim = 2;
  R.Global = {4096, 4096, 1};
  R.Local = {16, 16, 1};
  libsplit::analysis::LaunchArgs Args;
  const int N = 4096;
  Args.ScalarBytes = {{}, {}, std::vector<std::uint8_t>(4), std::vector<std::uint8_t>(4)};
  std::memcpy(Args.ScalarBytes[2].data(), &N, 4);
  std::memcpy(Args.ScalarBytes[3].data(), &N, 4);
  const int Rounds = 200000;
  std::size_t Sink = 0;
  const auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < Rounds; ++I) {
    auto Regions = libsplit::analysis::evaluateSlice(Program.Kernels[0], R, Args,
                                                     {1, static_cast<std::uint64_t>(I % 100), 200});
    Sink += Regions[0].Read.ranges().size();
  }
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  // Two buffer arguments per evaluation (the scalars cost nothing).
  std::printf("region_eval_speed: %.3f us per slice (2 buffer arguments, 3 accesses), %.3f us per "
              "argument (%zu)\n",
              1e6 * Seconds / Rounds, 1e6 * Seconds / Rounds / 2, Sink % 7);
  return 0;
}
