// Images and samplers as an app uses them: the device's image support and limits, formats,
// creation from host memory, info queries, kernels that read an image through a sampler and
// write one, and every image command (write, read, copy, fill, copies to and from buffers that
// kernels wrote, map), in order with buffer commands and kernels on one queue.
#include "api_test.hpp"

using namespace api;

namespace {

const char *Source = R"CLC(
__kernel void scale(__global float *Data, float Factor) {
  size_t I = get_global_id(0);
  Data[I] = Data[I] * Factor + (float)I;
}
__kernel void sample(__read_only image2d_t In, sampler_t Sampler, __global float *Out, int Width) {
  int X = get_global_id(0), Y = get_global_id(1);
  float4 P = read_imagef(In, Sampler, (int2)(X, Y));
  Out[Y * Width + X] = P.x * 2.0f + P.y + P.z * 0.5f + P.w + (float)Y;
}
__kernel void paint(__write_only image2d_t Out, __global const float *In, int Width) {
  int X = get_global_id(0), Y = get_global_id(1);
  float V = In[Y * Width + X];
  write_imagef(Out, (int2)(X, Y), (float4)(V, V + 1.0f, -V, 1.0f));
}
)CLC";

constexpr size_t Width = 64, Height = 48, Pixels = Width * Height;

cl_mem createImage(const Setup &S, cl_mem_flags Flags, void *Host) {
  const cl_image_format Format = {CL_RGBA, CL_FLOAT};
  cl_image_desc Desc = {};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = Width;
  Desc.image_height = Height;
  cl_int Error = CL_SUCCESS;
  cl_mem Image = clCreateImage(S.Context, Flags, &Format, &Desc, Host, &Error);
  need(Error, "clCreateImage");
  return Image;
}

std::vector<float> readImage(const Setup &S, cl_mem Image) {
  std::vector<float> Data(Pixels * 4);
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {Width, Height, 1};
  API_NEED(clEnqueueReadImage(S.Queue, Image, CL_TRUE, Origin, Region, 0, 0, Data.data(), 0,
                              nullptr, nullptr));
  return Data;
}

void capabilities(const Setup &S) {
  cl_bool Images = CL_FALSE;
  clGetDeviceInfo(S.Device, CL_DEVICE_IMAGE_SUPPORT, sizeof(Images), &Images, nullptr);
  size_t Width2D = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(Width2D), &Width2D, nullptr);
  cl_uint Samplers = 0;
  clGetDeviceInfo(S.Device, CL_DEVICE_MAX_SAMPLERS, sizeof(Samplers), &Samplers, nullptr);
  say("image support %s, 2-D images up to %zu wide, %u samplers", yesNo(Images), Width2D, Samplers);
  cl_uint Formats = 0;
  show("clGetSupportedImageFormats",
       clGetSupportedImageFormats(S.Context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                  &Formats));
  std::vector<cl_image_format> List(Formats);
  clGetSupportedImageFormats(S.Context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, Formats,
                             List.data(), nullptr);
  const bool RgbaFloat = std::any_of(List.begin(), List.end(), [](const cl_image_format &F) {
    return F.image_channel_order == CL_RGBA && F.image_channel_data_type == CL_FLOAT;
  });
  say("%u formats, RGBA float among them: %s", Formats, yesNo(RgbaFloat));
}

void images(const Setup &S) {
  cl_program Program = buildProgram(S.Context, S.Device, Source);
  cl_kernel Scale = createKernel(Program, "scale");
  cl_kernel Sample = createKernel(Program, "sample");
  cl_kernel Paint = createKernel(Program, "paint");

  std::vector<float> Host(Pixels * 4);
  for (size_t I = 0; I < Host.size(); ++I)
    Host[I] = static_cast<float>((I * 7) % 23) * 0.25f;
  cl_mem In = createImage(S, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Host.data());
  size_t Got = 0, Element = 0;
  clGetImageInfo(In, CL_IMAGE_WIDTH, sizeof(Got), &Got, nullptr);
  clGetImageInfo(In, CL_IMAGE_ELEMENT_SIZE, sizeof(Element), &Element, nullptr);
  cl_mem_object_type Type = 0;
  clGetMemObjectInfo(In, CL_MEM_TYPE, sizeof(Type), &Type, nullptr);
  cl_context Owner = nullptr;
  clGetMemObjectInfo(In, CL_MEM_CONTEXT, sizeof(Owner), &Owner, nullptr);
  say("image: width %zu, %zu bytes a pixel, 2-D: %s, its context the app's: %s", Got, Element,
      yesNo(Type == CL_MEM_OBJECT_IMAGE2D), yesNo(Owner == S.Context));
  say("image holds the host data: %s", yesNo(readImage(S, In) == Host));

  cl_int Error = CL_SUCCESS;
  cl_sampler Sampler =
      clCreateSampler(S.Context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &Error);
  show("clCreateSampler", Error);
  cl_context SamplerOwner = nullptr;
  clGetSamplerInfo(Sampler, CL_SAMPLER_CONTEXT, sizeof(SamplerOwner), &SamplerOwner, nullptr);
  say("sampler's context the app's: %s", yesNo(SamplerOwner == S.Context));

  // A kernel that reads the image through the sampler, after one that wrote a buffer.
  cl_mem Values = createBuffer(S.Context, CL_MEM_READ_WRITE, Pixels * sizeof(float));
  std::vector<float> Ones(Pixels, 1.0f);
  API_NEED(clEnqueueWriteBuffer(S.Queue, Values, CL_TRUE, 0, Pixels * sizeof(float), Ones.data(), 0,
                                nullptr, nullptr));
  setArg(Scale, 0, Values);
  setArg(Scale, 1, 3.0f);
  const size_t Flat = Pixels;
  API_NEED(clEnqueueNDRangeKernel(S.Queue, Scale, 1, nullptr, &Flat, nullptr, 0, nullptr, nullptr));
  cl_mem Sums = createBuffer(S.Context, CL_MEM_READ_WRITE, Pixels * sizeof(float));
  setArg(Sample, 0, In);
  setArg(Sample, 1, Sampler);
  setArg(Sample, 2, Sums);
  setArg(Sample, 3, static_cast<cl_int>(Width));
  const size_t Grid[2] = {Width, Height};
  show("launch reading the image",
       clEnqueueNDRangeKernel(S.Queue, Sample, 2, nullptr, Grid, nullptr, 0, nullptr, nullptr));
  say("sampled sums: %08x", checksum(readAll<float>(S.Queue, Sums, Pixels)));

  // A kernel that writes an image from the buffer the first kernel wrote.
  cl_mem Out = createImage(S, CL_MEM_READ_WRITE, nullptr);
  setArg(Paint, 0, Out);
  setArg(Paint, 1, Values);
  setArg(Paint, 2, static_cast<cl_int>(Width));
  show("launch writing an image",
       clEnqueueNDRangeKernel(S.Queue, Paint, 2, nullptr, Grid, nullptr, 0, nullptr, nullptr));
  say("painted image: %08x", checksum(readImage(S, Out)));

  // Image commands, each after a kernel changed the buffer they use.
  const size_t Zero[3] = {0, 0, 0}, Corner[3] = {8, 4, 0}, Patch[3] = {16, 8, 1};
  std::vector<float> PatchData(16 * 8 * 4, 5.5f);
  cl_event Write = nullptr;
  show("clEnqueueWriteImage", clEnqueueWriteImage(S.Queue, Out, CL_FALSE, Corner, Patch, 0, 0,
                                                  PatchData.data(), 0, nullptr, &Write));
  API_NEED(clWaitForEvents(1, &Write));
  cl_command_type Command = 0;
  clGetEventInfo(Write, CL_EVENT_COMMAND_TYPE, sizeof(Command), &Command, nullptr);
  say("write event: %s, %s", commandTypeName(Command), statusName(eventStatus(Write)));
  clReleaseEvent(Write);
  say("after the write: %08x", checksum(readImage(S, Out)));
  const size_t Other[3] = {30, 20, 0};
  show("clEnqueueCopyImage",
       clEnqueueCopyImage(S.Queue, In, Out, Zero, Other, Patch, 0, nullptr, nullptr));
  const cl_float4 Color = {{0.5f, -1.0f, 2.0f, 4.0f}};
  const size_t Stripe[3] = {Width, 2, 1}, Row5[3] = {0, 5, 0};
  show("clEnqueueFillImage",
       clEnqueueFillImage(S.Queue, Out, &Color, Row5, Stripe, 0, nullptr, nullptr));
  say("after copy and fill: %08x", checksum(readImage(S, Out)));

  cl_mem Pixels4 = createBuffer(S.Context, CL_MEM_READ_WRITE, Pixels * 4 * sizeof(float));
  const size_t Whole[3] = {Width, Height, 1};
  show("clEnqueueCopyImageToBuffer",
       clEnqueueCopyImageToBuffer(S.Queue, Out, Pixels4, Zero, Whole, 0, 0, nullptr, nullptr));
  say("buffer from the image: %08x", checksum(readAll<float>(S.Queue, Pixels4, Pixels * 4)));
  // A kernel changes the buffer, which then goes back into an image.
  setArg(Scale, 0, Pixels4);
  setArg(Scale, 1, 0.5f);
  const size_t Floats = Pixels * 4;
  API_NEED(
      clEnqueueNDRangeKernel(S.Queue, Scale, 1, nullptr, &Floats, nullptr, 0, nullptr, nullptr));
  show("clEnqueueCopyBufferToImage",
       clEnqueueCopyBufferToImage(S.Queue, Pixels4, In, 0, Zero, Whole, 0, nullptr, nullptr));
  say("image from the scaled buffer: %08x", checksum(readImage(S, In)));

  size_t Pitch = 0;
  void *Mapped = clEnqueueMapImage(S.Queue, In, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, Corner, Patch,
                                   &Pitch, nullptr, 0, nullptr, nullptr, &Error);
  show("clEnqueueMapImage", Error);
  if (Mapped) {
    auto *Row = static_cast<float *>(Mapped);
    say("mapped pitch covers a row: %s, first pixel %.3f", yesNo(Pitch >= 16 * 4 * sizeof(float)),
        Row[0]);
    Row[0] = 42.0f;
    show("clEnqueueUnmapMemObject",
         clEnqueueUnmapMemObject(S.Queue, In, Mapped, 0, nullptr, nullptr));
  }
  say("after the map: %08x", checksum(readImage(S, In)));
  // The kernel sees what the commands left.
  show("launch reading the image again",
       clEnqueueNDRangeKernel(S.Queue, Sample, 2, nullptr, Grid, nullptr, 0, nullptr, nullptr));
  say("sampled sums: %08x", checksum(readAll<float>(S.Queue, Sums, Pixels)));

  // A buffer is no image. (The converse is not asked: PoCL reads an image as a buffer, where the
  // specification wants CL_INVALID_MEM_OBJECT, which libsplit answers.)
  show("clEnqueueReadImage on a buffer",
       clEnqueueReadImage(S.Queue, Sums, CL_TRUE, Zero, Patch, 0, 0, PatchData.data(), 0, nullptr,
                          nullptr));

  show("clReleaseSampler", clReleaseSampler(Sampler));
  show("clReleaseMemObject(image)", clReleaseMemObject(In));
  show("clReleaseMemObject(image)", clReleaseMemObject(Out));
  clReleaseMemObject(Values);
  clReleaseMemObject(Sums);
  clReleaseMemObject(Pixels4);
  clReleaseKernel(Scale);
  clReleaseKernel(Sample);
  clReleaseKernel(Paint);
  clReleaseProgram(Program);
}

} // namespace

int main(int Argc, char **Argv) {
  Setup S = setUp(Argc, Argv);
  capabilities(S);
  images(S);
  tearDown(S);
  return 0;
}
