#include "libsplit/planner/device_choice.hpp"

#include <algorithm>

namespace libsplit::planner {

std::vector<bool> openedByDefault(const std::vector<DeviceKind> &Devices) {
  std::vector<bool> Opened(Devices.size(), true);
  const auto App =
      std::find_if(Devices.begin(), Devices.end(), [](const DeviceKind &D) { return D.App; });
  if (App == Devices.end() || App->Host)
    return Opened;
  const bool Peer = std::any_of(Devices.begin(), Devices.end(),
                                [&](const DeviceKind &D) { return !D.App && D.Type == App->Type; });
  if (!Peer)
    return Opened;
  for (std::size_t I = 0; I < Devices.size(); ++I)
    Opened[I] = Devices[I].Type == App->Type;
  return Opened;
}

bool platformSuffices(const std::vector<DeviceKind> &PlatformDevices) {
  return !PlatformDevices.empty() &&
         std::all_of(PlatformDevices.begin(), PlatformDevices.end(), [&](const DeviceKind &D) {
           return !D.Host &&
                  std::count_if(PlatformDevices.begin(), PlatformDevices.end(),
                                [&](const DeviceKind &Other) { return Other.Type == D.Type; }) >= 2;
         });
}

} // namespace libsplit::planner
