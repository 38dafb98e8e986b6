// The real OpenCL implementation underneath libsplit: the ICD loader's entry points, loaded
// once by dlopen of the loader library itself. libsplit's own calls always go through this
// table, never through the exported cl* names, so they cannot re-enter libsplit.
#pragma once

#include "opencl.hpp"

#include <string>

namespace libsplit {

class RealApi {
public:
#define LIBSPLIT_ENTRY(Name) cl_api_##Name Name = nullptr;
#include "entry_points.def"
#undef LIBSPLIT_ENTRY

  // Loads the loader library (libOpenCL.so.1 unless Path says otherwise). Returns false with
  // Error set when the library or one of the OpenCL 1.2 core entry points is missing.
  bool load(const std::string &Path, std::string &Error);

  RealApi() = default;
  RealApi(const RealApi &) = delete;
  RealApi &operator=(const RealApi &) = delete;
  ~RealApi();

private:
  void *Handle = nullptr;
};

} // namespace libsplit
