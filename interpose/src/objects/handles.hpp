// The handles libsplit gives the application. Each starts with a pointer to an ICD dispatch
// table whose entries are libsplit's own entry points, so that a call which reaches the ICD
// loader anyway (an app that dlopen()s libOpenCL) is dispatched back into libsplit. A magic
// word follows, so that an entry point can tell its own handles from anything else.
#pragma once

#include "opencl.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

// The OpenCL headers declare these structs but never define them: the implementation does.
#define LIBSPLIT_HANDLE_STRUCT(Struct)                                                             \
  struct Struct {                                                                                  \
    const cl_icd_dispatch *Dispatch;                                                               \
    std::uint32_t Magic;                                                                           \
  };
LIBSPLIT_HANDLE_STRUCT(_cl_platform_id)
LIBSPLIT_HANDLE_STRUCT(_cl_device_id)
LIBSPLIT_HANDLE_STRUCT(_cl_context)
LIBSPLIT_HANDLE_STRUCT(_cl_command_queue)
LIBSPLIT_HANDLE_STRUCT(_cl_mem)
LIBSPLIT_HANDLE_STRUCT(_cl_program)
LIBSPLIT_HANDLE_STRUCT(_cl_kernel)
LIBSPLIT_HANDLE_STRUCT(_cl_event)
LIBSPLIT_HANDLE_STRUCT(_cl_sampler)
#undef LIBSPLIT_HANDLE_STRUCT

namespace libsplit {

const cl_icd_dispatch *dispatchTable();

enum class HandleMagic : std::uint32_t {
  Platform = 0x5350'4c01,
  Device = 0x5350'4c02,
  Context = 0x5350'4c03,
  Queue = 0x5350'4c04,
  Mem = 0x5350'4c05,
  Program = 0x5350'4c06,
  Kernel = 0x5350'4c07,
  Event = 0x5350'4c08,
  Sampler = 0x5350'4c09,
  Dead = 0xdead'0000,
};

template <typename HandleStruct> void initHandle(HandleStruct &Handle, HandleMagic Magic) {
  Handle.Dispatch = dispatchTable();
  Handle.Magic = static_cast<std::uint32_t>(Magic);
}

// Application-visible reference counting over shared ownership: the app's count keeps the
// object alive through a self-reference; libsplit's own users (commands in flight, buffers of a
// kernel argument) hold shared_ptrs, so an object released by the app lives until its last
// internal use, as OpenCL requires.
template <typename Derived> class RefCounted : public std::enable_shared_from_this<Derived> {
public:
  cl_uint appReferences() const { return AppRefs.load(); }

  void retain() { AppRefs.fetch_add(1); }

  // Returns false when the app had no reference left (an over-release): CL_INVALID_* for it.
  bool release() {
    cl_uint Count = AppRefs.load();
    do {
      if (Count == 0)
        return false;
    } while (!AppRefs.compare_exchange_weak(Count, Count - 1));
    if (Count == 1) {
      std::shared_ptr<Derived> Last = std::move(KeepAlive);
      Last.reset(); // may destroy *this: nothing after this line
    }
    return true;
  }

  // Creates an object owned by the application (reference count 1).
  template <typename... Args> static std::shared_ptr<Derived> create(Args &&...Arguments) {
    auto Object = std::make_shared<Derived>(std::forward<Args>(Arguments)...);
    Object->KeepAlive = Object;
    return Object;
  }

private:
  std::atomic<cl_uint> AppRefs{1};
  std::shared_ptr<Derived> KeepAlive;
};

} // namespace libsplit
