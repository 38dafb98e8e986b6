#include "real_api.hpp"

#include <dlfcn.h>

namespace libsplit {

bool RealApi::load(const std::string &Path, std::string &Error) {
  // RTLD_LOCAL and an explicit handle: dlsym on it finds the loader's definitions, not the
  // ones libsplit.so exports under the same names.
  Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    Error = "cannot load the OpenCL ICD loader '" + Path + "': " + (Why ? Why : "unknown");
    return false;
  }
#define LIBSPLIT_ENTRY(Name) Name = reinterpret_cast<cl_api_##Name>(dlsym(Handle, #Name));
#include "entry_points.def"
#undef LIBSPLIT_ENTRY
  // The OpenCL 1.2 core that libsplit itself calls must be there; newer or extension entry
  // points may be missing and are checked where used.
  const void *Required[] = {reinterpret_cast<void *>(clGetPlatformIDs),
                            reinterpret_cast<void *>(clGetDeviceIDs),
                            reinterpret_cast<void *>(clCreateContext),
                            reinterpret_cast<void *>(clCreateBuffer),
                            reinterpret_cast<void *>(clCreateCommandQueue),
                            reinterpret_cast<void *>(clEnqueueNDRangeKernel),
                            reinterpret_cast<void *>(clEnqueueReadBuffer),
                            reinterpret_cast<void *>(clBuildProgram)};
  for (const void *Entry : Required)
    if (!Entry) {
      Error = "the OpenCL ICD loader '" + Path + "' lacks OpenCL 1.2 entry points";
      return false;
    }
  return true;
}

RealApi::~RealApi() {
  // The loader stays loaded: vendor libraries may still run threads and atexit handlers that
  // call into it while the process exits.
}

} // namespace libsplit
