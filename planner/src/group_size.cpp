#include "libsplit/planner/group_size.hpp"

#include <algorithm>

namespace libsplit::planner {

std::size_t implicitGroupSize(std::size_t Global, bool AllGpus, std::size_t DeviceLimit) {
  std::size_t Limit = AllGpus ? 256 : 64;
  if (DeviceLimit > 0)
    Limit = std::min(Limit, DeviceLimit);
  for (std::size_t Size = std::max<std::size_t>(Limit, 1); Size > 1; --Size)
    if (Global % Size == 0)
      return Size;
  return 1;
}

} // namespace libsplit::planner
