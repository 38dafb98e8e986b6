// The ICD dispatch table at the head of every libsplit object: libsplit's own entry point where
// it defines one, else a stub that refuses the call with an error, so that no call on a
// libsplit object can ever reach a vendor with a handle the vendor does not know.
#include "handles.hpp"

#include "api_common.hpp"

#include <type_traits>

namespace libsplit {

namespace {

template <typename Fn> struct Refuse;
template <typename R, typename... Args> struct Refuse<R(CL_API_CALL *)(Args...)> {
  static R CL_API_CALL call(Args... Arguments) {
    if constexpr (std::is_same_v<R, cl_int>) {
      return CL_INVALID_OPERATION;
    } else if constexpr (std::is_void_v<R>) {
      return;
    } else {
      // Creators report through their last argument, errcode_ret.
      cl_int *ErrorRet = nullptr;
      ((ErrorRet = pick(Arguments, ErrorRet)), ...);
      if (ErrorRet)
        *ErrorRet = CL_INVALID_OPERATION;
      return R{};
    }
  }
  template <typename T> static cl_int *pick(T Argument, cl_int *Previous) {
    if constexpr (std::is_same_v<T, cl_int *>)
      return Argument;
    else
      return Previous;
  }
};

cl_icd_dispatch makeTable() {
  cl_icd_dispatch Table{};
#define LIBSPLIT_ENTRY(Name) Table.Name = &Refuse<cl_api_##Name>::call;
#include "entry_points.def"
#undef LIBSPLIT_ENTRY
#define LIBSPLIT_IMPLEMENTED(Name) Table.Name = &::Name;
#include "implemented.def"
#undef LIBSPLIT_IMPLEMENTED
  return Table;
}

} // namespace

const cl_icd_dispatch *dispatchTable() {
  static const cl_icd_dispatch Table = makeTable();
  return &Table;
}

} // namespace libsplit
