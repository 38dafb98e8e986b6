#include "slice_regions.hpp"

namespace libsplit {

bool SliceRegionMemo::sameShape(const analysis::KernelSummary &Kernel,
                                const analysis::NDRange &Asked,
                                const analysis::LaunchArgs &Scalars) const {
  return Summary == &Kernel && Range.WorkDim == Asked.WorkDim && Range.Global == Asked.Global &&
         Range.Local == Asked.Local && Range.Offset == Asked.Offset &&
         Args.ScalarBytes == Scalars.ScalarBytes;
}

analysis::SharedRegions SliceRegionMemo::regions(const analysis::KernelSummary &Kernel,
                                                 const analysis::NDRange &Asked,
                                                 const analysis::LaunchArgs &Scalars,
                                                 const analysis::Slice &S) {
  const auto Key = std::make_tuple(S.SplitDim, S.FirstGroup, S.EndGroup);
  std::shared_ptr<const analysis::AccessForms> Known;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (sameShape(Kernel, Asked, Scalars)) {
      if (auto Kept = Slices.find(Key); Kept != Slices.end())
        return Kept->second;
      Known = Forms;
    } else {
      Summary = &Kernel;
      Range = Asked;
      Args = Scalars;
      Slices.clear();
      Forms.reset();
    }
  }
  if (!Known) {
    Known = std::make_shared<const analysis::AccessForms>(
        analysis::accessForms(Kernel, Asked, Scalars));
    std::lock_guard<std::mutex> Lock(Mutex);
    if (sameShape(Kernel, Asked, Scalars) && !Forms)
      Forms = Known;
  }
  auto Regions = std::make_shared<const std::vector<analysis::ArgRegions>>(
      analysis::evaluateSlice(Kernel, Asked, Scalars, S, Known.get()));
  std::lock_guard<std::mutex> Lock(Mutex);
  ++Evaluated;
  if (sameShape(Kernel, Asked, Scalars)) {
    if (Slices.size() >= MaxSlices)
      Slices.clear();
    Slices.emplace(Key, Regions);
  }
  return Regions;
}

} // namespace libsplit
