// How fast bytes move between the host and two GPUs, and from one GPU to the other through the
// host, by the kind of host memory they pass through: pageable memory (what libsplit's host copy
// of a buffer is), page-locked memory (CL_MEM_ALLOC_HOST_PTR, mapped) of the transfer's own
// context or of the other device's, and a ring of page-locked chunks that one device reads into
// while the other writes from. Each device has a context of its own, as the app's device and
// libsplit's split devices do. Also times what getting such host memory costs. Prints CSV:
// what, MiB, best seconds, median seconds, GB/s at the best.
//
//   link_rates [--platform P] [--mib M] [--chunk-mib C] [--slots S] [--repeat R]
#include "common/app_common.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point Since) {
  return std::chrono::duration<double>(Clock::now() - Since).count();
}

struct Side {
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  cl_mem Buffer = nullptr;
};

// Page-locked host memory of Context: a buffer the implementation allocates on the host, mapped.
struct PinnedHost {
  cl_mem Buffer = nullptr;
  std::uint8_t *Host = nullptr;
};

PinnedHost pinnedOn(const Side &S, std::size_t Bytes) {
  cl_int Err = CL_SUCCESS;
  PinnedHost P;
  P.Buffer =
      clCreateBuffer(S.Context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(ALLOC_HOST_PTR)");
  P.Host = static_cast<std::uint8_t *>(clEnqueueMapBuffer(
      S.Queue, P.Buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, Bytes, 0, nullptr, nullptr, &Err));
  CL_CHECK_ERR(Err, "clEnqueueMapBuffer");
  return P;
}

void release(const Side &S, PinnedHost &P) {
  CL_CHECK(clEnqueueUnmapMemObject(S.Queue, P.Buffer, P.Host, 0, nullptr, nullptr));
  CL_CHECK(clFinish(S.Queue));
  CL_CHECK(clReleaseMemObject(P.Buffer));
  P = {};
}

struct Timing {
  double Best = 0.0, Median = 0.0;
};

Timing timed(long Repeat, const std::function<void()> &Step) {
  std::vector<double> Times;
  for (long R = 0; R < Repeat; ++R) {
    const Clock::time_point Start = Clock::now();
    Step();
    Times.push_back(seconds(Start));
  }
  std::sort(Times.begin(), Times.end());
  return {Times.front(), Times[Times.size() / 2]};
}

void print(const char *What, std::size_t Bytes, Timing T) {
  std::printf("%s,%zu,%.6f,%.6f,%.2f\n", What, Bytes >> 20, T.Best, T.Median,
              static_cast<double>(Bytes) / T.Best / 1e9);
  std::fflush(stdout);
}

// Bytes of From's buffer into To's, through Slots page-locked chunks of Chunk bytes (allocated in
// Owner's context): From reads chunk i into slot i % Slots while To writes the chunks before it;
// the host waits for a chunk's read before enqueueing its write (the two devices' contexts
// share no events) and for a slot's write before reading into it again.
void throughRing(const Side &From, const Side &To, std::vector<PinnedHost> &Ring, std::size_t Chunk,
                 std::size_t Bytes) {
  const std::size_t Slots = Ring.size(), Count = (Bytes + Chunk - 1) / Chunk;
  std::vector<cl_event> Reads(Count, nullptr), Writes(Count, nullptr);
  auto sizeOf = [&](std::size_t I) { return std::min(Chunk, Bytes - I * Chunk); };
  std::size_t NextRead = 0;
  for (std::size_t I = 0; I < Count; ++I) {
    for (; NextRead < Count && NextRead < I + Slots; ++NextRead) {
      if (NextRead >= Slots)
        CL_CHECK(clWaitForEvents(1, &Writes[NextRead - Slots]));
      CL_CHECK(clEnqueueReadBuffer(From.Queue, From.Buffer, CL_FALSE, NextRead * Chunk,
                                   sizeOf(NextRead), Ring[NextRead % Slots].Host, 0, nullptr,
                                   &Reads[NextRead]));
      CL_CHECK(clFlush(From.Queue));
    }
    CL_CHECK(clWaitForEvents(1, &Reads[I]));
    CL_CHECK(clEnqueueWriteBuffer(To.Queue, To.Buffer, CL_FALSE, I * Chunk, sizeOf(I),
                                  Ring[I % Slots].Host, 0, nullptr, &Writes[I]));
    CL_CHECK(clFlush(To.Queue));
  }
  CL_CHECK(clFinish(To.Queue));
  for (std::size_t I = 0; I < Count; ++I) {
    CL_CHECK(clReleaseEvent(Reads[I]));
    CL_CHECK(clReleaseEvent(Writes[I]));
  }
}

} // namespace

int main(int argc, char **argv) {
  app::Options Opts(argc, argv,
                    "[--platform P] [--mib M] [--chunk-mib C] [--slots S] [--repeat R]");
  const std::size_t Bytes = static_cast<std::size_t>(std::max(1L, Opts.integer("mib", 1024))) << 20;
  const std::size_t Chunk = static_cast<std::size_t>(std::max(1L, Opts.integer("chunk-mib", 32)))
                            << 20;
  const std::size_t Slots = static_cast<std::size_t>(std::max(1L, Opts.integer("slots", 3)));
  const long Repeat = std::max(1L, Opts.integer("repeat", 5));
  const long PlatformIndex = Opts.integer("platform", 0);

  cl_uint NumPlatforms = 0;
  CL_CHECK(clGetPlatformIDs(0, nullptr, &NumPlatforms));
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  CL_CHECK(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr));
  if (static_cast<cl_uint>(PlatformIndex) >= NumPlatforms)
    app::fail("--platform: no such platform");
  cl_uint NumDevices = 0;
  CL_CHECK(clGetDeviceIDs(Platforms[PlatformIndex], CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices));
  if (NumDevices < 2)
    app::fail("the platform has fewer than two devices");
  std::vector<cl_device_id> Devices(NumDevices);
  CL_CHECK(clGetDeviceIDs(Platforms[PlatformIndex], CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(),
                          nullptr));

  Side Sides[2];
  cl_int Err = CL_SUCCESS;
  for (int D = 0; D < 2; ++D) {
    Side &S = Sides[D];
    S.Device = Devices[D];
    S.Context = clCreateContext(nullptr, 1, &S.Device, nullptr, nullptr, &Err);
    CL_CHECK_ERR(Err, "clCreateContext");
    S.Queue = clCreateCommandQueue(S.Context, S.Device, 0, &Err);
    CL_CHECK_ERR(Err, "clCreateCommandQueue");
    S.Buffer = clCreateBuffer(S.Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
    CL_CHECK_ERR(Err, "clCreateBuffer");
    const cl_uchar Pattern = static_cast<cl_uchar>(D + 1);
    CL_CHECK(clEnqueueFillBuffer(S.Queue, S.Buffer, &Pattern, 1, 0, Bytes, 0, nullptr, nullptr));
    CL_CHECK(clFinish(S.Queue));
    std::fprintf(stderr, "device %d: %s\n", D, app::deviceName(S.Device).c_str());
  }
  std::printf("what,MiB,best s,median s,GB/s\n");

  std::vector<std::uint8_t> Pageable;
  print("pageable host: calloc and first touch", Bytes,
        timed(1, [&] { Pageable.assign(Bytes, 0); }));
  PinnedHost Pinned[2];
  print("page-locked host: create and map (device 0's context)", Bytes,
        timed(1, [&] { Pinned[0] = pinnedOn(Sides[0], Bytes); }));
  Pinned[1] = pinnedOn(Sides[1], Bytes);
  std::memset(Pinned[0].Host, 0, Bytes);
  std::memset(Pinned[1].Host, 0, Bytes);

  struct HostKind {
    const char *Name;
    std::uint8_t *Own[2];
  } Kinds[] = {{"pageable", {Pageable.data(), Pageable.data()}},
               {"page-locked, own context", {Pinned[0].Host, Pinned[1].Host}},
               {"page-locked, other context", {Pinned[1].Host, Pinned[0].Host}}};
  for (const HostKind &K : Kinds)
    for (int D = 0; D < 2; ++D) {
      const Side &S = Sides[D];
      std::string Name = std::string(K.Name) + ": device " + std::to_string(D) + " to host";
      print(Name.c_str(), Bytes, timed(Repeat, [&] {
              CL_CHECK(clEnqueueReadBuffer(S.Queue, S.Buffer, CL_TRUE, 0, Bytes, K.Own[D], 0,
                                           nullptr, nullptr));
            }));
      Name = std::string(K.Name) + ": host to device " + std::to_string(D);
      print(Name.c_str(), Bytes, timed(Repeat, [&] {
              CL_CHECK(clEnqueueWriteBuffer(S.Queue, S.Buffer, CL_TRUE, 0, Bytes, K.Own[D], 0,
                                            nullptr, nullptr));
            }));
    }

  // Device 0 to device 1 the way libsplit's host copy takes them: all read, then all written.
  for (const HostKind &K : Kinds) {
    const std::string Name = std::string(K.Name) + ": device 0 to 1, whole read then write";
    print(Name.c_str(), Bytes, timed(Repeat, [&] {
            CL_CHECK(clEnqueueReadBuffer(Sides[0].Queue, Sides[0].Buffer, CL_TRUE, 0, Bytes,
                                         K.Own[0], 0, nullptr, nullptr));
            CL_CHECK(clEnqueueWriteBuffer(Sides[1].Queue, Sides[1].Buffer, CL_TRUE, 0, Bytes,
                                          K.Own[0], 0, nullptr, nullptr));
          }));
  }
  release(Sides[0], Pinned[0]);
  release(Sides[1], Pinned[1]);

  // The host writes above left zeros: device 0 holds its pattern again, device 1 another.
  for (int D = 0; D < 2; ++D) {
    const cl_uchar Pattern = static_cast<cl_uchar>(D + 1);
    CL_CHECK(clEnqueueFillBuffer(Sides[D].Queue, Sides[D].Buffer, &Pattern, 1, 0, Bytes, 0, nullptr,
                                 nullptr));
    CL_CHECK(clFinish(Sides[D].Queue));
  }

  for (std::size_t C : {std::size_t{4} << 20, Chunk, std::size_t{128} << 20})
    for (int Owner = 0; Owner < 2; ++Owner) {
      std::vector<PinnedHost> Ring(Slots);
      for (PinnedHost &P : Ring)
        P = pinnedOn(Sides[Owner], C);
      const std::string Name = "ring of " + std::to_string(Slots) + " x " +
                               std::to_string(C >> 20) + " MiB page-locked (device " +
                               std::to_string(Owner) + "'s context): device 0 to 1";
      print(Name.c_str(), Bytes,
            timed(Repeat, [&] { throughRing(Sides[0], Sides[1], Ring, C, Bytes); }));
      for (PinnedHost &P : Ring)
        release(Sides[Owner], P);
    }

  std::vector<std::uint8_t> Check(std::size_t{1} << 20);
  CL_CHECK(clEnqueueReadBuffer(Sides[1].Queue, Sides[1].Buffer, CL_TRUE, Bytes - Check.size(),
                               Check.size(), Check.data(), 0, nullptr, nullptr));
  const bool Arrived =
      std::all_of(Check.begin(), Check.end(), [](std::uint8_t B) { return B == 1; });
  std::fprintf(stderr, "device 1 holds device 0's bytes after the ring: %s\n",
               Arrived ? "yes" : "NO");

  for (Side &S : Sides) {
    CL_CHECK(clReleaseMemObject(S.Buffer));
    CL_CHECK(clReleaseCommandQueue(S.Queue));
    CL_CHECK(clReleaseContext(S.Context));
  }
  return Arrived ? 0 : 1;
}
