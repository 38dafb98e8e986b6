#include "live_memory.hpp"

namespace libsplit {

void LiveMemory::add(const void *Mem) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Live.insert(Mem);
}

void LiveMemory::remove(const void *Mem) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Live.erase(Mem);
}

bool LiveMemory::contains(const void *Mem) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Live.count(Mem) != 0;
}

} // namespace libsplit
