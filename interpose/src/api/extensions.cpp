#include "extensions.hpp"

#include <array>
#include <cstring>

namespace libsplit {

namespace {

// Parts of extension names whose host API libsplit lacks. Kept as name parts so that a family's
// later members (cl_khr_command_buffer_mutable_dispatch, cl_khr_external_memory_dma_buf) are
// hidden with it.
constexpr std::array<std::string_view, 21> HiddenParts = {
    "_sharing",            // GL, D3D10/11, DX9, VA-API
    "_gl_",                // cl_khr_gl_event, cl_khr_gl_depth_images, ...
    "_egl_",               // cl_khr_egl_image, cl_khr_egl_event
    "image2d_from_buffer", // an image over a buffer is refused (clCreateImage)
    "external_memory",     // clEnqueueAcquireExternalMemObjectsKHR, ...
    "semaphore",           // clCreateSemaphoreWithPropertiesKHR, ...
    "command_buffer",      // clCreateCommandBufferKHR, ...
    "terminate_context",   // clTerminateContextKHR
    "suggested_local",     // clGetKernelSuggestedLocalWorkSizeKHR
    "unified_shared",      // cl_intel_unified_shared_memory
    "svm",                 // SVM is reported unsupported (cl_ext_..._svm, cl_amd_svm)
    "create_buffer",       // cl_nv_create_buffer: clCreateBufferNV
    "import_memory",       // cl_arm_import_memory: clImportMemoryARM
    "device_fission",      // cl_ext_device_fission: clCreateSubDevicesEXT
    "migrate_memobject",   // cl_ext_migrate_memobject: clEnqueueMigrateMemObjectEXT
    "content_size",        // cl_pocl_content_size: clSetContentSizeBufferPoCL
    "accelerator",         // cl_intel_accelerator
    "motion_estimation",   // cl_intel_motion_estimation
    "copy_opts",           // cl_nv_copy_opts: NVIDIA's flags for its own copy calls
    "shared_virtual",      // cl_arm_shared_virtual_memory
    "pinned_buffers",      // cl_pocl_pinned_buffers: CL_MEM_PINNED, device addresses of buffers
};

} // namespace

bool extensionVisible(std::string_view Name) {
  for (std::string_view Part : HiddenParts)
    if (Name.find(Part) != std::string_view::npos)
      return false;
  return true;
}

std::string visibleExtensions(std::string_view List) {
  std::string Result;
  std::size_t Begin = 0;
  while (Begin < List.size()) {
    const std::size_t End = std::min(List.find(' ', Begin), List.size());
    const std::string_view Name = List.substr(Begin, End - Begin);
    if (!Name.empty() && extensionVisible(Name)) {
      if (!Result.empty())
        Result += ' ';
      Result += Name;
    }
    Begin = End + 1;
  }
  return Result;
}

std::vector<cl_name_version> visibleExtensions(const std::vector<cl_name_version> &List) {
  std::vector<cl_name_version> Result;
  for (const cl_name_version &Entry : List)
    if (extensionVisible(std::string_view(Entry.name, strnlen(Entry.name, sizeof(Entry.name)))))
      Result.push_back(Entry);
  return Result;
}

} // namespace libsplit
