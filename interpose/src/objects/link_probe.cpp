#include "link_probe.hpp"

#include "relay.hpp"

#include <algorithm>
#include <chrono>

namespace libsplit {

void probePageLockedLink(DeviceBackend &Backend, ExecDevice &Device) {
  // Large enough that a transfer's fixed cost (tens of microseconds) is a small part of it, as a
  // relay's 16 MiB pieces see it.
  constexpr std::size_t ProbeBytes = std::size_t{16} << 20;
  const RelayRing Ring = relayRingFor(std::size_t{1} << 30);
  if (Ring.SlotBytes < ProbeBytes)
    return;
  std::uint8_t *Host =
      Backend.relayStaging(Device.RealContext, Device.RealQueue, Ring.SlotBytes * Ring.Slots);
  if (!Host)
    return;
  cl_int Error = CL_SUCCESS;
  cl_mem Scratch =
      Backend.createBuffer(Device.RealContext, CL_MEM_READ_WRITE, ProbeBytes, nullptr, Error);
  if (!Scratch)
    return;
  using Clock = std::chrono::steady_clock;
  double Slowest = 0.0;
  for (int Round = 0; Round < 2 && Error == CL_SUCCESS; ++Round) {
    const auto Start = Clock::now();
    Error = Backend.write(Device.RealQueue, Scratch, true, 0, ProbeBytes, Host);
    const auto Written = Clock::now();
    if (Error == CL_SUCCESS)
      Error = Backend.read(Device.RealQueue, Scratch, true, 0, ProbeBytes, Host);
    const auto Read = Clock::now();
    Slowest = std::max(std::chrono::duration<double>(Written - Start).count(),
                       std::chrono::duration<double>(Read - Written).count());
  }
  Backend.release(Scratch);
  if (Error == CL_SUCCESS && Slowest > 0.0)
    Device.PageLockedBytesPerSecond.store(static_cast<double>(ProbeBytes) / Slowest,
                                          std::memory_order_relaxed);
}

} // namespace libsplit
