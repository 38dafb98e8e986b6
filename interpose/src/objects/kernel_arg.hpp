// A kernel argument as the app set it, and as a launch takes it (a snapshot: buffers kept alive
// until the launch ran).
#pragma once

#include "buffer.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace libsplit {

// A scalar argument's bytes, kept inline up to InlineBytes (ints, floats, vectors of them): a
// launch copies its arguments, and a heap block per scalar was a large part of its host cost.
class ArgBytes {
public:
  static constexpr std::size_t InlineBytes = 32;
  ArgBytes() = default;
  // A copy touches the heap part only where the bytes are there (a launch's snapshot copies
  // every scalar argument: an empty vector's copy cost more than the bytes).
  ArgBytes(const ArgBytes &Other) : Count(Other.Count), Inline(Other.Inline) {
    if (Other.Count > InlineBytes)
      Heap = Other.Heap;
  }
  ArgBytes &operator=(const ArgBytes &Other) {
    Count = Other.Count;
    Inline = Other.Inline;
    if (Other.Count > InlineBytes)
      Heap = Other.Heap;
    else if (!Heap.empty())
      Heap.clear();
    return *this;
  }
  ArgBytes(ArgBytes &&) = default;
  ArgBytes &operator=(ArgBytes &&) = default;
  ~ArgBytes() = default;
  void assign(const std::uint8_t *Begin, const std::uint8_t *End);
  const std::uint8_t *data() const { return Count <= InlineBytes ? Inline.data() : Heap.data(); }
  std::size_t size() const { return Count; }
  std::vector<std::uint8_t> toVector() const { return {data(), data() + Count}; }

private:
  std::size_t Count = 0;
  std::array<std::uint8_t, InlineBytes> Inline{};
  std::vector<std::uint8_t> Heap; // only beyond InlineBytes
};

struct KernelArg {
  // SvmPointer: Value holds the pointer (clSetKernelArgSVMPointer), AppDeviceObject is set.
  enum class Kind { Unset, Buffer, NullBuffer, Local, Bytes, SvmPointer };
  Kind What = Kind::Unset;
  ArgBytes Value;               // Bytes: the argument's bytes
  std::shared_ptr<Buffer> Mem;  // Buffer, in a launch's snapshot
  std::weak_ptr<Buffer> SetMem; // Buffer, as set: a kernel does not keep its arguments alive
  size_t LocalSize = 0;         // Local
  // Bytes that are the real handle of an image or a sampler (Runtime::deviceObjectContext): the
  // launch runs whole on the app's device, where they live.
  bool AppDeviceObject = false;
};

// Whether a launch with these arguments must run on the app's device: an image, a sampler, SVM,
// or a buffer that stays on the app's memory (Buffer::staysOnAppDevice).
bool usesAppDeviceObjects(const std::vector<KernelArg> &Args);

} // namespace libsplit
