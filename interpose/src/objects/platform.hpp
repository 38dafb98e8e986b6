// Platforms and devices as the application sees them: one libsplit object per real platform
// and device, in the real enumeration order, so that an app's "platform 0, device 1" means
// the same device with and without libsplit.
#pragma once

#include "handles.hpp"
#include "real_api.hpp"

#include <memory>
#include <string>
#include <vector>

namespace libsplit {

class Device;

class Platform : public _cl_platform_id {
public:
  explicit Platform(cl_platform_id Real);
  cl_platform_id real() const { return Real; }
  std::vector<Device *> Devices; // root devices, in the real order

private:
  cl_platform_id Real;
};

class Device : public _cl_device_id, public RefCounted<Device> {
public:
  // Reads the device's facts through Api (the runtime may still be starting up).
  Device(const RealApi &Api, Platform &Owner, cl_device_id Real, Device *Parent);
  cl_device_id real() const { return Real; }
  Platform &platform() const { return Owner; }
  Device *parent() const { return Parent; }
  bool isRoot() const { return Parent == nullptr; }

  // Facts read once from the real device.
  std::string Name;
  cl_device_type Type = 0;
  std::size_t MaxWorkGroupSize = 0;
  cl_uint MaxWorkItemDims = 0;
  std::vector<std::size_t> MaxWorkItemSizes;
  cl_ulong LocalMemSize = 0;
  cl_uint MemBaseAddrAlignBits = 0;
  cl_uint ComputeUnits = 0;
  bool HasDouble = false;

private:
  Platform &Owner;
  cl_device_id Real;
  Device *Parent;
};

// The root device of Platforms whose real device is Real, else null.
Device *findRootDevice(const std::vector<std::unique_ptr<Platform>> &Platforms, cl_device_id Real);

Platform *asPlatform(cl_platform_id Handle);
Device *asDevice(cl_device_id Handle);

} // namespace libsplit
