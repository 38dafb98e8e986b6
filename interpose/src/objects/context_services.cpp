#include "context_services.hpp"

#include "context.hpp"

namespace libsplit {

std::mutex &KernelEnqueueLocks::of(cl_device_id RealDevice) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Locks[RealDevice];
}

void DeviceObjects::add(const void *Object, std::shared_ptr<Context> Owner) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Owners[Object] = std::move(Owner);
}

void DeviceObjects::remove(const void *Object) {
  std::shared_ptr<Context> Last; // released outside the lock
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto Found = Owners.find(Object); Found != Owners.end()) {
    Last = std::move(Found->second);
    Owners.erase(Found);
  }
}

std::shared_ptr<Context> DeviceObjects::contextOf(const void *Object) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Found = Owners.find(Object);
  return Found == Owners.end() ? nullptr : Found->second;
}

} // namespace libsplit
