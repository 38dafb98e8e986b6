// Which of a vendor's extensions the app sees under libsplit. An extension is hidden when using
// it would need host entry points or objects that libsplit does not provide (sharing with
// graphics APIs, images, command buffers, external memory, SVM-like allocators...): an app that
// checks the extension string then takes its portable path, where it would otherwise ask for a
// function and get NULL (clGetExtensionFunctionAddress), or create an object libsplit refuses.
// Kernel-language extensions (fp64, atomics, subgroups) stay: they are about the compiler.
#pragma once

#include "opencl.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace libsplit {

bool extensionVisible(std::string_view Name);

// A space-separated extension list (CL_DEVICE_EXTENSIONS, CL_PLATFORM_EXTENSIONS) without the
// hidden ones, single spaces, in the vendor's order.
std::string visibleExtensions(std::string_view List);

// The same for a CL_*_EXTENSIONS_WITH_VERSION answer.
std::vector<cl_name_version> visibleExtensions(const std::vector<cl_name_version> &List);

} // namespace libsplit
