// The buffers' handles point at the ICD dispatch table of libsplit.so (api/dispatch.cpp), which
// unit tests do not link: no test hands a buffer to an ICD loader, so an empty table does.
#include "handles.hpp"

namespace libsplit {

const cl_icd_dispatch *dispatchTable() {
  static const cl_icd_dispatch Empty{};
  return &Empty;
}

} // namespace libsplit
