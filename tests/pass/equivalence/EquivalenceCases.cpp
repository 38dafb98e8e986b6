#include "EquivalenceCases.h"

namespace libsplit::test {

namespace {

size_t items(const Launch &App) { return App.Global[0] * App.Global[1] * App.Global[2]; }

ArgSpec output(size_t Bytes) { return {ArgKind::Output, Bytes, 0}; }
ArgSpec input(size_t Bytes) { return {ArgKind::Input, Bytes, 0}; }
ArgSpec local(size_t Bytes) { return {ArgKind::Local, Bytes, 0}; }
ArgSpec uintArg(cl_uint Value) { return {ArgKind::UInt, 0, Value}; }

/// record.cl writes 29 ulongs per work-item.
EquivalenceCase record(std::string Name, unsigned WorkDim, Launch App) {
  EquivalenceCase Case{std::move(Name), "record.cl", "record", {}, WorkDim, App, {}};
  Case.Args = {output(items(App) * 29 * sizeof(cl_ulong))};
  return Case;
}

EquivalenceCase helpers(std::string Name, std::string Kernel, unsigned WorkDim, Launch App) {
  EquivalenceCase Case{std::move(Name),
                       "helpers.cl",
                       std::move(Kernel),
                       {"-I", "@KERNELS@/include", "-DSCALE=3"},
                       WorkDim,
                       App,
                       {output(items(App) * 4 * sizeof(cl_ulong))}};
  if (Case.Kernel == "describeTwice")
    Case.Args.push_back(output(items(App) * sizeof(cl_ulong)));
  return Case;
}

// Every case has at least 7 work-groups in every dimension, so that 7 slices
// along any dimension are all non-empty.
std::vector<EquivalenceCase> makeCases() {
  std::vector<EquivalenceCase> Cases;
  Cases.push_back(record("record_1d", 1, {{0, 0, 0}, {56, 1, 1}, {4, 1, 1}}));
  Cases.push_back(record("record_1d_offset", 1, {{13, 0, 0}, {56, 1, 1}, {4, 1, 1}}));
  Cases.push_back(record("record_2d_offset", 2, {{5, 9, 0}, {24, 21, 1}, {3, 3, 1}}));
  Cases.push_back(record("record_3d", 3, {{0, 0, 0}, {14, 21, 16}, {2, 3, 2}}));
  Cases.push_back(record("record_3d_offset", 3, {{3, 1, 4}, {14, 21, 16}, {2, 3, 2}}));

  Cases.push_back(helpers("helpers_2d_offset", "describe", 2, {{4, 6, 0}, {16, 14, 1}, {2, 2, 1}}));
  Cases.push_back(
      helpers("helpers_3d_kernel_call", "describeTwice", 3, {{1, 2, 3}, {14, 14, 14}, {2, 2, 2}}));

  {
    Launch App{{8, 12, 0}, {32, 28, 1}, {4, 4, 1}};
    EquivalenceCase Case{"group_sums_2d_offset", "groups.cl", "groupSums", {}, 2, App, {}};
    Case.Args = {input(items(App) * sizeof(float)), output(8 * 7 * sizeof(float)),
                 local(16 * sizeof(float))};
    Cases.push_back(Case);
  }
  {
    Launch App{{100, 0, 0}, {64, 1, 1}, {8, 1, 1}};
    EquivalenceCase Case{"grid_stride_1d_offset", "groups.cl", "gridStride", {}, 1, App, {}};
    Case.Args = {input(1000 * sizeof(float)), output(1000 * sizeof(float)), uintArg(1000)};
    Cases.push_back(Case);
  }
  {
    Launch App{{32, 0, 0}, {128, 1, 1}, {16, 1, 1}};
    EquivalenceCase Case{"block_copy_1d_offset", "groups.cl", "blockCopy", {}, 1, App, {}};
    Case.Args = {input(128 * sizeof(float)), output(128 * sizeof(float))};
    Cases.push_back(Case);
  }
  {
    Launch App{{2, 3, 5}, {14, 14, 16}, {2, 2, 2}};
    EquivalenceCase Case{
        "linear_id_3d_offset", "linear_id.cl", "linearIds", {"-cl-std=CL3.0"}, 3, App, {}};
    Case.Args = {output(items(App) * 2 * sizeof(cl_ulong))};
    Cases.push_back(Case);
  }

  {
    Launch App{{4, 6, 0}, {28, 21, 1}, {4, 3, 1}};
    EquivalenceCase Case{"offset_exact_2d_offset", "offsets.cl", "offsetRows", {}, 2, App, {}};
    Case.Args = {input(items(App) * sizeof(float)), output(items(App) * sizeof(float)), uintArg(4),
                 uintArg(6), uintArg(28)};
    Case.OffsetExact = true;
    Cases.push_back(Case);
  }

  EquivalenceCase Check = record("self_check", 2, {{5, 9, 0}, {24, 21, 1}, {3, 3, 1}});
  Check.SelfCheck = true;
  Cases.push_back(Check);
  return Cases;
}

} // namespace

const std::vector<EquivalenceCase> &equivalenceCases() {
  static const std::vector<EquivalenceCase> Cases = makeCases();
  return Cases;
}

} // namespace libsplit::test
