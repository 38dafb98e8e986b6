// What every entry point file shares: the export macro, pass-through forwarding and the
// one-line argument checks that return the native error code.
#pragma once

#include "buffer.hpp"
#include "context.hpp"
#include "event.hpp"
#include "info.hpp"
#include "kernel.hpp"
#include "platform.hpp"
#include "program.hpp"
#include "queue.hpp"
#include "runtime.hpp"

#include "guarded_entry.hpp"

#define LIBSPLIT_API extern "C" __attribute__((visibility("default")))

namespace libsplit {

// The value an entry point returns when no OpenCL implementation could be loaded at all.
template <typename R> R unavailable() {
  if constexpr (std::is_same_v<R, cl_int>)
    return CL_PLATFORM_NOT_FOUND_KHR;
  else if constexpr (std::is_void_v<R>)
    return;
  else
    return R{};
}

// clRetain*/clRelease* share this: a handle that is not a live libsplit object of the right kind,
// or a release past zero, is the kind's CL_INVALID_* error.
template <typename Object> cl_int retainObject(Object *O, cl_int Invalid) {
  if (!O)
    return Invalid;
  O->retain();
  return CL_SUCCESS;
}

// Releases an image or a sampler, a real object the app holds (Runtime::deviceObjectContext),
// forgetting it at its last release.
template <typename Handle, typename InfoFn, typename ReleaseFn>
cl_int releaseDeviceObject(Handle Object, InfoFn Info, cl_uint CountParam, ReleaseFn Release) {
  cl_uint Count = 0;
  const bool Known = Info(Object, CountParam, sizeof(Count), &Count, nullptr) == CL_SUCCESS;
  const cl_int Error = Release(Object);
  if (Error == CL_SUCCESS && Known && Count <= 1)
    runtime().removeDeviceObject(Object);
  return Error;
}

template <typename Object> cl_int releaseObject(Object *O, cl_int Invalid) {
  return O && O->release() ? CL_SUCCESS : Invalid;
}

// LIBSPLIT_DEBUG=api: an entry point that returns an error from its own checks says which.
inline void refusedCall(const char *Call, const char *Error, const char *Condition) {
  runtime().log().debug(config::DebugCategory::Api, Call, " returns ", Error, " (", Condition, ")");
}

} // namespace libsplit

// In pass-through mode (LIBSPLIT_DISABLE, a malformed control, or libsplit could not start)
// the app's call goes to the real implementation untouched, with the app's own handles.
#define LIBSPLIT_FORWARD_IF_PASS_THROUGH(Name, ...)                                                \
  ::libsplit::Runtime &RT = ::libsplit::runtime();                                                 \
  if (!RT.splitting()) {                                                                           \
    if (!RT.usable() || !RT.real().Name)                                                           \
      return ::libsplit::unavailable<decltype(RT.real().Name(__VA_ARGS__))>();                     \
    return RT.real().Name(__VA_ARGS__);                                                            \
  }                                                                                                \
  RT.log().debug(::libsplit::config::DebugCategory::Api, #Name)

// The entry point's call, as a span on the calling thread's LIBSPLIT_TIMELINE track.
#define LIBSPLIT_SHOW_CALL(Name) const ::libsplit::ScopedSpan ShownCall(RT.timeline(), Name)

// Returns Error from the entry point when Condition holds.
#define LIBSPLIT_CHECK(Condition, Error)                                                           \
  do {                                                                                             \
    if (Condition) {                                                                               \
      ::libsplit::refusedCall(__func__, #Error, #Condition);                                       \
      return Error;                                                                                \
    }                                                                                              \
  } while (false)

// The same for entry points that return an object and report through errcode_ret.
#define LIBSPLIT_CHECK_RET(Condition, Error, ErrorRet)                                             \
  do {                                                                                             \
    if (Condition) {                                                                               \
      ::libsplit::refusedCall(__func__, #Error, #Condition);                                       \
      ::libsplit::setError(ErrorRet, Error);                                                       \
      return nullptr;                                                                              \
    }                                                                                              \
  } while (false)
