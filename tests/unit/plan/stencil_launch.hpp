// A 1-D three-point stencil launch (out[i] = in[i - 1] + in[i] + in[i + 1] for 0 < i < n - 1) on
// the fake backend of tests/unit/memory: its regions as libsplit-cc writes them, its two buffers
// written once from the host, the launch's NDRange and arguments. What the plan tests and the
// planner's host-cost tool cut and price.
#pragma once

#include "launch_plan.hpp"
#include "test_home.hpp"

#include "libsplit/analysis/summary_text.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace libsplit::testing {

struct StencilLaunch {
  std::size_t Items, Local, Groups, Bytes;
  std::shared_ptr<TestHome> Home;
  std::shared_ptr<Buffer> In, Out;
  CompiledKernel Facts;
  LaunchRequest R;

  StencilLaunch(std::size_t Devices, std::size_t Items, std::size_t Local,
                bool SharedContext = false)
      : Items(Items), Local(Local), Groups(Items / Local), Bytes(Items * 4),
        Home(std::make_shared<TestHome>(Devices, config::DeferMode::Copy, SharedContext)) {
    analysis::ProgramSummary Program;
    std::string Error;
    if (!analysis::parseSummary(Summary, Program, Error))
      throw std::logic_error("the stencil's summary: " + Error);
    Facts.Name = "stencil";
    Facts.AppArgCount = 3;
    Facts.Splittable = true;
    Facts.Regions = *Program.find("stencil");
    In = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, Bytes, nullptr);
    Out = std::make_shared<Buffer>(Home, CL_MEM_READ_WRITE, Bytes, nullptr);
    if (In->initialize() != CL_SUCCESS || Out->initialize() != CL_SUCCESS)
      throw std::logic_error("the stencil's buffers");
    const std::vector<std::uint8_t> Zeros(Bytes, 0);
    In->write(0, Bytes, Zeros.data(), Buffer::HostSource::App);
    Out->write(0, Bytes, Zeros.data(), Buffer::HostSource::App);
    R.WorkDim = 1;
    R.Global = {Items, 1, 1};
    R.Local = {Local, 1, 1};
    R.LocalGiven = true;
    R.Args.resize(3);
    R.Args[0].What = R.Args[1].What = KernelArg::Kind::Buffer;
    R.Args[0].Mem = In;
    R.Args[1].Mem = Out;
    const auto N = static_cast<std::uint32_t>(Items);
    const auto *Raw = reinterpret_cast<const std::uint8_t *>(&N);
    R.Args[2].What = KernelArg::Kind::Bytes;
    R.Args[2].Value.assign(Raw, Raw + sizeof(N));
  }

  // Device I runs work-groups [Cuts[I], Cuts[I + 1]).
  std::vector<Slice> slices(const std::vector<std::size_t> &Cuts) const {
    std::vector<Slice> Out;
    for (std::size_t I = 0; I + 1 < Cuts.size(); ++I)
      Out.push_back({Home->devices()[I].get(), Cuts[I], Cuts[I + 1]});
    return Out;
  }

  std::map<Buffer *, BufferPlan> plan(const std::vector<Slice> &Slices) const {
    return planBuffers(Facts, R, Slices, true, ndrangeOf(R), scalarsOf(R), 0);
  }

  static constexpr const char *Summary = R"(libsplit-summary 2
kernel stencil splittable
arg 0 global - in
  access read guard gid0 1 (sub arg2 2) bytes (mul (sub gid0 1) 4) (add (mul (add gid0 1) 4) 3)
arg 1 global - out
  access write guard gid0 1 (sub arg2 2) bytes (mul gid0 4) (add (mul gid0 4) 3)
arg 2 scalar u32 n
end
)";
};

} // namespace libsplit::testing
