// What a launch run directly on the app's device left behind, so that the kernel's next launch on
// the same queue, with the same buffers, can repeat it: enqueue the real kernel and nothing else
// (launchRepeat, launch/launch.hpp). A loop of short launches that never splits (a 1-D stencil, a
// factorization's steps while the split devices are not open) otherwise pays at every launch for
// a snapshot of its arguments, each buffer held, checked and marked where it is valid: the same
// answers as the launch before.
#pragma once

#include "buffer.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace libsplit {

struct RepeatMemo {
  // Buffers a repeatable launch names at most (each argument counts, repeats included).
  static constexpr std::size_t MaxBuffers = 8;

  std::uint64_t OnQueue = 0; // the queue it ran on (Queue::serial)
  std::size_t Device = 0;    // the execution device's index
  // Kernel::rememberRepeat's counts when its arguments were taken: the buffers, and the scalars
  // (with the scalars unchanged, the real kernel still has them all from that launch).
  std::uint64_t BufferArgs = 0, AllArgs = 0;
  // Kernel::realArgSets once that launch had set them on the real kernel: the real kernel still
  // has them where no launch through another queue of the device set others since.
  std::uint64_t NonScalarSets = 0, Sets = 0;
  // The queue's unfinished entry that holds its buffers alive (Queue::endDirect's answer): while
  // that entry is the newest one and open to later launches, the buffers are alive too.
  std::uint64_t Entry = 0;
  // Each buffer argument's root and its ByteValidity::generation once the launch had marked what
  // it wrote: every byte was valid on the device, and what it wrote there alone. Unchanged, the
  // next launch would find and leave everything as it is.
  std::size_t Buffers = 0;
  std::array<std::pair<const Buffer *, std::uint64_t>, MaxBuffers> Validity{};
  // Each buffer argument's index, object and real memory object on the device, as that launch
  // left them on the real kernel (Kernel::describeRepeat): a launch whose arguments are this
  // memo's again after a launch with others (a loop that swaps two buffers) sets those back on
  // the real kernel and repeats it (Kernel keeps the memo before the last one too).
  struct ArgBuffer {
    cl_uint Index = 0;
    const Buffer *Object = nullptr;
    cl_mem Real = nullptr;
  };
  std::size_t ArgBufferCount = 0;
  std::array<ArgBuffer, MaxBuffers> ArgBuffers{};
  // Every argument that is not a scalar is a buffer (only such a memo is set back), and the
  // kernel's clSetKernelExecInfo changes when the real kernel had them (a set-back repeat does
  // not apply others).
  bool OnlyBufferArgs = false;
  std::size_t ExecInfoChanges = 0;

  // The same buffer objects at the same indices as Other's.
  bool sameBuffers(const RepeatMemo &Other) const {
    if (ArgBufferCount != Other.ArgBufferCount)
      return false;
    for (std::size_t I = 0; I < ArgBufferCount; ++I)
      if (ArgBuffers[I].Index != Other.ArgBuffers[I].Index ||
          ArgBuffers[I].Object != Other.ArgBuffers[I].Object)
        return false;
    return true;
  }

  // Whether the buffers' bytes are where that launch left them. Only while the entry above holds
  // them (Queue::beginDirect checks that first, under its lock).
  bool dataUnchanged() const {
    for (std::size_t I = 0; I < Buffers; ++I)
      if (Validity[I].first->validityGeneration() != Validity[I].second)
        return false;
    return true;
  }
};

} // namespace libsplit
