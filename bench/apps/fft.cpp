// A batched radix-2 complex FFT (iterative, decimation in time), in place, of B independent
// signals of N points each (N a power of two) stored one after the other as float2 (re, im).
// One transform is 1 + log2(N) launches of 1D NDRanges (local size 64, or NULL when the global
// size is not a multiple of 64), each reading what the previous one wrote: fft_bitrev (one
// work-item per point) swaps every point with the one at its bit-reversed index and applies the
// transform's scale; then fft_butterfly once per stage, with the stage's half size H (1, 2, ...,
// N / 2) as a scalar argument, one work-item per butterfly (B * N / 2 of them): it reads and
// writes x[i] and x[i + H] of its signal, i = 2p - (p mod H) for its butterfly p, with a twiddle
// factor from a table of the N / 2 roots exp(-2 pi i k / N). So a work-item writes two places H
// apart, and for H > 1 the places a contiguous range of work-items writes interleave with those
// of the next range (at H = N / 2 the first half of a signal's butterflies writes both its first
// and its third quarter): written regions that cannot be shown disjoint between slices, as are
// the bit reversal's swaps; only the first stage (H = 1, adjacent pairs) writes one contiguous
// range per slice. The --iterations transforms alternate forward and inverse (scaled by 1 / N,
// exact: a power of two), so the data comes back near the input every second transform instead
// of growing by N each time. The output is the final B x N complex array (a spectrum after an
// odd count of transforms, near the input after an even one).
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>

static const char *KernelSource = R"CLC(
__kernel void fft_bitrev(__global float2 *x, const uint logn, const float scale) {
  const uint g = get_global_id(0);
  const uint j = g & ((1u << logn) - 1);
  const uint base = g - j;
  uint r = 0;
  for (uint bit = 0; bit < logn; ++bit)
    r |= ((j >> bit) & 1u) << (logn - 1 - bit);
  if (j < r) {
    const float2 a = x[base + j];
    const float2 b = x[base + r];
    x[base + j] = b * scale;
    x[base + r] = a * scale;
  } else if (j == r) {
    x[base + j] = x[base + j] * scale;
  }
}

__kernel void fft_butterfly(__global float2 *x, __global const float2 *twiddle, const uint logn,
                            const uint span, const uint inverse) {
  const uint g = get_global_id(0);
  const uint pairs = 1u << (logn - 1);
  const uint p = g & (pairs - 1);
  const uint base = (g - p) << 1;
  const uint k = p & (span - 1);
  const uint i = base + 2 * p - k;
  const float2 w = twiddle[k * (pairs / span)];
  const float sine = inverse ? -w.y : w.y;
  const float2 a = x[i];
  const float2 b = x[i + span];
  const float2 t = (float2)(b.x * w.x - b.y * sine, b.x * sine + b.y * w.x);
  x[i] = a + t;
  x[i + span] = a - t;
}
)CLC";

// Errors are measured against the largest magnitude of the output (normwise): a spectrum has
// bins near zero next to peaks, and a relative error per value would mean nothing there. A float
// FFT's error is about log2(N) roundings of the data's 2-norm (one per stage, twiddle rounding
// included) and is spread evenly over the outputs. By Parseval the largest output is at least
// the RMS of the outputs, so each output's error stays within a few times log2(N) * 2^-24 of the
// largest magnitude per transform; later transforms carry the earlier errors on unchanged
// relative to the data (forward and inverse are unitary up to their scale), so the errors add up
// over the transforms: at most about 17 * 16 * 6e-8 = 2e-5 at the manifest's largest size if they
// all added in one direction (measured: at most 1.3e-6 at the manifest's sizes and with 2^20
// points). The same bound holds for any IEEE float device, so it also covers other vendors.
static constexpr double Tolerance = 1e-4;
// The reference recomputes every signal when that costs at most this many butterflies, else
// signals spread evenly from the first to the last (each signal is independent of the others).
constexpr double ReferenceBudget = 1 << 24;

using Complex = std::complex<double>;

// Recursive radix-2 FFT in double (the even and odd points transformed separately, then
// combined): In[0], In[Stride], ... into Out[0..Size). Roots[k] is exp(-2 pi i k / Full) for the
// top-level size Full (its conjugate for the inverse), so the size-Size roots are every
// (Full / Size)-th of them.
static void referenceFft(const Complex *In, Complex *Out, size_t Size, size_t Stride,
                         const std::vector<Complex> &Roots, size_t Full) {
  if (Size == 1) {
    Out[0] = In[0];
    return;
  }
  const size_t Half = Size / 2;
  referenceFft(In, Out, Half, 2 * Stride, Roots, Full);
  referenceFft(In + Stride, Out + Half, Half, 2 * Stride, Roots, Full);
  for (size_t K = 0; K < Half; ++K) {
    const Complex Even = Out[K], Odd = Roots[K * (Full / Size)] * Out[K + Half];
    Out[K] = Even + Odd;
    Out[K + Half] = Even - Odd;
  }
}

// Deterministic noise in [-0.5, 0.5]: a 32-bit integer hash of the index, scaled.
static double noise(size_t Index) {
  uint32_t X = static_cast<uint32_t>(Index) * 0x9E3779B9u + 0x7F4A7C15u;
  X = (X ^ (X >> 16)) * 0x85EBCA6Bu;
  X = (X ^ (X >> 13)) * 0xC2B2AE35u;
  X ^= X >> 16;
  return static_cast<double>(X) / 4294967295.0 - 0.5;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n POINTS] [--batch SIGNALS] [--iterations TRANSFORMS]");
  const long PointsArg = Opts.integer("n", 4096), BatchArg = Opts.integer("batch", 64);
  const long Iterations = Opts.integer("iterations", 4);
  if (PointsArg < 2 || (PointsArg & (PointsArg - 1)) != 0)
    app::fail("--n must be a power of two, at least 2");
  if (BatchArg == 0 || Iterations == 0)
    app::fail("--batch and --iterations must be positive");
  // The kernels index points with 32-bit global ids.
  if (static_cast<double>(PointsArg) * static_cast<double>(BatchArg) >= 4294967296.0)
    app::fail("--n times --batch must be below 2^32");
  const cl_uint N = static_cast<cl_uint>(PointsArg), Batch = static_cast<cl_uint>(BatchArg);
  cl_uint LogN = 0;
  while ((1u << LogN) < N)
    ++LogN;

  // Each signal: white noise in [-0.5, 0.5] on both parts (a flat spectrum, so that the
  // normwise check below is tight on every bin) plus two tones between bins, of amplitudes 0.5
  // and 0.25 and of frequencies and phases that change with the signal (peaks with leakage over
  // the whole spectrum).
  const double Pi = std::acos(-1.0);
  const size_t Points = static_cast<size_t>(N) * Batch;
  std::vector<float> Input(2 * Points);
  for (size_t S = 0; S < Batch; ++S) {
    const double F1 = static_cast<double>((S * 7) % (N / 2 + 1)) + 0.37;
    const double F2 = static_cast<double>((S * 29 + 3) % N) + 0.81;
    for (size_t T = 0; T < N; ++T) {
      const size_t E = S * N + T;
      const double Phase1 = 2 * Pi * F1 * static_cast<double>(T) / N + 0.1 * static_cast<double>(S);
      const double Phase2 = 2 * Pi * F2 * static_cast<double>(T) / N;
      Input[2 * E] =
          static_cast<float>(noise(2 * E) + 0.5 * std::cos(Phase1) + 0.25 * std::cos(Phase2));
      Input[2 * E + 1] =
          static_cast<float>(noise(2 * E + 1) + 0.5 * std::sin(Phase1) - 0.25 * std::sin(Phase2));
    }
  }
  // The forward roots exp(-2 pi i k / N), k < N / 2, rounded to float (the device's table).
  std::vector<float> Twiddle(N);
  for (size_t K = 0; K < N / 2; ++K) {
    Twiddle[2 * K] = static_cast<float>(std::cos(2 * Pi * static_cast<double>(K) / N));
    Twiddle[2 * K + 1] = static_cast<float>(-std::sin(2 * Pi * static_cast<double>(K) / N));
  }
  // The host copy that receives the result starts as NaN, so that a failed read cannot look right.
  std::vector<float> Result(2 * Points, std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(float) * 2 * Points;
  cl_mem BufX =
      clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes, Input.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(x)");
  cl_mem BufTwiddle = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     sizeof(float) * Twiddle.size(), Twiddle.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(twiddle)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel Bitrev = clCreateKernel(Program, "fft_bitrev", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(fft_bitrev)");
  cl_kernel Butterfly = clCreateKernel(Program, "fft_butterfly", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(fft_butterfly)");
  CL_CHECK(clSetKernelArg(Bitrev, 0, sizeof(cl_mem), &BufX));
  CL_CHECK(clSetKernelArg(Bitrev, 1, sizeof(cl_uint), &LogN));
  CL_CHECK(clSetKernelArg(Butterfly, 0, sizeof(cl_mem), &BufX));
  CL_CHECK(clSetKernelArg(Butterfly, 1, sizeof(cl_mem), &BufTwiddle));
  CL_CHECK(clSetKernelArg(Butterfly, 2, sizeof(cl_uint), &LogN));

  app::Stopwatch Timer;
  const size_t LocalSize = 64;
  const size_t BitrevGlobal = Points, ButterflyGlobal = Points / 2;
  const size_t *BitrevLocal = BitrevGlobal % LocalSize == 0 ? &LocalSize : nullptr;
  const size_t *ButterflyLocal = ButterflyGlobal % LocalSize == 0 ? &LocalSize : nullptr;
  const float InverseScale = 1.0f / static_cast<float>(N);
  for (long It = 0; It < Iterations; ++It) {
    const cl_uint Inverse = static_cast<cl_uint>(It % 2);
    const float Scale = Inverse ? InverseScale : 1.0f;
    CL_CHECK(clSetKernelArg(Bitrev, 2, sizeof(float), &Scale));
    CL_CHECK(clEnqueueNDRangeKernel(Queue, Bitrev, 1, nullptr, &BitrevGlobal, BitrevLocal, 0,
                                    nullptr, nullptr));
    CL_CHECK(clSetKernelArg(Butterfly, 4, sizeof(cl_uint), &Inverse));
    for (cl_uint Half = 1; Half < N; Half *= 2) {
      CL_CHECK(clSetKernelArg(Butterfly, 3, sizeof(cl_uint), &Half));
      CL_CHECK(clEnqueueNDRangeKernel(Queue, Butterfly, 1, nullptr, &ButterflyGlobal,
                                      ButterflyLocal, 0, nullptr, nullptr));
    }
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufX, CL_TRUE, 0, Bytes, Result.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference of the same transforms (its own roots, from the float input) for
  // every signal when that costs at most ReferenceBudget butterflies, else for signals spread
  // from the first to the last. All of the output is scanned for the sentinel, and the largest
  // magnitude of the reference scales the errors.
  const double Cost = static_cast<double>(Points) / 2 * LogN * static_cast<double>(Iterations);
  size_t Signals = Batch;
  if (Cost > ReferenceBudget)
    Signals = std::min<size_t>(
        Batch, std::max<size_t>(2, static_cast<size_t>(ReferenceBudget / Cost * Batch)));
  std::vector<Complex> Forward(N / 2), Backward(N / 2), Next(N), Want(Signals * N);
  for (size_t K = 0; K < N / 2; ++K) {
    Forward[K] = std::polar(1.0, -2 * Pi * static_cast<double>(K) / N);
    Backward[K] = std::conj(Forward[K]);
  }
  auto signalOf = [&](size_t Sample) {
    return Signals == 1 ? 0 : Sample * (Batch - 1) / (Signals - 1);
  };
  double Largest = 1e-30;
  for (size_t Sample = 0; Sample < Signals; ++Sample) {
    Complex *Cur = Want.data() + Sample * N;
    const size_t First = signalOf(Sample) * N;
    for (size_t T = 0; T < N; ++T)
      Cur[T] = Complex(Input[2 * (First + T)], Input[2 * (First + T) + 1]);
    for (long It = 0; It < Iterations; ++It) {
      const bool Inverse = It % 2 == 1;
      referenceFft(Cur, Next.data(), N, 1, Inverse ? Backward : Forward, N);
      for (size_t T = 0; T < N; ++T)
        Cur[T] = Inverse ? Next[T] / static_cast<double>(N) : Next[T];
    }
    for (size_t T = 0; T < N; ++T)
      Largest = std::max(Largest, std::abs(Cur[T]));
  }
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (size_t E = 0; E < Points; ++E)
    if (!std::isfinite(Result[2 * E]) || !std::isfinite(Result[2 * E + 1]))
      ++Wrong;
  for (size_t Sample = 0; Sample < Signals; ++Sample) {
    const size_t First = signalOf(Sample) * N;
    for (size_t T = 0; T < N; ++T) {
      const Complex Got(Result[2 * (First + T)], Result[2 * (First + T) + 1]);
      const double RelError = std::abs(Got - Want[Sample * N + T]) / Largest;
      // A NaN left over from the sentinel was counted above.
      if (!(RelError <= Tolerance) && std::isfinite(RelError))
        ++Wrong;
      if (std::isfinite(RelError))
        MaxRelError = std::max(MaxRelError, RelError);
      ++Checked;
    }
  }

  app::writeOutput(Opts, Result);
  clReleaseKernel(Bitrev);
  clReleaseKernel(Butterfly);
  clReleaseProgram(Program);
  clReleaseMemObject(BufX);
  clReleaseMemObject(BufTwiddle);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu points checked (%zu of %u signals), %ld launches, max "
                "error %.3g of the largest magnitude %.3g (tolerance %.0e)",
                Wrong, Points, Checked, Signals, Batch, Iterations * (1 + LogN), MaxRelError,
                Largest, Tolerance);
  return app::report("fft", Wrong == 0, Choice, Seconds, Detail);
}
