// Optional features: images, native kernels, SVM. libsplit deliberately reports some of them
// as absent where PoCL has them (CL_DEVICE_IMAGE_SUPPORT = CL_FALSE, no SVM), so this program
// does not compare the answers but checks that each implementation's answers agree with what its
// device reports, and prints only the verdicts. With image support, images and samplers are
// created and used; without it, creation fails with CL_INVALID_OPERATION (as the specification
// requires) and no format is listed. A device that lists CL_EXEC_NATIVE_KERNEL runs native
// kernels; one that reports SVM capabilities allocates SVM. Every extension listed (platform or
// device) whose entry point this program knows gives a function for it.
#include "api_test.hpp"

#include <sstream>

// OpenCL 2.0, not declared by the 1.2 headers; called only where the device is 2.0 or later.
#define API_DEVICE_SVM_CAPABILITIES 0x1053
extern "C" CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context Context, cl_bitfield Flags,
                                                     size_t Size, cl_uint Alignment);
extern "C" CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context Context, void *Pointer);

using namespace api;

namespace {

const cl_image_format Rgba8 = {CL_RGBA, CL_UNORM_INT8};

// Creation must succeed with image support and fail with CL_INVALID_OPERATION without it.
bool consistentCreation(bool Supported, cl_mem Image, cl_int Error) {
  if (Image)
    clReleaseMemObject(Image);
  return Supported ? (Image && Error == CL_SUCCESS) : (!Image && Error == CL_INVALID_OPERATION);
}

std::atomic<int> NativeRuns{0};

void CL_CALLBACK nativeKernel(void *Args) {
  // The argument block is a copy of the one passed; its first word is a tag.
  if (*static_cast<cl_uint *>(Args) == 1234u)
    ++NativeRuns;
}

void nativeKernels(const Setup &S) {
  cl_device_exec_capabilities Capabilities = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(Capabilities), &Capabilities,
                  nullptr);
  const bool Listed = Capabilities & CL_EXEC_NATIVE_KERNEL;
  cl_uint Tag = 1234u;
  cl_event Done = nullptr;
  const cl_int Error = clEnqueueNativeKernel(S.Queue, nativeKernel, &Tag, sizeof(Tag), 0, nullptr,
                                             nullptr, 0, nullptr, &Done);
  if (Done) {
    clWaitForEvents(1, &Done);
    clReleaseEvent(Done);
  }
  clFinish(S.Queue);
  const bool Ran = Error == CL_SUCCESS && NativeRuns.load() == 1;
  say("clEnqueueNativeKernel consistent with CL_EXEC_NATIVE_KERNEL: %s",
      yesNo(Listed ? Ran : Error == CL_INVALID_OPERATION));
}

void sharedVirtualMemory(const Setup &S) {
  if (versionOf(deviceString(S.Device, CL_DEVICE_VERSION)) < 20) {
    say("device older than OpenCL 2.0: SVM not checked");
    return;
  }
  cl_bitfield Capabilities = 0;
  clGetDeviceInfo(S.Device, API_DEVICE_SVM_CAPABILITIES, sizeof(Capabilities), &Capabilities,
                  nullptr);
  void *Pointer = clSVMAlloc(S.Context, CL_MEM_READ_WRITE, 4096, 0);
  say("clSVMAlloc consistent with CL_DEVICE_SVM_CAPABILITIES: %s",
      yesNo(Capabilities ? Pointer != nullptr : Pointer == nullptr));
  if (Pointer)
    clSVMFree(S.Context, Pointer);
}

// One entry point of each extension with host functions that an implementation may list.
const std::pair<const char *, const char *> ExtensionEntryPoints[] = {
    {"cl_khr_icd", "clIcdGetPlatformIDsKHR"},
    {"cl_khr_create_command_queue", "clCreateCommandQueueWithPropertiesKHR"},
    {"cl_khr_il_program", "clCreateProgramWithILKHR"},
    {"cl_khr_subgroups", "clGetKernelSubGroupInfoKHR"},
    {"cl_khr_command_buffer", "clCreateCommandBufferKHR"},
    {"cl_khr_gl_sharing", "clGetGLContextInfoKHR"},
    {"cl_khr_gl_event", "clCreateEventFromGLsyncKHR"},
    {"cl_khr_terminate_context", "clTerminateContextKHR"},
    {"cl_khr_semaphore", "clCreateSemaphoreWithPropertiesKHR"},
    {"cl_khr_external_memory", "clEnqueueAcquireExternalMemObjectsKHR"},
    {"cl_khr_suggested_local_work_size", "clGetKernelSuggestedLocalWorkSizeKHR"},
    {"cl_pocl_content_size", "clSetContentSizeBufferPoCL"},
    {"cl_nv_create_buffer", "clCreateBufferNV"},
};

void extensionFunctions(const Setup &S) {
  std::istringstream Listed(platformString(S.Platform, CL_PLATFORM_EXTENSIONS) + " " +
                            deviceString(S.Device, CL_DEVICE_EXTENSIONS));
  bool Available = true, ImageExtension = false;
  for (std::string Name; Listed >> Name;) {
    ImageExtension = ImageExtension || Name.find("image") != std::string::npos;
    for (const auto &[Extension, Function] : ExtensionEntryPoints)
      if (Name == Extension && !clGetExtensionFunctionAddressForPlatform(S.Platform, Function)) {
        Available = false;
        std::fprintf(stderr, "%s listed, %s not available\n", Extension, Function);
      }
  }
  say("listed extensions' entry points available: %s", yesNo(Available));
  cl_bool Images = CL_FALSE;
  clGetDeviceInfo(S.Device, CL_DEVICE_IMAGE_SUPPORT, sizeof(Images), &Images, nullptr);
  say("image extensions listed only with image support: %s",
      yesNo(Images == CL_TRUE || !ImageExtension));
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  cl_bool Support = CL_FALSE;
  show("clGetDeviceInfo(IMAGE_SUPPORT)",
       clGetDeviceInfo(S.Device, CL_DEVICE_IMAGE_SUPPORT, sizeof(Support), &Support, nullptr));
  const bool Supported = Support == CL_TRUE;
  // Without image support, no image limits either: the specification's minimums apply only to
  // devices with images (the conformance suite checks the two agree).
  bool LimitsAgree = true;
  for (cl_device_info Param :
       {CL_DEVICE_MAX_READ_IMAGE_ARGS, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, CL_DEVICE_MAX_SAMPLERS}) {
    cl_uint Limit = 1;
    clGetDeviceInfo(S.Device, Param, sizeof(Limit), &Limit, nullptr);
    LimitsAgree = LimitsAgree && (Supported ? Limit > 0 : Limit == 0);
  }
  for (cl_device_info Param : {CL_DEVICE_IMAGE2D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_DEPTH}) {
    size_t Limit = 1;
    clGetDeviceInfo(S.Device, Param, sizeof(Limit), &Limit, nullptr);
    LimitsAgree = LimitsAgree && (Supported ? Limit > 0 : Limit == 0);
  }
  say("image limits agree with image support: %s", yesNo(LimitsAgree));

  cl_uint Formats = 0;
  cl_int Error = clGetSupportedImageFormats(S.Context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                            nullptr, &Formats);
  say("supported formats consistent: %s",
      yesNo(Error == CL_SUCCESS && (Supported ? Formats > 0 : Formats == 0)));

  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = 16;
  Desc.image_height = 16;
  cl_mem Image = clCreateImage(S.Context, CL_MEM_READ_WRITE, &Rgba8, &Desc, nullptr, &Error);
  say("clCreateImage consistent: %s", yesNo(consistentCreation(Supported, Image, Error)));
  Image = clCreateImage2D(S.Context, CL_MEM_READ_WRITE, &Rgba8, 16, 16, 0, nullptr, &Error);
  say("clCreateImage2D consistent: %s", yesNo(consistentCreation(Supported, Image, Error)));
  Image = clCreateImage3D(S.Context, CL_MEM_READ_WRITE, &Rgba8, 8, 8, 4, 0, 0, nullptr, &Error);
  say("clCreateImage3D consistent: %s", yesNo(consistentCreation(Supported, Image, Error)));

  cl_sampler Sampler =
      clCreateSampler(S.Context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &Error);
  say("clCreateSampler consistent: %s",
      yesNo(Supported ? (Sampler && Error == CL_SUCCESS)
                      : (!Sampler && Error == CL_INVALID_OPERATION)));
  if (Sampler)
    clReleaseSampler(Sampler);

  // With image support, a round trip through an image works.
  bool RoundTrip = true;
  if (Supported) {
    std::vector<unsigned char> Pixels(16 * 16 * 4), Back(16 * 16 * 4, 0);
    for (size_t I = 0; I < Pixels.size(); ++I)
      Pixels[I] = static_cast<unsigned char>(I * 7);
    Image = clCreateImage(S.Context, CL_MEM_READ_WRITE, &Rgba8, &Desc, nullptr, &Error);
    const size_t Origin[3] = {0, 0, 0}, Region[3] = {16, 16, 1};
    RoundTrip = Image &&
                clEnqueueWriteImage(S.Queue, Image, CL_TRUE, Origin, Region, 0, 0, Pixels.data(), 0,
                                    nullptr, nullptr) == CL_SUCCESS &&
                clEnqueueReadImage(S.Queue, Image, CL_TRUE, Origin, Region, 0, 0, Back.data(), 0,
                                   nullptr, nullptr) == CL_SUCCESS &&
                Back == Pixels;
    if (Image)
      clReleaseMemObject(Image);
  }
  say("image round trip where images are supported: %s", yesNo(RoundTrip));
  nativeKernels(S);
  sharedVirtualMemory(S);
  extensionFunctions(S);
  tearDown(S);
  say("done");
  return 0;
}
