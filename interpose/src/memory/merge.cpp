#include "merge.hpp"

#include "diff_merge.hpp"

#include "libsplit/analysis/atomic_combine.hpp"

#include <chrono>

namespace libsplit {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

// A device's copy of [Begin, Begin + Bytes.size()) of the root buffer.
struct DeviceCopy {
  size_t Begin = 0;
  std::vector<std::uint8_t> Bytes;
  bool covers(const Span &S) const {
    return !Bytes.empty() && S.Begin >= Begin && S.End <= Begin + Bytes.size();
  }
  const std::uint8_t *at(size_t Offset) const { return Bytes.data() + (Offset - Begin); }
};

// Reads back, from every device at once, the hull of the bytes its slice may have written.
cl_int readBack(Buffer &Root, std::vector<MergeSlice> &Slices, std::vector<DeviceCopy> &Copies) {
  Copies.assign(Slices.size(), DeviceCopy{});
  std::vector<DeviceJob> Reads;
  for (size_t I = 0; I < Slices.size(); ++I) {
    MergeSlice &Slice = Slices[I];
    if (Slice.Written.empty())
      continue;
    const Span Hull{Slice.Written.spans().front().Begin, Slice.Written.spans().back().End};
    cl_int Error = CL_SUCCESS;
    cl_mem Source = Root.realOn(*Slice.Device, Error);
    if (!Source)
      return Error;
    Copies[I].Begin = Hull.Begin;
    Copies[I].Bytes.resize(Hull.size());
    Slice.BytesOut += Hull.size();
    std::uint8_t *Into = Copies[I].Bytes.data();
    MemoryServices &Services = Root.home().services();
    Reads.push_back({Slice.Device, [&Services, &Slice, Source, Into, Hull] {
                       const auto ReadStart = Clock::now();
                       const cl_int E = Services.Backend.read(Slice.Device->RealQueue, Source, true,
                                                              Hull.Begin, Hull.size(), Into);
                       Slice.TransferSeconds += secondsSince(ReadStart);
                       Services.Spans.span(Slice.Device->Name, "merge read", ReadStart,
                                           Clock::now());
                       return E;
                     }});
  }
  return runOnDevices(std::move(Reads));
}

} // namespace

cl_int mergeIntoHost(Buffer &Root, const std::vector<std::uint8_t> &Snapshot,
                     std::vector<MergeSlice> &Slices, const std::vector<CombineSpan> &Combines,
                     std::size_t ElementBytes) {
  std::vector<DeviceCopy> Copies;
  if (cl_int Error = readBack(Root, Slices, Copies); Error != CL_SUCCESS)
    return Error;
  std::uint8_t *Host = Root.hostData();

  // By diff, outside the combined spans. Only bytes the slice may have written are compared:
  // elsewhere (outside a sub-buffer, say) the device copy may be stale and must not be mistaken
  // for a write.
  RangeSet CombinedBytes;
  for (const CombineSpan &C : Combines)
    CombinedBytes.add(C.Bytes.Begin, C.Bytes.End);
  const auto DiffStart = Clock::now();
  std::vector<DiffCopy> Diffed;
  for (size_t I = 0; I < Slices.size(); ++I)
    if (!Copies[I].Bytes.empty())
      Diffed.push_back({Copies[I].Bytes.data(), Copies[I].Begin, Slices[I].Written});
  const RangeSet Merged = mergeByDiff(Host, Snapshot.data(), Diffed, CombinedBytes, ElementBytes);
  if (!Slices.empty()) {
    const double Share = secondsSince(DiffStart) / static_cast<double>(Slices.size());
    for (MergeSlice &Slice : Slices)
      Slice.TransferSeconds += Share;
  }

  // By combination: the host copy still holds the snapshot there. The launch gives every slice
  // every span; a copy that does not cover one (never the case) would be left out rather than
  // read out of bounds.
  const auto CombineStart = Clock::now();
  for (const CombineSpan &C : Combines) {
    std::vector<const std::uint8_t *> From;
    for (const DeviceCopy &Copy : Copies)
      if (Copy.covers(C.Bytes))
        From.push_back(Copy.at(C.Bytes.Begin));
    analysis::combineCopies(C.How, Host + C.Bytes.Begin, From, C.Bytes.size());
  }
  if (!Combines.empty() && !Slices.empty()) {
    const double Share = secondsSince(CombineStart) / static_cast<double>(Slices.size());
    for (MergeSlice &Slice : Slices)
      Slice.TransferSeconds += Share;
  }
  Root.wroteOnHost(Merged);
  return CL_SUCCESS;
}

} // namespace libsplit
