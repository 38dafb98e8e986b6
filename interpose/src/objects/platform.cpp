#include "platform.hpp"

namespace libsplit {

namespace {

template <typename T> T deviceInfo(const RealApi &Real, cl_device_id Device, cl_device_info Param) {
  T Value{};
  Real.clGetDeviceInfo(Device, Param, sizeof(T), &Value, nullptr);
  return Value;
}

std::string stringInfo(const RealApi &Real, cl_device_id Device, cl_device_info Param) {
  size_t Size = 0;
  if (Real.clGetDeviceInfo(Device, Param, 0, nullptr, &Size) != CL_SUCCESS || Size == 0)
    return {};
  std::string Text(Size, '\0');
  Real.clGetDeviceInfo(Device, Param, Size, Text.data(), nullptr);
  while (!Text.empty() && Text.back() == '\0')
    Text.pop_back();
  return Text;
}

} // namespace

Platform::Platform(cl_platform_id Real) : Real(Real) { initHandle(*this, HandleMagic::Platform); }

Device::Device(const RealApi &Api, Platform &Owner, cl_device_id Real, Device *Parent)
    : Owner(Owner), Real(Real), Parent(Parent) {
  initHandle(*this, HandleMagic::Device);
  Name = stringInfo(Api, Real, CL_DEVICE_NAME);
  Type = deviceInfo<cl_device_type>(Api, Real, CL_DEVICE_TYPE);
  MaxWorkGroupSize = deviceInfo<size_t>(Api, Real, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  MaxWorkItemDims = deviceInfo<cl_uint>(Api, Real, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  MaxWorkItemSizes.resize(MaxWorkItemDims);
  if (MaxWorkItemDims)
    Api.clGetDeviceInfo(Real, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(size_t) * MaxWorkItemDims,
                        MaxWorkItemSizes.data(), nullptr);
  LocalMemSize = deviceInfo<cl_ulong>(Api, Real, CL_DEVICE_LOCAL_MEM_SIZE);
  MemBaseAddrAlignBits = deviceInfo<cl_uint>(Api, Real, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  ComputeUnits = deviceInfo<cl_uint>(Api, Real, CL_DEVICE_MAX_COMPUTE_UNITS);
  HasDouble = deviceInfo<cl_device_fp_config>(Api, Real, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
}

Device *findRootDevice(const std::vector<std::unique_ptr<Platform>> &Platforms, cl_device_id Real) {
  for (const auto &P : Platforms)
    for (Device *D : P->Devices)
      if (D->real() == Real)
        return D;
  return nullptr;
}

Platform *asPlatform(cl_platform_id Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Platform))
    return nullptr;
  return static_cast<Platform *>(Handle);
}

Device *asDevice(cl_device_id Handle) {
  if (!Handle || Handle->Magic != static_cast<std::uint32_t>(HandleMagic::Device))
    return nullptr;
  return static_cast<Device *>(Handle);
}

} // namespace libsplit
