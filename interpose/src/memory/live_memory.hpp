// The memory objects alive in the process, so that a kernel argument's bytes can be recognised
// as one of them without reading through them (an 8-byte scalar is not a pointer).
#pragma once

#include <mutex>
#include <unordered_set>

namespace libsplit {

class LiveMemory {
public:
  void add(const void *Mem);
  void remove(const void *Mem);
  bool contains(const void *Mem);

private:
  std::mutex Mutex;
  std::unordered_set<const void *> Live;
};

} // namespace libsplit
