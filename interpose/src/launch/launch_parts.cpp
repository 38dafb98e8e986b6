#include "launch_parts.hpp"

#include "launch_plan.hpp"
#include "split_launch.hpp"

#include "libsplit/analysis/evaluator.hpp"
#include "libsplit/planner/chunking.hpp"
#include "libsplit/planner/group_size.hpp"

#include <algorithm>
#include <cstdint>

namespace libsplit {

LaunchRecord recordOf(const Kernel &K, const LaunchRequest &R) {
  LaunchRecord Rec;
  Rec.Kernel = K.name();
  Rec.WorkDim = R.WorkDim;
  for (cl_uint D = 0; D < R.WorkDim; ++D) {
    Rec.Global[D] = R.Global[D];
    Rec.Local[D] = R.LocalGiven ? R.Local[D] : 0;
    Rec.Offset[D] = R.Offset[D];
  }
  return Rec;
}

std::array<size_t, 3> chooseLocalSize(Kernel &K, const LaunchRequest &R,
                                      const std::vector<ExecDevice *> &Devices) {
  size_t Limit = SIZE_MAX;
  bool AllGpus = !Devices.empty();
  for (ExecDevice *D : Devices) {
    Limit = std::min({Limit, D->MaxWorkGroupSize, D->MaxWorkItemSizes[0]});
    if (const size_t KernelLimit = K.splitGroupLimit(*D))
      Limit = std::min(Limit, KernelLimit);
    AllGpus = AllGpus && (D->Type & CL_DEVICE_TYPE_GPU) != 0;
  }
  return {planner::implicitGroupSize(R.Global[0], AllGpus, Limit == SIZE_MAX ? 0 : Limit), 1, 1};
}

bool canRun(Kernel &K, ExecDevice &Device, const LaunchRequest &R, std::string &Why) {
  if (K.program().splitBuildPending(Device)) {
    Why = "its partition-ready program is still being built";
    return false;
  }
  cl_int Error = CL_SUCCESS;
  cl_kernel Real = K.realFor(Device, true, Error);
  if (!Real) {
    Why = "its partition-ready kernel cannot be created (error " + std::to_string(Error) + ")";
    return false;
  }
  size_t GroupSize = 1;
  for (cl_uint D = 0; D < R.WorkDim; ++D) {
    GroupSize *= R.Local[D];
    if (D < Device.MaxWorkItemSizes.size() && R.Local[D] > Device.MaxWorkItemSizes[D]) {
      Why = "local size " + std::to_string(R.Local[D]) + " in dimension " + std::to_string(D) +
            " exceeds the device's " + std::to_string(Device.MaxWorkItemSizes[D]);
      return false;
    }
  }
  const size_t KernelLimit = K.splitGroupLimit(Device);
  if (KernelLimit && GroupSize > KernelLimit) {
    Why = "work-groups of " + std::to_string(GroupSize) + " exceed the kernel's limit of " +
          std::to_string(KernelLimit) + " there";
    return false;
  }
  const cl_ulong StaticLocal = K.splitLocalBytes(Device);
  cl_ulong DynamicLocal = 0;
  for (const KernelArg &A : R.Args)
    if (A.What == KernelArg::Kind::Local)
      DynamicLocal += A.LocalSize;
  // The query may or may not count __local arguments already set: take the larger reading.
  const cl_ulong Needed = std::max(StaticLocal, DynamicLocal);
  if (Device.LocalMemSize && Needed > Device.LocalMemSize) {
    Why = "it needs " + std::to_string(Needed) + " bytes of local memory, the device has " +
          std::to_string(Device.LocalMemSize);
    return false;
  }
  return true;
}

double workItems(const LaunchRequest &R) {
  double Work = 1.0;
  for (cl_uint D = 0; D < R.WorkDim; ++D)
    Work *= static_cast<double>(R.Global[D]);
  return Work;
}

std::optional<SplitShape> shapeOf(const CompiledKernel &Facts, const LaunchRequest &R,
                                  const config::Config &Settings, std::string &Why, bool &Movable) {
  SplitShape Shape;
  Shape.Regions = hasRegions(Facts, R);
  if (std::string Obstacle = atomicsObstacle(Facts, R, Shape.Regions); !Obstacle.empty()) {
    Why = std::move(Obstacle);
    Movable = true;
    return std::nullopt;
  }
  // Split along a dimension whose slices write disjoint bytes when the regions say so (no
  // merge needed): among those, the one whose halves write the fewest ranges (the rows of a
  // row-major matrix rather than its columns), then the one with the most work-groups.
  std::vector<std::uint32_t> Candidates;
  std::vector<std::size_t> WriteRanges(3, 0);
  if (Shape.Regions) {
    const analysis::NDRange Range = ndrangeOf(R);
    const analysis::LaunchArgs Scalars = scalarsOf(R);
    auto regions = [&](const analysis::Slice &S) {
      return sliceRegions(Facts, R, Range, Scalars, S);
    };
    Candidates = analysis::disjointWriteDims(Range, regions);
    if (Candidates.size() > 1)
      for (std::uint32_t D : Candidates)
        for (const analysis::ArgRegions &Arg : *regions({D, 0, Range.numGroups(D) / 2}))
          WriteRanges[D] += Arg.Write.ranges().size();
  }
  Shape.DisjointWrites = !Candidates.empty();
  if (Candidates.empty())
    for (cl_uint D = 0; D < R.WorkDim; ++D)
      Candidates.push_back(D);
  Shape.Dim = Candidates.front();
  for (std::uint32_t D : Candidates)
    if (WriteRanges[D] < WriteRanges[Shape.Dim] ||
        (WriteRanges[D] == WriteRanges[Shape.Dim] &&
         R.Global[D] / R.Local[D] > R.Global[Shape.Dim] / R.Local[Shape.Dim]))
      Shape.Dim = D;
  Shape.Groups = R.Global[Shape.Dim] / R.Local[Shape.Dim];
  const size_t MinGroups = std::max<unsigned>(Settings.MinGroupsPerDevice, 1);
  if (Shape.Groups / MinGroups < 2) {
    Why = "too few work-groups (" + std::to_string(Shape.Groups) + ") to split";
    Movable = false;
    return std::nullopt;
  }
  return Shape;
}

balancer::LaunchKey launchKey(Kernel &K, const LaunchRequest &R, cl_uint Dim) {
  balancer::LaunchKey Key;
  Key.Kernel = K.name() + "@" + K.program().sourceKey();
  Key.WorkDim = R.WorkDim;
  for (cl_uint D = 0; D < 3; ++D) {
    Key.Global[D] = R.Global[D];
    Key.Local[D] = R.Local[D];
  }
  Key.SplitDim = Dim;
  return Key;
}

bool takesChunks(const ExecDevice &Device, const ExecDevice &Home, const config::Config &Settings) {
  const cl_device_type Mask = ~static_cast<cl_device_type>(CL_DEVICE_TYPE_DEFAULT);
  return Settings.FirstSplit == config::FirstSplitMode::Uniform ||
         (Device.Type & Mask) == (Home.Type & Mask);
}

bool chunkTakersBeside(const ExecDevice &Home, const std::vector<ExecDevice *> &Devices,
                       const config::Config &Settings) {
  return std::any_of(Devices.begin(), Devices.end(), [&](const ExecDevice *D) {
    return D != &Home && takesChunks(*D, Home, Settings);
  });
}

void plannedLaunch(PlannedLaunch &L, Queue &Q, Kernel &K, const LaunchRequest &R,
                   const CompiledKernel &Facts, cl_uint Dim, size_t Groups, bool Fail,
                   LaunchRecord Base) {
  L.Q = &Q;
  L.K = &K;
  L.R = &R;
  L.Facts = &Facts;
  L.Dim = Dim;
  L.Groups = Groups;
  L.Key = launchKey(K, R, Dim);
  L.Fail = Fail;
  L.Base = std::move(Base);
}

ChunkedLaunch chunkedLaunch(Queue &Q, Kernel &K, const LaunchRequest &R,
                            const CompiledKernel &Facts, const SplitShape &Shape, ExecDevice &Home,
                            bool Fail, LaunchRecord Base) {
  ChunkedLaunch L;
  plannedLaunch(L, Q, K, R, Facts, Shape.Dim, Shape.Groups, Fail, std::move(Base));
  L.Regions = Shape.Regions;
  L.DisjointWrites = Shape.DisjointWrites;
  L.Home = &Home;
  L.ElementBytes = [&K, &R, &Home](Buffer &Root) { return writtenElementBytes(K, R, Root, Home); };
  return L;
}

bool fillsDevice(const ExecDevice &Device, const LaunchRequest &R) {
  std::size_t ItemsPerGroup = 1;
  for (cl_uint D = 0; R.LocalGiven && D < R.WorkDim; ++D)
    ItemsPerGroup *= R.Local[D];
  return planner::fillsDevice((Device.Type & CL_DEVICE_TYPE_GPU) != 0, Device.ComputeUnits,
                              ItemsPerGroup, workItems(R));
}

void timeOnDevice(planner::PipelinedSlice &Cost, const RealTimes &First, const RealTimes &Last,
                  std::atomic<cl_ulong> &LastEnd) {
  const auto since = [&](cl_ulong Ns) {
    return static_cast<double>(static_cast<std::int64_t>(Ns - First.Queued)) * 1e-9;
  };
  Cost.LaunchBegan = -Cost.HostBefore;
  Cost.FirstStart = since(First.Start);
  Cost.End = since(Last.End);
  cl_ulong Before = LastEnd.load(std::memory_order_relaxed);
  while (Before < Last.End &&
         !LastEnd.compare_exchange_weak(Before, Last.End, std::memory_order_relaxed)) {
  }
  if (Before != 0)
    Cost.PreviousEnd = since(Before);
}

} // namespace libsplit
