// Which bytes of a root buffer are valid where: in the host copy (libsplit's, or the app's
// memory) and on each execution device. Buffer keeps one per root buffer and moves the bytes;
// this only says which must move. Pure: no OpenCL, no lock (the context's data lock guards it).
#pragma once

#include "range_set.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace libsplit {

class ByteValidity {
public:
  // Only the host copy is valid at first (zeros, or the app's data): treating never-written
  // bytes as valid everywhere would save a transfer, but devices would then hold different
  // garbage, and a merge by diff would take a device's garbage for a write. AppData: the host
  // copy is the app's data (written), not zeros.
  ByteValidity(std::size_t Devices, std::size_t Size, bool AppData);
  ByteValidity() = default; // nothing anywhere (a sub-buffer's: its root's holds its bytes)

  // The bytes of Wanted that Device (or the host) lacks.
  RangeSet missingOn(std::size_t Device, const RangeSet &Wanted) const;
  RangeSet missingOnHost(const RangeSet &Wanted) const;
  bool validOnHost(const RangeSet &Ranges) const;
  bool wholeOn(std::size_t Device, std::size_t Begin, std::size_t End) const;
  // Whether [Begin, End) is valid on Device and nowhere else, the host included, and was written.
  bool onlyOn(std::size_t Device, std::size_t Begin, std::size_t End) const;
  const RangeSet &onHost() const { return Host; }
  const RangeSet &on(std::size_t Device) const { return Devices[Device]; }
  std::size_t devices() const { return Devices.size(); }
  // Whether anything but the initial zeros was ever there.
  bool everWritten() const { return EverWritten; }
  // Changes with every call of the five below that changes anything (readable without the lock
  // that guards them): a launch that repeats the last one finds the bytes where that one left
  // them while it is unchanged (Kernel::RepeatMemo). A call that changes nothing leaves it: a
  // loop that swaps two buffers marks each written where it already was alone.
  std::uint64_t generation() const { return Changes.Count.load(std::memory_order_acquire); }

  // Ranges copied to Device, or to the host: valid there too.
  void markValidOn(std::size_t Device, const RangeSet &Ranges);
  void markValidOnHost(const RangeSet &Ranges);
  // Ranges written on Device, or on the host: valid there alone.
  void wroteOn(std::size_t Device, const RangeSet &Ranges);
  void wroteOnHost(const RangeSet &Ranges);
  // Ranges marked valid on Device for a copy that then never ran: no longer valid there. Only
  // for bytes another place still holds (the copy's source).
  void forgetOn(std::size_t Device, const RangeSet &Ranges);

private:
  RangeSet Host;
  std::vector<RangeSet> Devices;
  bool EverWritten = false;
  // The last range onlyOn found on one device alone, until anything changes: a loop of launches
  // that write a buffer on the app's device asks the same question at every launch.
  struct OnlyOnAnswer {
    std::size_t Device, Begin, End;
  };
  mutable std::optional<OnlyOnAnswer> OnlyOnKnown;
  // generation(): an atomic count that the class's copies keep.
  struct ChangeCount {
    std::atomic<std::uint64_t> Count{0};
    ChangeCount() = default;
    ChangeCount(const ChangeCount &Other) : Count(Other.Count.load()) {}
    ChangeCount &operator=(const ChangeCount &Other) {
      Count.store(Other.Count.load());
      return *this;
    }
  } Changes;
  // Whether Ranges, written in Place (the host where null), are valid there alone already and
  // were written: writing them there again changes nothing.
  bool writtenOnlyThere(const RangeSet *Place, const RangeSet &Ranges) const;
  // Every mutator first, where it changes something: the answer kept for onlyOn goes, the
  // generation moves on.
  void changing() {
    OnlyOnKnown.reset();
    Changes.Count.fetch_add(1, std::memory_order_acq_rel);
  }
};

} // namespace libsplit
