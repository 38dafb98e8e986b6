// After a split launch, a buffer whose slices' writes cannot simply stay on the devices that
// made them comes back to the host: every device started from the same snapshot, and each
// device's copy of the bytes its slice may have changed is read back and merged into the host
// copy. Two ways:
//   - by diff (written regions unknown or overlapping between slices): each element a device
//     changed replaces the snapshot's (diff_merge.hpp);
//   - by combination (global atomics, analysis/atomic_merge.hpp): per element, the devices'
//     copies combine into what one device running every work-item would have left (sums of
//     deltas, min, max, and, or, xor).
// The merged bytes are then valid on the host only, and travel to devices when next needed.
#pragma once

#include "buffer.hpp"

#include "libsplit/analysis/atomic_merge.hpp"

#include <cstdint>
#include <vector>

namespace libsplit {

// One device's part in a merge.
struct MergeSlice {
  ExecDevice *Device = nullptr;
  RangeSet Written;             // root coordinates: what its slice may have changed
  double TransferSeconds = 0.0; // added to: reading back and merging
  std::uint64_t BytesOut = 0;   // added to: bytes read back
};

// Root-coordinate bytes combined one way. Every slice's Written must cover them (each device
// held the snapshot there when its slice ran).
struct CombineSpan {
  Span Bytes;
  analysis::Combine How;
};

// Merges the slices' copies of Root into its host copy, which must still hold Snapshot (the
// whole root buffer as every device received it): Combines by combination, every other written
// byte by diff, element by element (ElementBytes: the size of the elements the kernel writes in
// Root, 1 when unknown). Marks the written bytes valid on the host alone.
cl_int mergeIntoHost(Buffer &Root, const std::vector<std::uint8_t> &Snapshot,
                     std::vector<MergeSlice> &Slices, const std::vector<CombineSpan> &Combines,
                     std::size_t ElementBytes);

} // namespace libsplit
